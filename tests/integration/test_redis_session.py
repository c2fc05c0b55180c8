"""RedisSessionStore on a real redis-server: compare-and-set, events, idempotency, expiry."""

import threading
import time
import uuid

import pytest
import redis

from partida.devstack.servers import redis_server
from partida.platform import jsonio
from partida.rules.redis_session import PACK_FROM, RedisSessionStore
from partida.rules.service import STREAM_WAIT_SECONDS
from partida.rules.session import (
    EVENTS_KEPT,
    MemorySessionStore,
    SeatMeta,
    Session,
    Wake,
    seats_mark,
)


def _session(match_id: str, version: int = 0, event_seq: int = 0) -> Session:
    return Session(match_id, "montanas", "standard", [SeatMeta("a")], {}, "00", 0.0, 0, 0,
                   version=version, state={"x": version}, event_seq=event_seq)


@pytest.fixture(params=["redis", "memory"])
def store(request, redis_url):
    if request.param == "memory":
        return MemorySessionStore()
    return RedisSessionStore.from_url(redis_url, idle_ttl=60)


def _events(first: int, n: int, version: int) -> list[dict]:
    return [{"seq": i, "version": version, "kind": "k", "data": {}}
            for i in range(first, first + n)]


def test_compare_and_set_only_from_the_expected_version(store):
    mid = uuid.uuid4().hex
    assert store.create(_session(mid)) and not store.create(_session(mid))
    assert store.commit(_session(mid, 1), 0, _events(1, 2, 1), "r1", "first")
    assert not store.commit(_session(mid, 2), 0, _events(3, 1, 2), "r2", "stale")
    assert store.load(mid).version == 1 and store.load(mid).state == {"x": 1}
    session, response = store.load_with_response(mid, "r1")
    assert (session.version, response) == (1, "first")
    assert store.load_with_response(mid, "r2")[1] is None
    found, complete = store.events_after(mid, 0, 0)
    assert [e["seq"] for e in found] == [1, 2] and complete


def test_old_events_are_trimmed_and_reported_incomplete(store):
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    version = last = 0
    for start in range(1, 3 * EVENTS_KEPT, 50):
        assert store.commit(_session(mid, version + 1), version, _events(start, 50, version + 1),
                            "", "")
        version, last = version + 1, start + 49
    found, complete = store.events_after(mid, 0, 0)
    assert not complete and found and found[0]["seq"] > 1
    # Trimmed exactly: the last EVENTS_KEPT events are all there, the one before is not.
    assert store.events_after(mid, last - EVENTS_KEPT, 0)[1]
    assert not store.events_after(mid, last - EVENTS_KEPT - 1, 0)[1]
    found, complete = store.events_after(mid, last - 5, 0)
    assert complete and [e["seq"] for e in found] == list(range(last - 4, last + 1))


def test_deadlines_come_due_in_order(store):
    a, b = uuid.uuid4().hex, uuid.uuid4().hex
    store.set_deadline(a, 100.0)
    store.set_deadline(b, 50.0)
    due = [m for m in store.due_deadlines(120.0, 10) if m in (a, b)]
    assert due == [b, a]
    store.set_deadline(a, 0)
    assert a not in store.due_deadlines(120.0, 10)


def test_the_index_is_known_whole_until_the_store_comes_back_empty():
    """What tells the rules service to put every unfinished match back in the deadline index
    (Matches.restore_lost_index): a Redis flushed, or restarted without persistence."""
    with redis_server() as url:
        store = RedisSessionStore.from_url(url)
        assert not store.index_whole()  # a new Redis: its index holds nothing yet
        store.set_deadlines(["a", "b"], 100.0)
        store.mark_index_whole()
        assert store.index_whole() and store.due_deadlines(100.0, 10) == ["a", "b"]
        redis.Redis.from_url(url).flushall()
        assert not store.index_whole() and store.due_deadlines(100.0, 10) == []
    memory = MemorySessionStore()  # the embedded server's: new with every process
    assert not memory.index_whole()
    memory.mark_index_whole()
    assert memory.index_whole()


def test_sessions_share_a_hash_tag_and_expire_when_idle(redis_url):
    store = RedisSessionStore.from_url(redis_url, idle_ttl=60)
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    store.commit(_session(mid, 1), 0, _events(1, 1, 1), "r", "x")
    client = redis.Redis.from_url(redis_url)
    keys = [k.decode() for k in client.keys(f"match:{{{mid}}}:*")]
    assert len(keys) == 2 and all(f"{{{mid}}}" in k for k in keys)
    assert all(0 < client.ttl(k) <= 60 for k in keys)


