"""MemorySessionStore's waits (the embedded server's live feeds): a commit wakes the followers
of its own match only. When every commit woke every feed of the process, 1,000 idle feeds
cut the embedded server's actions per second by more than half. And its expiry, which
follows Redis's."""

from __future__ import annotations

import threading
import types

from partida.platform import notify
from partida.rules.session import MemorySessionStore, SeatMeta, Session

from .conftest import Clock


def _session(match_id: str, version: int = 0, event_seq: int = 0) -> Session:
    return Session(match_id, "montanas", "standard", [SeatMeta("a")], {}, "00", 0.0, 0, 0,
                   version=version, state={"x": version}, event_seq=event_seq)


def _event(seq: int, version: int) -> dict:
    return {"seq": seq, "version": version, "kind": "k", "data": {}}


_counts = threading.Lock()


class CountingCondition(threading.Condition):
    waits = wakes = 0

    def wait(self, timeout=None):
        with _counts:
            type(self).waits += 1
        woke = super().wait(timeout)
        if woke:
            type(self).wakes += 1
        return woke


def test_a_commit_wakes_only_the_followers_of_its_match(monkeypatch):
    monkeypatch.setattr(notify, "threading", types.SimpleNamespace(
        Lock=threading.Lock, Condition=CountingCondition))
    store = MemorySessionStore()
    for match_id in ("busy", "quiet"):
        store.create(_session(match_id))
    results: list = []
    followers = [threading.Thread(target=lambda: results.append(
        store.events_after("quiet", 0, 30.0))) for _ in range(20)]
    for f in followers:
        f.start()
    while CountingCondition.waits < 20:  # all waiting
        threading.Event().wait(0.01)

    for version in range(1, 51):
        assert store.commit(_session("busy", version, version), version - 1,
                            [_event(version, version)], f"r{version}", "ok")
    threading.Event().wait(0.3)  # time for any woken follower to run
    assert CountingCondition.wakes == 0 and not results

    assert store.commit(_session("quiet", 1, 1), 0, [_event(1, 1)], "q1", "ok")
    for f in followers:
        f.join(10)
    assert [[e["seq"] for e in found] for found, _ in results] == [[1]] * 20
    assert CountingCondition.wakes == 20
    assert store._changes._watches == {}  # followers that returned are no longer filed


def _finished(match_id: str, version: int) -> Session:
    s = _session(match_id, version)
    s.status = "finished"
    return s


def test_a_finished_match_goes_after_the_finished_ttl_and_an_idle_one_after_the_idle_ttl():
    """As Redis expires a match's keys: an active match IDLE_TTL after its last write, a
    finished one FINISHED_TTL after its end, with its events and last response."""
    clock = Clock()
    start = clock.now
    store = MemorySessionStore(idle_ttl=100, finished_ttl=10, clock=clock)
    for mid in ("active", "ended"):
        assert store.create(_session(mid))
    assert store.commit(_session("active", 1), 0, [_event(1, 1)], "ra", "a")
    assert store.commit(_finished("ended", 1), 0, [_event(1, 1)], "re", "e")
    clock.now = start + 9
    store.create(_session("other"))  # expiry is checked as sessions are written
    assert store.load("ended") is not None
    clock.now = start + 10.5
    store.create(_session("other-2"))
    assert store.load("ended") is None
    assert store.load_with_response("ended", "re") == (None, None)
    assert store.events_after("ended", 0, 0) == ([], True)
    assert store.load("active").version == 1
    assert store.load_with_response("active", "ra")[1] == "a"
    clock.now = start + 100.5
    store.create(_session("other-3"))
    assert store.load("active") is None and store.load("other").version == 0


def test_a_write_gives_a_match_its_whole_lifetime_again():
    clock = Clock()
    start = clock.now
    store = MemorySessionStore(idle_ttl=100, finished_ttl=10, clock=clock)
    store.create(_session("m"))
    clock.now = start + 90
    assert store.commit(_session("m", 1), 0, [], "", "")
    clock.now = start + 150
    store.create(_session("other"))
    assert store.load("m").version == 1
    clock.now = start + 190.5
    store.create(_session("other-2"))
    assert store.load("m") is None


def test_a_session_written_by_a_newer_replica_is_read():
    """Replicas of two versions share the sessions during a rolling upgrade: fields a newer
    one added (here to a seat and to the session) are left out, where reading one failed
    every call on that match (this is how sides reached sessions, 2026-12-06)."""
    import json
    data = json.loads(_session("m1", version=3).to_json())
    data["seats"][0]["handedness"] = "left"
    data["weather"] = "rain"
    read = Session.from_json(json.dumps(data))
    assert read.to_json() == _session("m1", version=3).to_json()
