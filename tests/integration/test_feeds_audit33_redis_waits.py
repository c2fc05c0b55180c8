"""Ending the waits of live feeds on a real redis-server (and, alike, on the memory store):
at close (the server draining), and when a Wake comes at the worst moment."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
import redis

from partida.platform.errors import Unavailable
from partida.rules.redis_session import RedisSessionStore
from partida.rules.session import MemorySessionStore, SeatMeta, Session, Wake

WAIT = 15.0  # seconds a read may wait: far longer than any bound below
BOUND = 8.0  # seconds a test waits for a read that should end at once


def _session(match_id: str) -> Session:
    return Session(match_id, "montanas", "standard", [SeatMeta("a")], {}, "00", 0.0, 0, 0)


@pytest.fixture(params=["redis", "memory"])
def store(request: Any) -> Any:
    if request.param == "memory":
        return MemorySessionStore()
    return RedisSessionStore.from_url(request.getfixturevalue("redis_url"), idle_ttl=60)


class Follower(threading.Thread):
    """events_after on a thread of its own, keeping what it returned or raised."""

    def __init__(self, call: Any) -> None:
        super().__init__(daemon=True)  # should a test fail, it must not hold pytest
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as e:
            self.error = e

    def outcome(self) -> Any:
        self.join(BOUND)
        assert not self.is_alive(), "the wait was not ended"
        return self.error if self.error is not None else self.result


def _admin(store: Any) -> redis.Redis:
    """A client of its own to the store's Redis: the store's connections stay the reads'."""
    pool = store.r.connection_pool
    return redis.Redis(connection_pool=redis.ConnectionPool(
        connection_class=pool.connection_class, **pool.connection_kwargs))


def _blocking(store: Any, start: Any) -> None:
    """Runs `start` and returns once one more read of the store's Redis is blocked for each
    thread it started (at once on the memory store: its close ends a wait either way)."""
    if not isinstance(store, RedisSessionStore):
        start()
        return
    admin = _admin(store)
    try:
        before = admin.info("clients")["blocked_clients"]  # another test's may still be
        started = start()
        deadline = time.monotonic() + BOUND
        while admin.info("clients")["blocked_clients"] < before + started:
            assert time.monotonic() < deadline, "the read never blocked"
            time.sleep(0.01)
    finally:
        admin.close()


def _started(*followers: Follower) -> Any:
    def start() -> int:
        for f in followers:
            f.start()
        return len(followers)
    return start


def _memory_error() -> type[BaseException]:
    """What a follower's wait on the memory store ends with at close."""
    memory = MemorySessionStore()
    memory.close()
    with pytest.raises(Exception) as raised:
        memory.events_after("m", 0, WAIT, 0, Wake())
    return type(raised.value)


def test_close_ends_every_blocked_wait_as_the_memory_store_does(store):
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    followers = [Follower(lambda: store.events_after(mid, 0, WAIT, 0, Wake())),
                 Follower(lambda: store.events_after(mid, 0, WAIT))]  # one without a wake
    _blocking(store, _started(*followers))
    store.close()
    for f in followers:
        error = f.outcome()
        assert isinstance(error, Unavailable) and type(error) is _memory_error()
    with pytest.raises(Unavailable):  # nor does a new wait begin
        store.events_after(mid, 0, WAIT, 0, Wake())
    with pytest.raises(Unavailable):  # nor a read that would not wait
        store.events_after(mid, 0, 0)


class SetAsArmed(Wake):
    """The caller goes right after its wait was armed, before the read is under way."""

    def arm(self, interrupt: Any) -> bool:
        armed = super().arm(interrupt)
        self.set()
        return armed


def test_a_wake_set_as_the_wait_is_armed_still_ends_it(store):
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    for _ in range(2):  # and the store carries on after
        follower = Follower(lambda: store.events_after(mid, 0, WAIT, 0, SetAsArmed()))
        follower.start()
        assert follower.outcome() == ([], True)
    assert store.commit(Session(**{**_session(mid).__dict__, "version": 1, "event_seq": 1}),
                        0, [{"seq": 1, "version": 1, "kind": "k", "data": {}}], "r1", "ok")
    found, complete = store.events_after(mid, 0, WAIT, 0, Wake())
    assert [e["seq"] for e in found] == [1] and complete


def test_a_wake_reaches_a_read_on_a_connection_that_reconnected(redis_url):
    """A connection's id changes when it reconnects (a Redis restarted, a network blip): the
    wake must end the read by the id the connection has now."""
    store = RedisSessionStore.from_url(redis_url, idle_ttl=60)
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    for _ in range(2):
        gone = Wake()
        follower = Follower(lambda gone=gone: store.events_after(mid, 0, WAIT, 0, gone))
        _blocking(store, _started(follower))
        gone.set()
        assert follower.outcome() == ([], True)
        store.r.connection_pool.disconnect()  # every connection reconnects when next used


def test_an_end_that_comes_before_redis_begins_the_read_closes_its_connection(redis_url):
    """CLIENT UNBLOCK does nothing to a read Redis has not begun: the connection is closed
    instead, so the read fails as it comes rather than waiting out its time."""
    store = RedisSessionStore.from_url(redis_url, idle_ttl=60)
    conn = redis.Redis.from_url(redis_url, socket_timeout=WAIT + 10).connection_pool \
        .get_connection()
    conn.send_command("CLIENT", "ID")
    client_id = conn.read_response()
    assert store._interrupt(client_id)  # nothing blocked there yet: closed
    reader = Follower(lambda: (conn.send_command("XREAD", "BLOCK", int(WAIT * 1000),
                                                 "STREAMS", uuid.uuid4().hex, "$"),
                               conn.read_response()))
    reader.start()
    assert isinstance(reader.outcome(), redis.ConnectionError)


def test_an_end_that_finds_the_read_answered_leaves_the_store_working(redis_url):
    """Events already there answer the read at once, before the wake's end reaches Redis: its
    connection may be closed under it, and the store carries on with a fresh one."""
    store = RedisSessionStore.from_url(redis_url, idle_ttl=60)
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    moved = Session(**{**_session(mid).__dict__, "version": 1, "event_seq": 1})
    assert store.commit(moved, 0, [{"seq": 1, "version": 1, "kind": "k", "data": {}}],
                        "r1", "ok")
    for _ in range(3):
        found, _ = store.events_after(mid, 0, WAIT, 0, SetAsArmed())
        assert [e["seq"] for e in found] in ([1], [])  # answered, or ended on its way
        assert store.load(mid).version == 1
        assert [e["seq"] for e in store.events_after(mid, 0, WAIT, 0, Wake())[0]] == [1]