def test_a_finished_match_is_kept_for_the_finished_ttl_only(redis_url):
    store = RedisSessionStore.from_url(redis_url, idle_ttl=600, finished_ttl=60)
    client = redis.Redis.from_url(redis_url)
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    store.commit(_session(mid, 1), 0, _events(1, 1, 1), "r", "x")
    keys = client.keys(f"match:{{{mid}}}:*")
    assert len(keys) == 2 and all(60 < client.ttl(k) <= 600 for k in keys)
    end = _session(mid, 2, 1)
    end.status = "finished"
    store.commit(end, 1, _events(2, 1, 2), "r2", "y")
    assert all(0 < client.ttl(k) <= 60 for k in keys)


def test_long_texts_are_kept_deflated_and_read_back_as_they_were(redis_url):
    """A session and a response past PACK_FROM bytes are deflated (the response cached for a
    retry lists the next actions, and can take kilobytes); shorter ones, and those written
    before packing, are read as they are."""
    store = RedisSessionStore.from_url(redis_url, idle_ttl=60)
    client = redis.Redis.from_url(redis_url)
    mid = uuid.uuid4().hex
    key = f"match:{{{mid}}}:session"
    store.create(_session(mid))
    session = _session(mid, 1)
    session.state = {"hexes": [{"terrain": "mountain", "units": []}] * 200}
    response = jsonio.dumps({"next_actions": [[f"move-{i}", "Move"] for i in range(300)]})
    assert len(response) > PACK_FROM and len(session.to_json()) > PACK_FROM
    assert store.commit(session, 0, [], "r1", response)
    blob, kept = client.hmget(key, "blob", "response")
    assert len(blob) < len(session.to_json()) / 2 and len(kept) < len(response) / 2
    assert store.load(mid).state == session.state
    assert store.load_with_response(mid, "r1") == (session, response)
    assert store.commit(_session(mid, 2), 1, [], "r2", "short")
    assert client.hget(key, "response") == b"short"
    assert store.load_with_response(mid, "r2")[1] == "short"
    client.hset(key, "blob", session.to_json())  # as stored before packing
    assert store.load(mid) == session


def test_only_the_last_request_is_remembered(store):
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    store.commit(_session(mid, 1), 0, [], "r1", "one")
    store.commit(_session(mid, 2), 1, [], "r2", "two")
    assert store.load_with_response(mid, "r2")[1] == "two"
    assert store.load_with_response(mid, "r1")[1] is None  # older ones: from the log
    assert store.load_with_response(uuid.uuid4().hex, "r2") == (None, None)


def test_a_stream_waiting_its_whole_wait_on_a_quiet_match_returns_empty(store):
    """StreamMatch waits STREAM_WAIT_SECONDS for events; on a quiet match (a human thinking)
    the blocking read must end as an empty answer, not as a client-side socket timeout (the
    Redis client's own read timeout once equalled the wait and failed such streams)."""
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    found, complete = store.events_after(mid, 0, STREAM_WAIT_SECONDS)
    assert found == [] and complete
    assert store.commit(_session(mid, 1), 0, _events(1, 1, 1), "r1", "ok")  # still usable
    assert [e["seq"] for e in store.events_after(mid, 0, 0)[0]] == [1]


def test_a_version_step_without_events_wakes_a_waiting_stream(store):
    """An action may hand the decision over without an event (a ¿Pasarán? side ending its
    segment): a stream waiting at the version it last showed wakes when the match moves
    past it, instead of sleeping out its wait; then the step is not seen again."""
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    assert store.commit(_session(mid, 1, 2), 0, _events(1, 2, 1), "r1", "ok")
    mover = threading.Timer(0.3, lambda: store.commit(_session(mid, 2, 2), 1, [], "r2", "ok"))
    mover.start()
    started = time.monotonic()
    found, complete = store.events_after(mid, 2, 15.0, after_version=1)
    mover.join()
    assert found == [] and complete and time.monotonic() - started < 10  # woken, not timed out
    assert store.load(mid).version == 2
    # Seen at version 2, nothing is new: no event, and the mark is not an event.
    assert store.events_after(mid, 2, 0, after_version=2) == ([], True)
    assert store.commit(_session(mid, 3, 3), 2, _events(3, 1, 3), "r3", "ok")
    found, complete = store.events_after(mid, 2, 0, after_version=2)
    assert [e["seq"] for e in found] == [3] and complete
    assert [e["seq"] for e in store.events_after(mid, 0, 0)[0]] == [1, 2, 3]


