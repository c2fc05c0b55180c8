"""Live feeds (StreamMatch) over the real rules servicer, on the embedded store and on a real
redis-server alike: what a follower is sent, when its feed waits and when it ends."""

from __future__ import annotations

import threading
from typing import Any

import grpc
import pytest

from partida.dice.logic import Dice
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform.auth import PLAYER, Principal
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches, project
from partida.rules.redis_session import RedisSessionStore
from partida.rules.session import MemorySessionStore
from partida.v1 import rules_pb2
from tests.unit.rules.conftest import ALICE, Clock, new_match, served, step

EVE = Principal(PLAYER, "eve")  # holds no seat: a spectator


class Watched:
    """A real session store that tells when a feed's read waits (rather than returning at
    once, as a read after events already there does)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.waiting = threading.Event()

    def events_after(self, match_id: str, after_seq: int, wait_seconds: float,
                     after_version: int = -1, wake: Any = None, seen_seats: Any = None
                     ) -> Any:
        if wait_seconds > 0:
            self.waiting.set()
        return self.inner.events_after(match_id, after_seq, wait_seconds, after_version, wake,
                                       seen_seats)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.fixture(params=["memory", "redis"])
def sessions(request):
    if request.param == "memory":
        return Watched(MemorySessionStore())
    return Watched(RedisSessionStore.from_url(request.getfixturevalue("redis_url"),
                                              idle_ttl=600))


@pytest.fixture
def matches(sessions, tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    db = PersistenceStore(engine)
    return Matches(sessions, LocalLedger(db), Dice(db), clock=Clock())


def _items(feed: Any, until: Any, limit: int = 200) -> list[Any]:
    """Items of `feed` up to the first for which `until` holds."""
    got = []
    for item in feed:
        got.append(item)
        if until(item) or len(got) >= limit:
            return got
    return got


def test_a_delayed_spectators_feed_waits_for_the_match_to_move(matches, sessions):
    """Once a delayed spectator has been sent everything the delay allows, its feed waits
    for the match to move (as every other feed does), instead of reading the match again
    and again at once: it held a whole core per delayed spectator for the whole match. And
    it then goes on with exactly what the next action reveals."""
    s = new_match(matches, spectator_delay=3)
    for _ in range(6):
        step(matches, s.match_id)
    with served(matches, "eve") as (stub, md):
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=s.match_id),
                                metadata=md, timeout=60)
        first = _items(feed, lambda i: i.HasField("view"))
        assert first[-1].view.version == 3
        assert sessions.waiting.wait(10), "the feed never waited"
        sent = [i.event for i in first if i.HasField("event")]
        assert all(e.version <= 3 for e in sent)
        step(matches, s.match_id)
        more = _items(feed, lambda i: i.HasField("view"))
        feed.cancel()
    assert more[-1].view.version == 4
    new = [i.event for i in more if i.HasField("event")]
    log = [e for entry in matches.ledger.load_match(s.match_id)[1] for e in entry.events]
    assert [e.sequence for e in sent + new] == [e["seq"] for e in log if e["version"] <= 4]


def test_a_follower_resuming_from_before_the_kept_events_gets_exactly_what_it_missed(
        matches):
    """A seat reconnecting from a sequence older than the live store keeps gets the rest
    from the log, then the live events, each once and in order, up to the end."""
    s = new_match(matches)
    while matches.session(s.match_id).event_seq < 3 * 32:
        step(matches, s.match_id)
    with served(matches, "alice") as (stub, md):
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(
            match_id=s.match_id, seat=0, after_sequence=2), metadata=md, timeout=120)
        got = _items(feed, lambda i: i.HasField("view"), limit=10_000)
        for _ in range(3):
            step(matches, s.match_id)
        got += _items(feed, lambda i: i.HasField("view") and i.view.version
                      == matches.session(s.match_id).version, limit=10_000)
        feed.cancel()
    log = [e for entry in matches.ledger.load_match(s.match_id)[1] for e in entry.events]
    sent = [i.event.sequence for i in got if i.HasField("event")]
    assert sent == [e["seq"] for e in project(log, 0) if e["seq"] > 2]
    assert len(sent) > 3 * 32


def test_a_feed_asked_to_resume_past_the_last_event_is_refused(matches):
    """A follower claiming to have seen events the match has not made yet was accepted, and
    the events to come up to that number were skipped, unsaid: it is a client's mistake."""
    s = new_match(matches)
    step(matches, s.match_id)
    last = matches.session(s.match_id).event_seq
    with served(matches, "alice") as (stub, md):
        ok = stub.StreamMatch(rules_pb2.StreamMatchRequest(
            match_id=s.match_id, seat=0, after_sequence=last), metadata=md, timeout=60)
        assert _items(ok, lambda i: i.HasField("view"))[-1].view.version == 1  # up to date
        ok.cancel()
        past = stub.StreamMatch(rules_pb2.StreamMatchRequest(
            match_id=s.match_id, seat=0, after_sequence=last + 1), metadata=md, timeout=60)
        with pytest.raises(grpc.RpcError) as refused:
            next(past)
    assert refused.value.code() == grpc.StatusCode.OUT_OF_RANGE
    assert refused.value.details() == (f"after_sequence {last + 1} is past the match's "
                                       "last event")


def test_a_delayed_spectator_cannot_learn_how_far_the_match_is_by_resuming(matches):
    """The refusal above would tell a delayed spectator, by trying numbers, how many events
    the live match has made: its feed resumed past them is not refused."""
    s = new_match(matches, spectator_delay=3)
    for _ in range(6):
        step(matches, s.match_id)
    past = matches.session(s.match_id).event_seq + 1
    with served(matches, "eve") as (stub, md):
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(
            match_id=s.match_id, after_sequence=past), metadata=md, timeout=60)
        assert _items(feed, lambda i: i.HasField("view"))[-1].view.version == 3
        feed.cancel()


def test_a_seat_changing_hands_between_actions_is_shown_at_once(matches, sessions):
    """A player handing their seat to a bot, or taking it back, moves no version and makes
    no event: a waiting feed showed it only with the next action's decision, minutes later
    on a turn clock. It now wakes and sends the decision again, its bot_seats changed (the
    feed's own wait is 20 s; its deadline here is shorter)."""
    s = new_match(matches)
    while matches.legal(s.match_id, 0, ALICE)[3] != (0,):
        step(matches, s.match_id)  # Alice's decision now
    with served(matches, "bob") as (stub, md):
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=s.match_id, seat=1),
                                metadata=md, timeout=15)
        first = _items(feed, lambda i: i.HasField("view"))
        assert list(first[-1].decision.bot_seats) == []
        for controller, bots in (("bot", [0]), ("human", [])):
            assert sessions.waiting.wait(10), "the feed never waited"
            sessions.waiting.clear()  # before the change: the feed waits again after it
            matches.set_controller(s.match_id, 0, controller, "", ALICE)
            shown = _items(feed, lambda i: i.HasField("view"))
            assert [i.HasField("event") for i in shown] == [False]  # no event: none made
            assert list(shown[-1].decision.seats) == [0]
            assert list(shown[-1].decision.bot_seats) == bots
            assert shown[-1].view.version == first[-1].view.version
        feed.cancel()
