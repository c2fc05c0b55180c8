"""Client-side helpers for the scenarios: log in, matchmake, play a seat to the end (by action
id, or through gRPC only with typed actions), check a finished match's log."""

from __future__ import annotations

import itertools
import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from partida.cli.remote import Remote
from partida.devstack.stack import API_KEY, SECRETS, Stack
from partida.engine import Action, LocalRng, get
from partida.games.montanas.bots import HeuristicBot
from partida.platform.auth import Authority
from partida.rules.audit import audit
from partida.rules.randomness import replay_action, replay_setup
from partida.v1 import common_pb2, rules_pb2

_players = itertools.count()


def player(stack: Stack, name: str | None = None) -> Remote:
    remote = Remote(stack.address, addresses=stack.addresses)
    remote.login(API_KEY, name or f"p{next(_players)}-{uuid.uuid4().hex[:6]}")
    return remote


def as_service(stack: Stack) -> Remote:
    """A client holding the matchmaking service's token (it may create matches)."""
    remote = Remote(stack.address, addresses=stack.addresses)
    remote.metadata = (("authorization", "Bearer " + Authority(
        SECRETS["PARTIDA_TOKEN_SECRET"], SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"], {}
    ).service_token("matchmaking")),)
    return remote


def matchmake(remote: Remote, game_id: str, scenario: str, seats: int,
              timeout: float = 30) -> tuple[str, int]:
    """Matchmake (tables completed by bots) and return (match id, seat)."""
    deadline = time.monotonic() + timeout
    for ticket in remote.find_match(game_id, scenario, seats, True, uuid.uuid4().hex):
        if ticket.match_id:
            return ticket.match_id, ticket.seat
        assert time.monotonic() < deadline, "matchmaking took too long"
    raise AssertionError("the ticket ended without a match")


def seat_in_match(remote: Remote, seats: int = 2, timeout: float = 30) -> tuple[str, int]:
    """A seat in a standard match of Las Montañas."""
    return matchmake(remote, "montanas", "standard", seats, timeout)


def wait_for_turn(remote: Remote, match_id: str, seat: int, timeout: float = 60):
    """Poll until the seat must act or the match is over; returns (version, outcome)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version, _, to_act, outcome = remote.view(match_id, seat)
        if outcome is not None or seat in to_act:
            return version, outcome
        time.sleep(0.02)
    raise AssertionError(f"seat {seat} never got a decision in match {match_id}")


def play_one(remote: Remote, match_id: str, seat: int, rng=None) -> int | None:
    """Take the seat's next decision with the heuristic bot; None once the match is over."""
    version, outcome = wait_for_turn(remote, match_id, seat)
    if outcome is not None:
        return None
    legal = remote.legal(match_id, seat)
    _, view, _, _ = remote.view(match_id, seat)
    actions = [Action(a.action_id, a.description) for a in legal.actions]
    choice = HeuristicBot().choose(view, actions, rng or LocalRng(0))
    try:
        result = remote.submit(match_id, seat, legal.version, uuid.uuid4().hex, choice)
        if seat in result.decision.seats:  # it decides again: its next actions came along
            again = remote.legal(match_id, seat)
            assert again.version == result.version
            assert ([(a.action_id, a.description) for a in result.next_actions]
                    == [(a.action_id, a.description) for a in again.actions])
            assert result.next_default_action_id == again.default_action_id
        else:
            assert not result.next_actions and not result.next_default_action_id
        return int(result.version)
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.ABORTED:  # a timer or a bot moved first: read again
            return legal.version
        raise


def play_to_end(remote: Remote, match_id: str, seat: int, limit: int = 5000):
    for _ in range(limit):
        if play_one(remote, match_id, seat) is None:
            return remote.view(match_id, seat)[3]
    raise AssertionError("the match did not end")


# ----- a seat played through gRPC only, with typed actions --------------------------------------
def submit_typed(remote: Remote, game_id: str, match_id: str, seat: int, version: int,
                 typed: Any) -> Any:
    """SubmitAction with the game's typed action message (no action id)."""
    return remote.call(remote.rules, "SubmitAction", rules_pb2.SubmitActionRequest(
        match_id=match_id, seat=seat, expected_version=version, request_id=uuid.uuid4().hex,
        action=common_pb2.Action(**{game_id: typed})))


class RefusedOnce:
    """A probe for `play_typed`: the first time a `case` action is legal, `bad` (given that
    action's typed message) makes a typed action the services must refuse, before the engine,
    as an invalid argument saying `says`."""

    def __init__(self, remote: Remote, game_id: str, match_id: str, seat: int, case: str,
                 bad: Callable[[Any], Any], says: str) -> None:
        self.remote, self.game_id, self.match_id, self.seat = remote, game_id, match_id, seat
        self.case, self.bad, self.says, self.done = case, bad, says, False

    def __call__(self, actions: Any, version: int) -> None:
        typed = [getattr(a, self.game_id) for a in actions]
        found = [t for t in typed if t.WhichOneof("kind") == self.case]
        if self.done or not found:
            return
        with pytest.raises(grpc.RpcError) as refused:
            submit_typed(self.remote, self.game_id, self.match_id, self.seat, version,
                         self.bad(found[0]))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert self.says in refused.value.details()
        self.done = True


def play_typed(remote: Remote, game_id: str, match_id: str, seat: int, bot: Any,
               rng: LocalRng, *, check: Callable[[Any, dict[str, Any]], None] | None = None,
               probe: Callable[[Any, int], None] | None = None, one_reading: bool = False,
               timeout: float = 600) -> tuple[Any, int]:
    """Play the seat to the end through gRPC only: its view and legal actions read from the
    rules service, `bot` choosing, the choice sent as its typed action. `check(reading, view)`
    looks at every reading, `probe(actions, version)` runs before each decision. With
    `one_reading` the actions come with the view they were read with (a separate
    ListLegalActions could see a later version when a bot moves in between). Returns the
    outcome and the number of decisions taken."""
    decisions, deadline = 0, time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, f"the {game_id} match did not end"
        r = remote.look(match_id, seat, with_actions=True)
        view = json.loads(r.view.data_json)
        if check is not None:
            check(r, view)
        if r.HasField("outcome"):
            return r.outcome, decisions
        if seat not in r.decision.seats:
            time.sleep(0.01)
            continue
        if one_reading:
            actions, version = r.actions, r.view.version
        else:
            legal = remote.legal(match_id, seat)
            actions, version = legal.actions, legal.version
        if probe is not None:
            probe(actions, version)
        choice = bot.choose(view, [Action(a.action_id, a.description) for a in actions], rng)
        typed = next(getattr(a, game_id) for a in actions if a.action_id == choice)
        try:
            submit_typed(remote, game_id, match_id, seat, version, typed)
            decisions += 1
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.ABORTED:  # a bot or a timer moved first: read again
                raise


def check_finished_log(remote: Remote, game_id: str, scenario: str, seats: int,
                       match_id: str) -> None:
    """The finished match's log audits clean, and replayed from its recorded randomness it
    gives the live view."""
    log = remote.match_log(match_id)
    assert log.match.status == common_pb2.MATCH_STATUS_FINISHED
    assert audit(log.match, list(log.records)) == []
    game = get(game_id)
    state = replay_setup(game, scenario, seats, json.loads(log.match.options_json),
                         log.records[0].random_values)
    for rec in log.records[1:]:
        replay_action(game, state, rec.kind, rec.seat, rec.action_id, rec.random_values)
    _, live, _, _ = remote.view(match_id, None)
    assert game.view(state, None) == live