def _handed(mid: str, version: int, event_seq: int) -> Session:
    """The session with its one seat handed to a bot (SetSeatController): same version."""
    s = _session(mid, version, event_seq)
    s.seats[0].controller, s.seats[0].bot = "bot", "heuristic"
    return s


def test_a_seat_changing_hands_wakes_a_waiting_stream(store):
    """A seat handed to a bot (or taken back) moves no version and makes no event: a stream
    waiting with the seats it last showed wakes, instead of sleeping out its wait."""
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    assert store.commit(_session(mid, 1, 2), 0, _events(1, 2, 1), "r1", "ok")
    seen = seats_mark(_session(mid).seats)
    before = seen
    hand = threading.Timer(0.3, lambda: store.commit(_handed(mid, 1, 2), 1, [], "", "",
                                                     seats_before=before))
    hand.start()
    started = time.monotonic()
    found, complete = store.events_after(mid, 2, 15.0, after_version=1, seen_seats=seen)
    hand.join()
    assert found == [] and complete and time.monotonic() - started < 10  # woken
    assert store.load(mid).seats[0].controller == "bot"


def test_a_stream_whose_seats_changed_before_its_wait_does_not_wait(store):
    """The seats changed between the follower's reading of the match and its wait: the wait
    ends at once (the change is not lost for the rest of the wait)."""
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    seen = seats_mark(_session(mid).seats)
    assert store.commit(_handed(mid, 0, 0), 0, [], "", "", seats_before=seen)
    started = time.monotonic()
    assert store.events_after(mid, 0, 15.0, after_version=0, seen_seats=seen) == ([], True)
    assert time.monotonic() - started < 10
    started = time.monotonic()  # seen as they are now: it waits its whole (short) wait
    now = seats_mark(_handed(mid, 0, 0).seats)
    assert store.events_after(mid, 0, 1.0, after_version=0, seen_seats=now) == ([], True)
    assert time.monotonic() - started >= 0.9


def test_marks_of_event_less_steps_do_not_hide_trimmed_events(store):
    """Marks share the stream's room with events: once events are trimmed away, a mark left
    oldest must not make the store claim it still holds them."""
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    assert store.commit(_session(mid, 1, EVENTS_KEPT), 0, _events(1, EVENTS_KEPT, 1), "", "")
    version = 1
    for _ in range(EVENTS_KEPT):  # event-less steps push every event out
        assert store.commit(_session(mid, version + 1, EVENTS_KEPT), version, [], "", "")
        version += 1
    found, complete = store.events_after(mid, 0, 0)
    if isinstance(store, RedisSessionStore):  # marks took the events' room: read the log
        assert not complete
    else:  # the memory store keeps no marks
        assert complete and found == _events(1, EVENTS_KEPT, 1)
    assert store.events_after(mid, EVENTS_KEPT, 0) == ([], True)


def test_a_wake_ends_a_wait_at_once_and_the_store_carries_on(store):
    """A live feed whose caller has gone is woken (session.Wake) instead of sleeping out its
    wait with a server thread held; on Redis by CLIENT UNBLOCK of the waiting connection."""
    mid = uuid.uuid4().hex
    store.create(_session(mid))
    for _ in range(2):  # the second time on a connection already interrupted once
        gone = Wake()
        threading.Timer(0.3, gone.set).start()
        started = time.monotonic()
        assert store.events_after(mid, 0, 15.0, 0, gone) == ([], True)
        assert time.monotonic() - started < 5
    assert store.events_after(mid, 0, 15.0, 0, gone) == ([], True)  # set before: no wait
    assert store.commit(_session(mid, 1, 1), 0, _events(1, 1, 1), "r1", "ok")
    found, _ = store.events_after(mid, 0, 15.0, 0, Wake())
    assert [e["seq"] for e in found] == [1]
    mover = threading.Timer(0.3, lambda: store.commit(_session(mid, 2, 2), 1,
                                                      _events(2, 1, 2), "r2", "ok"))
    mover.start()
    found, _ = store.events_after(mid, 1, 15.0, 1, Wake())  # events still wake it
    mover.join()
    assert [e["seq"] for e in found] == [2]


def test_a_wake_with_redis_out_of_reach_raises_nothing():
    """Wake.set runs on gRPC's callback thread when a caller goes away: with Redis gone, the
    interrupt gives up quietly (the read, if any, ends at its time)."""
    from partida.devstack.servers import free_port

    down = RedisSessionStore(redis.Redis(port=free_port(), socket_connect_timeout=0.5))
    gone = Wake()
    assert gone.arm(lambda: down._unblock(7))
    gone.set()  # no exception
    assert gone.is_set()
