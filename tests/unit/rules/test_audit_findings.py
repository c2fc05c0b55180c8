"""Refusals, hidden information and repeats of the rules service, found by an audit: each
test builds its match through the real in-process parts and checks one finding."""

from __future__ import annotations

import time

import grpc
import pytest

from partida.dice.logic import Dice
from partida.platform.auth import PLAYER, SERVICE, Principal
from partida.platform.calls import principal_var
from partida.platform.errors import InvalidArgument, PermissionDenied
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.service import RulesServicer
from partida.rules.session import MemorySessionStore, SeatMeta
from partida.v1 import rules_pb2
from tests.unit.rules.conftest import (
    ALICE,
    BOB,
    BOTS,
    new_match,
    play_defaults,
    rid,
    served,
    step,
    who,
)

EVE = Principal(PLAYER, "eve")  # holds no seat: a spectator


def _hidden_from_others(matches: Matches, match_id: str, seat: int, version: int) -> bool:
    """Whether the log record of `version` holds an event that only `seat` sees in full."""
    entry = next(e for e in matches.ledger.load_match(match_id)[1] if e.sequence == version)
    return any(seat in (e.get("visible_to") or ()) for e in entry.events)


@pytest.fixture
def fog_match(matches):
    """A ¿Pasarán? match with fog of war (9.2), played on until an action whose events show
    the acting seat something the other seat sees only in part."""
    s = matches.create("pasaran", "campaign", [SeatMeta("alice"), SeatMeta("bob")],
                       {"fog_of_war": True})
    for _ in range(3000):
        seat, request_id, result = step(matches, s.match_id)
        if _hidden_from_others(matches, s.match_id, seat, result.version):
            return s.match_id, seat, request_id, result
    raise AssertionError("no action with hidden events")


def test_a_repeated_request_is_answered_to_its_own_seat_only(matches, fog_match):
    """The last result, kept for an immediate repeat, carries the acting seat's own events:
    another seat's player or a spectator naming its request id (bot request ids are
    predictable) is refused, not handed them."""
    match_id, seat, request_id, first = fog_match
    other = 1 - seat
    other_player = who(matches.session(match_id).seats[other].player_id)
    before = matches.session(match_id).to_json()
    with pytest.raises(InvalidArgument):
        matches.submit(match_id, other, first.version - 1, request_id, "x", other_player)
    with pytest.raises(PermissionDenied):
        matches.submit(match_id, seat, first.version - 1, request_id, "x", EVE)
    assert matches.session(match_id).to_json() == before
    owner = who(matches.session(match_id).seats[seat].player_id)
    again = matches.submit(match_id, seat, first.version - 1, request_id, "x", owner)
    assert (again.version, again.events) == (first.version, first.events)


def test_a_request_id_found_in_the_log_is_another_seats_refused(matches, fog_match):
    """Once the last response is another request's, a repeat is found in the log: a seat
    naming another seat's request id there is refused too, not told it succeeded."""
    match_id, seat, request_id, first = fog_match
    step(matches, match_id)  # the kept response is now another request's
    other = 1 - seat
    other_player = who(matches.session(match_id).seats[other].player_id)
    with pytest.raises(InvalidArgument):
        matches.submit(match_id, other, first.version - 1, request_id, "x", other_player)
    owner = who(matches.session(match_id).seats[seat].player_id)
    again = matches.submit(match_id, seat, first.version - 1, request_id, "x", owner)
    assert (again.version, again.events) == (first.version, first.events)


def test_a_rebuilt_session_keeps_delayed_spectators_behind(matches):
    """A session rebuilt from the log (after a lost race, expiry or a flush) keeps the
    spectators' state spectator_delay actions back, as the live one did."""
    s = new_match(matches, spectator_delay=3)
    for _ in range(6):
        step(matches, s.match_id)
    live = matches.view(s.match_id, None, EVE)
    assert live.session.spectator["version"] == live.session.version - 3
    matches.sessions.invalidate(s.match_id)
    rebuilt = matches.view(s.match_id, None, EVE)
    assert rebuilt.session.spectator["version"] == live.session.spectator["version"]
    assert rebuilt.view == live.view
    step(matches, s.match_id)  # and it moves on one action behind, as before
    assert matches.session(s.match_id).spectator["version"] == live.session.version - 2


@pytest.fixture
def rules(matches):
    with served(matches, "eve") as stub_and_token:
        yield stub_and_token


