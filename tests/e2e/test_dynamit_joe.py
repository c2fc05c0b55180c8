"""Dynamit Joe through the services end to end (issue 5, "Done when"): a mixed human/bot match
of "The arrest" (9.1) on the embedded and the split stack. The human seat is played through
gRPC only — its view and legal actions read from the rules service, the game's heuristic bot
choosing, the choice sent as a typed action — and the other seats by the server's bots."""

from __future__ import annotations

import json
import time
import uuid

import grpc

from partida.engine import Action, LocalRng, get
from partida.games.dynamit_joe.bots import HeuristicBot
from partida.games.dynamit_joe.v1 import dynamit_joe_pb2 as pb
from partida.rules.audit import audit
from partida.rules.randomness import replay_action, replay_setup
from partida.v1 import common_pb2, rules_pb2

from .play import player

SEATS = 3


def _matchmake(remote) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 30
    for ticket in remote.find_match("dynamit_joe", "arrest", SEATS, True, uuid.uuid4().hex):
        if ticket.match_id:
            return ticket.match_id, ticket.seat
        assert time.monotonic() < deadline, "matchmaking took too long"
    raise AssertionError("the ticket ended without a match")


def _no_other_jokers(view: dict, typed: pb.View, seat: int) -> None:  # type: ignore[type-arg]
    for c, tc in zip(view["characters"], typed.characters, strict=True):
        if c["seat"] != seat:
            assert c["joker"] in (None, "hidden"), c
            assert tc.joker in (pb.JOKER_UNSPECIFIED, pb.JOKER_HIDDEN)
    prompt = view["prompt"]
    if prompt is not None and prompt["seat"] != seat:
        assert "joker" not in prompt and prompt["kind"] != "joker"


def test_a_mixed_match_of_the_arrest_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = _matchmake(alice)
    bot, rng = HeuristicBot(), LocalRng(5)
    decisions, outcome = 0, None
    deadline = time.monotonic() + 300
    while outcome is None:
        assert time.monotonic() < deadline, "the match did not end"
        r = alice.look(match_id, seat, with_actions=True)
        view = json.loads(r.view.data_json)
        _no_other_jokers(view, r.view.dynamit_joe, seat)
        if r.HasField("outcome"):
            outcome = r.outcome
            break
        if seat not in r.decision.seats:
            time.sleep(0.01)
            continue
        legal = alice.legal(match_id, seat)
        choice = bot.choose(view, [Action(a.action_id, a.description) for a in legal.actions],
                            rng)
        typed = next(a.dynamit_joe for a in legal.actions if a.action_id == choice)
        try:
            alice.call(alice.rules, "SubmitAction", rules_pb2.SubmitActionRequest(
                match_id=match_id, seat=seat, expected_version=legal.version,
                request_id=uuid.uuid4().hex, action=common_pb2.Action(dynamit_joe=typed)))
            decisions += 1
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.ABORTED:  # a bot or a timer moved first: read again
                raise
    assert outcome.reason and decisions > 0
    log = alice.match_log(match_id)
    assert log.match.status == common_pb2.MATCH_STATUS_FINISHED
    assert audit(log.match, list(log.records)) == []
    game = get("dynamit_joe")
    state = replay_setup(game, "arrest", SEATS, json.loads(log.match.options_json),
                         log.records[0].random_values)
    for rec in log.records[1:]:
        replay_action(game, state, rec.kind, rec.seat, rec.action_id, rec.random_values)
    _, live, _, _ = alice.view(match_id, None)
    assert game.view(state, None) == live
