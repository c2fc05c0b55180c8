"""Wake-ups of live feeds on a real redis-server when every connection of the store's pool is
held by a waiting read: they must still reach Redis, not queue behind the reads they end."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from partida.devstack.servers import redis_server
from partida.platform.errors import Unavailable
from partida.rules.redis_session import (
    MAX_WAIT_SECONDS,
    WAKE_CLIENT_NAME,
    RedisSessionStore,
)
from partida.rules.session import SeatMeta, Session, Wake

WAIT = MAX_WAIT_SECONDS  # each read's block time
# A woken read must be back well before its block time is up: generous, yet a wake-up that
# waited out the pool's 10 s checkout would leave its read blocked past it.
BOUND = WAIT / 2
POOL = 2  # connections of the stores built here, all of them taken by blocked reads


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """A redis-server of this module's own, so that its count of blocked clients is ours."""
    with redis_server() as found:
        yield found


@pytest.fixture
def admin(url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(url, socket_timeout=5)
    yield client
    client.close()


class Follower(threading.Thread):
    """A feed's wait on a thread of its own; daemon, so a failing test cannot hold pytest."""

    def __init__(self, store: RedisSessionStore, match_id: str, wake: Wake | None) -> None:
        super().__init__(daemon=True)
        self.store, self.match_id, self.wake = store, match_id, wake
        self.outcome: Any = None

    def run(self) -> None:
        try:
            self.outcome = self.store.events_after(self.match_id, 0, WAIT, 0, self.wake)
        except BaseException as e:
            self.outcome = e


def _blocked(admin: redis.Redis) -> int:
    return int(admin.info("clients")["blocked_clients"])


def _wait_blocked(admin: redis.Redis, count: int) -> None:
    deadline = time.monotonic() + BOUND
    while _blocked(admin) < count:
        assert time.monotonic() < deadline, "the reads never blocked"
        time.sleep(0.01)


def _back_by(followers: list[Follower], deadline: float) -> list[Any]:
    for f in followers:
        f.join(max(0.0, deadline - time.monotonic()))
        assert not f.is_alive(), "a read was not ended before its block time"
    return [f.outcome for f in followers]


@pytest.fixture
def full(url: str, admin: redis.Redis) -> Iterator[tuple[RedisSessionStore, list[Follower]]]:
    """A store whose every pool connection is held by a blocked read (the first with a Wake);
    closed after the test, which ends any read still waiting."""
    assert _blocked(admin) == 0  # the reads of an earlier test have all ended
    store = RedisSessionStore.from_url(url, idle_ttl=60, connections=POOL)
    match_id = uuid.uuid4().hex
    store.create(Session(match_id, "montanas", "standard", [SeatMeta("a")], {}, "00",
                         0.0, 0, 0))
    followers = [Follower(store, match_id, Wake() if i == 0 else None) for i in range(POOL)]
    for f in followers:
        f.start()
    _wait_blocked(admin, POOL)
    yield store, followers
    store.close()
    for f in followers:
        f.join(WAIT + 10)  # at worst each read ends at its time
    deadline = time.monotonic() + BOUND
    while _blocked(admin):  # left as it was found for the next test
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_a_wake_ends_a_read_while_every_connection_is_waiting(full, admin):
    store, (woken, still) = full
    assert woken.wake is not None
    deadline = time.monotonic() + BOUND
    # From another thread, as gRPC's callback for a caller gone would run it.
    threading.Thread(target=woken.wake.set, daemon=True).start()
    assert _back_by([woken], deadline) == [([], True)]
    assert still.is_alive() and _blocked(admin) == 1  # only that read was ended
    assert store.load(woken.match_id) is not None  # and its connection is back in the pool


def test_close_ends_every_read_while_every_connection_is_waiting(full):
    store, followers = full
    deadline = time.monotonic() + BOUND
    store.close()
    assert all(isinstance(o, Unavailable) for o in _back_by(followers, deadline))


def test_an_end_before_the_read_begins_closes_its_connection_with_the_pool_full(full, url):
    """The other way of ending a read (CLIENT KILL, when CLIENT UNBLOCK found nothing
    blocked) needs no connection of the store's pool either."""
    store, _ = full
    other = redis.Redis.from_url(url, socket_timeout=5).connection_pool.get_connection()
    try:
        other.send_command("CLIENT", "ID")
        client_id = other.read_response()
        ended: list[bool] = []
        ender = threading.Thread(target=lambda: ended.append(store._interrupt(client_id)),
                                 daemon=True)
        ender.start()
        ender.join(BOUND)
        assert ended == [True]  # not blocked: closed
        with pytest.raises(redis.ConnectionError):
            other.send_command("PING")
            other.read_response()
    finally:
        other.disconnect()


def _wake_connections(admin: redis.Redis) -> int:
    return sum(1 for c in admin.client_list() if c.get("name") == WAKE_CLIENT_NAME)


def test_wake_ups_have_connections_of_their_own_closed_with_the_store(full, admin):
    store, (woken, _) = full
    assert woken.wake is not None and _wake_connections(admin) == 0
    woken.wake.set()
    woken.join(BOUND)
    assert _wake_connections(admin) == 1
    store.close()
    deadline = time.monotonic() + BOUND
    while _wake_connections(admin):
        assert time.monotonic() < deadline, "a wake-up connection outlived the store"
        time.sleep(0.01)