def test_a_finished_matchs_delayed_feed_shows_the_end_and_ends(rules, matches):
    """At the end a delayed spectator may see everything: its feed sends the last events
    and ends, rather than waiting (spinning) for ever on events it would not send."""
    stub, md = rules
    s = new_match(matches, spectator_delay=3)
    end = play_defaults(matches, s.match_id)
    items = list(stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=s.match_id),
                                  metadata=md, timeout=30))
    events = [i.event for i in items if i.HasField("event")]
    assert events[-1].sequence == end.event_seq


def test_a_delayed_spectators_feed_labels_its_view_with_the_lagging_version(rules, matches):
    """The view a delayed spectator's feed sends is of the lagging state, and says so (as
    GetView does), not the live version."""
    stub, md = rules
    s = new_match(matches, spectator_delay=3)
    for _ in range(5):
        step(matches, s.match_id)
    feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=s.match_id), metadata=md,
                            timeout=30)
    view = next(i.view for i in feed if i.HasField("view"))
    feed.cancel()
    got = stub.GetView(rules_pb2.GetViewRequest(match_id=s.match_id), metadata=md)
    assert view.version == got.view.version == matches.session(s.match_id).version - 3
    assert view.data_json == got.view.data_json


def test_a_repeated_resignation_returns_the_first_result(matches):
    """Resign is idempotent on its request id: the repeat of one that ended the match gets
    its first result, not FAILED_PRECONDITION."""
    s = new_match(matches)
    first = matches.resign(s.match_id, 1, "resign-1", BOB)
    again = matches.resign(s.match_id, 1, "resign-1", BOB)
    assert (again.version, again.outcome) == (first.version, first.outcome)
    with pytest.raises(InvalidArgument):  # not another seat's to repeat
        matches.resign(s.match_id, 0, "resign-1", ALICE)


def test_the_last_action_repeated_after_its_response_is_gone_returns_its_result(
        matches, store, clock):
    """The action that ended a match, repeated where its kept response is gone (another
    replica, a flushed store), gets its first result from the log."""
    s = new_match(matches)
    while True:
        seat, request_id, result = step(matches, s.match_id)
        if result.outcome is not None:
            break
    other = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), clock=clock)
    owner = who(other.session(s.match_id).seats[seat].player_id)
    again = other.submit(s.match_id, seat, result.version - 1, request_id, "x", owner)
    assert (again.version, again.outcome) == (result.version, result.outcome)


def test_a_seat_is_not_handed_to_an_unknown_bot(matches, store):
    """SetSeatController refuses a bot the game does not have, as CreateMatch does (its
    turns could never run), and changes nothing."""
    s = new_match(matches)
    with pytest.raises(InvalidArgument):
        matches.set_controller(s.match_id, 0, "bot", "no-such-bot", ALICE)
    assert matches.session(s.match_id).seats[0].controller == "human"
    assert store.get_match(s.match_id).seats[0].controller == "human"


def test_a_player_cannot_take_the_request_id_of_a_timeout(matches, clock):
    """A seat that used the request id the server gives its timed-out decision at a later
    version would stall that timeout for ever (it would look applied): refused."""
    s = new_match(matches, decision_timeout=30)
    seat = matches.legal(s.match_id, 0, ALICE)[3][0]
    principal = who(s.seats[seat].player_id)
    default = matches.legal(s.match_id, seat, principal)[2]
    with pytest.raises(InvalidArgument):
        matches.submit(s.match_id, seat, 0, f"timeout-1-{seat}", default, principal)
    with pytest.raises(InvalidArgument):
        matches.resign(s.match_id, seat, f"timeout-0-{seat}", principal)
    with pytest.raises(InvalidArgument):  # nor a bot turn's
        matches.submit(s.match_id, seat, 0, f"bot:1:1:{s.match_id}", default, principal)
    assert matches.session(s.match_id).version == 0
    step(matches, s.match_id)
    to_act = matches.session(s.match_id)
    clock.now += 31
    assert matches.expire_decisions() == 1
    assert matches.session(s.match_id).version == to_act.version + 1


def test_bot_request_ids_stay_the_bots(matches):
    """The bots' own request ids are still taken from a service."""
    s = new_match(matches, players=("alice",), bots=("heuristic",))
    while matches.legal(s.match_id, 0, ALICE)[3][0] != 1:
        step(matches, s.match_id)
    v = matches.session(s.match_id).version
    default = matches.legal(s.match_id, 1, BOTS)[2]
    result = matches.submit(s.match_id, 1, v, f"bot:{v}:1:{s.match_id}", default, BOTS)
    assert result.version == v + 1


