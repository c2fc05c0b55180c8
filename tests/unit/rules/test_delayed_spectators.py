"""Spectators of a match with spectator_delay see it that many actions behind, and are told
nothing of the live position: GetView's and StreamMatch's decision carries the deadline the
decision they are shown had, GetMatch the version they are shown. Seats see the live match.
(A delay hides the live position, and its timing too: a live deadline tells how long ago
the current decision arose, and the live version how far ahead the match is.)"""

from __future__ import annotations

import time
from typing import Any

import pytest

from partida.rules.matches import Matches
from partida.v1 import rules_pb2
from tests.unit.rules.conftest import new_match, served, step

DELAY, TIMEOUT = 3, 60


def _play(matches: Matches, clock: Any, match_id: str, steps: int) -> dict[int, float]:
    """`steps` defaults, 7 s apart; the deadline each version's decision had."""
    deadlines = {0: matches.session(match_id).deadline}
    for _ in range(steps):
        clock.now += 7
        step(matches, match_id)
        s = matches.session(match_id)
        deadlines[s.version] = s.deadline
    return deadlines


def _seconds(decision: Any) -> float | None:
    return decision.deadline.ToNanoseconds() / 1e9 if decision.HasField("deadline") else None


@pytest.fixture
def delayed(matches, clock):
    s = new_match(matches, decision_timeout=TIMEOUT, spectator_delay=DELAY)
    return s.match_id, _play(matches, clock, s.match_id, 5)


def test_a_delayed_spectators_view_has_the_deadline_of_the_decision_it_shows(matches,
                                                                              delayed):
    match_id, deadlines = delayed
    live = matches.session(match_id)
    with served(matches, "eve") as (stub, eve):
        got = stub.GetView(rules_pb2.GetViewRequest(match_id=match_id), metadata=eve)
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=match_id),
                                metadata=eve, timeout=30)
        streamed = next(i for i in feed if i.HasField("view"))
        feed.cancel()
    assert got.view.version == streamed.view.version == live.version - DELAY
    assert list(got.decision.seats) != []
    assert _seconds(got.decision) == pytest.approx(deadlines[live.version - DELAY])
    assert _seconds(streamed.decision) == _seconds(got.decision) != live.deadline
    with served(matches, "alice") as (stub, alice):  # a seat: the live decision
        mine = stub.GetView(rules_pb2.GetViewRequest(match_id=match_id, seat=0),
                            metadata=alice)
    assert (mine.view.version, _seconds(mine.decision)) == (live.version,
                                                            pytest.approx(live.deadline))


def test_get_match_tells_a_delayed_spectator_the_version_it_is_shown(matches, delayed):
    match_id, _ = delayed
    live = matches.session(match_id)
    with served(matches, "eve") as (stub, eve):
        spectator = stub.GetMatch(rules_pb2.GetMatchRequest(match_id=match_id),
                                  metadata=eve).match
    with served(matches, "alice") as (stub, alice):
        seated = stub.GetMatch(rules_pb2.GetMatchRequest(match_id=match_id),
                               metadata=alice).match
    assert spectator.version == live.version - DELAY
    assert seated.version == live.version


def test_a_rebuilt_session_keeps_the_delayed_decisions_deadline(matches, clock):
    """Rebuilt from the log, the delayed decision was asked when its record was written."""
    clock.now = time.time()  # a record's time is when it was written, by the wall clock
    s = new_match(matches, decision_timeout=TIMEOUT, spectator_delay=DELAY)
    for _ in range(5):
        time.sleep(0.01)  # records written apart
        step(matches, s.match_id)
    matches.sessions.invalidate(s.match_id)
    with served(matches, "eve") as (stub, eve):
        got = stub.GetView(rules_pb2.GetViewRequest(match_id=s.match_id), metadata=eve)
    live = matches.session(s.match_id)
    asked = {e.sequence: e.created_at for e in matches.ledger.load_match(s.match_id)[1]}
    assert got.view.version == live.version - DELAY
    assert _seconds(got.decision) == pytest.approx(asked[got.view.version] + TIMEOUT, abs=1e-3)
    assert _seconds(got.decision) != pytest.approx(live.deadline, abs=1e-3)


def test_a_delayed_decision_not_known_to_have_been_asked_has_no_deadline(matches, clock,
                                                                         delayed):
    """A session written before the spectators' decision kept its time (a rolling upgrade)
    does not know when the delayed decision arose: no deadline, rather than the live one."""
    match_id, _ = delayed
    s = matches.session(match_id)
    s.spectator.pop("asked_at", None)
    for e in s.spectator["pending"]:
        e.pop("created_at", None)
    assert matches.sessions.commit(s, s.version, [], "", "")
    with served(matches, "eve") as (stub, eve):
        got = stub.GetView(rules_pb2.GetViewRequest(match_id=match_id), metadata=eve)
        assert list(got.decision.seats) != [] and not got.decision.HasField("deadline")
        clock.now += 7
        step(matches, match_id)  # the next delayed decision's record had no time either
        got = stub.GetView(rules_pb2.GetViewRequest(match_id=match_id), metadata=eve)
        assert list(got.decision.seats) != [] and not got.decision.HasField("deadline")
