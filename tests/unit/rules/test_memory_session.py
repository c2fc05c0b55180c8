"""MemorySessionStore's waits (the embedded server's live feeds): a commit wakes the followers
of its own match only. When every commit woke every feed of the process, 1,000 idle feeds
cut the embedded server's actions per second by more than half."""

from __future__ import annotations

import threading
import types

from partida.platform import notify
from partida.rules.session import MemorySessionStore, SeatMeta, Session


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