@pytest.mark.parametrize("options, why", [('{"fog_of_war": NaN}', "unexpected character"),
                                          ('{"fog_of_war": Infinity}', "unexpected character"),
                                          ('{"a":' * 2000 + "1" + "}" * 2000, "depth limit")])
def test_match_options_must_be_strict_json(matches, options, why):
    """NaN and Infinity are not JSON (the persistence service refuses them, after the dice
    stream would have been made), and nesting is bounded: CreateMatch refuses them first."""
    request = rules_pb2.CreateMatchRequest(
        game_id="pasaran", scenario_id="campaign", options_json=options, request_id=rid(),
        seats=[rules_pb2.SeatRequest(player_id="alice"), rules_pb2.SeatRequest(player_id="bob")])
    token = principal_var.set(Principal(SERVICE, "matchmaking"))
    try:
        with pytest.raises(InvalidArgument, match=f"options_json is not valid JSON: {why}"):
            RulesServicer(matches).CreateMatch(request, None)
    finally:
        principal_var.reset(token)


class _BrokenFor(LocalLedger):
    """The real ledger, but recording a match of `player` fails as a bug would."""

    def __init__(self, store, player: str) -> None:
        super().__init__(store)
        self.player = player

    def record_match(self, session, setup):
        if session.seats[0].player_id == self.player:
            raise RuntimeError("a bug")
        return super().record_match(session, setup)


def test_a_match_failing_unexpectedly_fails_alone_among_those_created_together(store, clock):
    """CreateMatches answers each match as CreateMatch would. A failure no refusal names (a
    bug) failed the whole call (UNKNOWN), so matchmaking asked its tables again and again,
    none of them created: it now fails its own match (INTERNAL) and the others are made."""
    matches = Matches(MemorySessionStore(), _BrokenFor(store, "carol"), Dice(store),
                      clock=clock)

    def new(player: str) -> rules_pb2.CreateMatchRequest:
        return rules_pb2.CreateMatchRequest(
            game_id="montanas", scenario_id="standard", request_id=rid(),
            seats=[rules_pb2.SeatRequest(player_id=player), rules_pb2.SeatRequest(bot="heuristic")])

    token = principal_var.set(Principal(SERVICE, "matchmaking"))
    try:
        reply = RulesServicer(matches, lambda game: ["heuristic"]).CreateMatches(
            rules_pb2.CreateMatchesRequest(matches=[new("carol"), new("alice")]), None)
    finally:
        principal_var.reset(token)
    broken, made = reply.results
    assert broken.code == grpc.StatusCode.INTERNAL.value[0]
    assert broken.message.startswith("internal error")
    assert made.code == 0 and matches.session(made.match.match_id).version == 0


def test_a_rebuild_keeps_the_decisions_clock_running(matches, clock):
    """A session rebuilt from the log (gone from Redis, or dropped after a lost race) keeps
    the deadline its decision got when it was asked: a rebuild does not restart the clock."""
    clock.now = time.time()  # a record's time is when it was written, by the wall clock
    s = new_match(matches, decision_timeout=60)
    step(matches, s.match_id)
    asked = clock.now
    clock.now += 50
    matches.sessions.invalidate(s.match_id)
    assert matches.session(s.match_id).deadline == pytest.approx(asked + 60, abs=0.5)
    clock.now += 11
    assert matches.expire_decisions() == 1  # 61 s after it was asked, not 11 after the rebuild


class _SeatHook(LocalLedger):
    """The real ledger; `then` runs once right after the next seat change is recorded."""

    then = None

    def update_seat(self, match_id, seat, meta):
        super().update_seat(match_id, seat, meta)
        then, self.then = self.then, None
        if then is not None:
            then()


def test_a_seat_handed_over_while_another_replica_acts_is_handed_over(store, clock):
    """The change is recorded before the session is written; when another replica moves
    the match on in between, the call still succeeds and the live session has the change
    (it was answered ABORTED, yet the record had it: the next rebuild handed the seat over
    unannounced)."""
    sessions = MemorySessionStore()
    ledger = _SeatHook(store)
    a = Matches(sessions, ledger, Dice(store), clock=clock)
    b = Matches(sessions, LocalLedger(store), Dice(store), clock=clock)  # another replica
    match_id = new_match(a).match_id
    ledger.then = lambda: step(b, match_id)
    meta = a.set_controller(match_id, 1, "bot", "", BOB)
    assert meta.controller == "bot"
    live = a.session(match_id)
    assert live.version == 1 and live.seats[1].controller == "bot"
