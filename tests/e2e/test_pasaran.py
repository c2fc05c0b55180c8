"""¿Pasarán? through the services end to end (issue 7): a human-vs-bot campaign on the embedded
and the split stack. The human seat (the Republicans) is played through gRPC only — its view
and legal actions read from the rules service, the game's heuristic bot choosing, the choice
sent as a typed action — and the Nationalists by the server's bot. The engine has one scenario,
the whole war; a heuristic campaign runs to a few hundred actions, so no shorter variant is
needed. Then `partida client play pasaran --auto heuristic` against the same server."""

from __future__ import annotations

import json
import re
import time
import uuid

import grpc
import pytest

from partida.engine import Action, LocalRng, get
from partida.games.pasaran.bots import HeuristicBot
from partida.games.pasaran.v1 import pasaran_pb2 as pb
from partida.rules.audit import audit
from partida.rules.randomness import replay_action, replay_setup
from partida.v1 import common_pb2, rules_pb2

from .play import player
from .test_client_cli import _client

SCENARIO, SEATS = "campaign", 2


def _matchmake(remote) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 30
    for ticket in remote.find_match("pasaran", SCENARIO, SEATS, True, uuid.uuid4().hex):
        if ticket.match_id:
            return ticket.match_id, ticket.seat
        assert time.monotonic() < deadline, "matchmaking took too long"
    raise AssertionError("the ticket ended without a match")


def _submit(remote, match_id: str, seat: int, version: int, typed: pb.Action):  # type: ignore[no-untyped-def]
    return remote.call(remote.rules, "SubmitAction", rules_pb2.SubmitActionRequest(
        match_id=match_id, seat=seat, expected_version=version, request_id=uuid.uuid4().hex,
        action=common_pb2.Action(pasaran=typed)))


def test_a_human_vs_bot_campaign_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = _matchmake(alice)
    bot, rng = HeuristicBot(), LocalRng(5)
    decisions, refused_off_map, outcome = 0, False, None
    deadline = time.monotonic() + 900
    while outcome is None:
        assert time.monotonic() < deadline, "the campaign did not end"
        r = alice.look(match_id, seat, with_actions=True)
        view = json.loads(r.view.data_json)
        assert r.view.pasaran.turn == view["turn"] and len(r.view.pasaran.units) == len(
            view["units"])
        if r.HasField("outcome"):
            outcome = r.outcome
            break
        if seat not in r.decision.seats:
            time.sleep(0.01)
            continue
        legal = alice.legal(match_id, seat)
        moves = [a.pasaran for a in legal.actions if a.pasaran.WhichOneof("kind") == "move"]
        if moves and not refused_off_map:
            # A typed move to a place the map does not have is refused before the engine.
            off = pb.Action(move=pb.Action.UnitTo(unit=moves[0].move.unit, place="lisboa"))
            with pytest.raises(grpc.RpcError) as refused:
                _submit(alice, match_id, seat, legal.version, off)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "not a pasaran place" in refused.value.details()
            refused_off_map = True
        choice = bot.choose(view, [Action(a.action_id, a.description) for a in legal.actions],
                            rng)
        typed = next(a.pasaran for a in legal.actions if a.action_id == choice)
        try:
            _submit(alice, match_id, seat, legal.version, typed)
            decisions += 1
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.ABORTED:  # a bot or a timer moved first: read again
                raise
    assert outcome.reason and decisions > 0 and refused_off_map
    log = alice.match_log(match_id)
    assert log.match.status == common_pb2.MATCH_STATUS_FINISHED
    assert audit(log.match, list(log.records)) == []
    game = get("pasaran")
    state = replay_setup(game, SCENARIO, SEATS, json.loads(log.match.options_json),
                         log.records[0].random_values)
    for rec in log.records[1:]:
        replay_action(game, state, rec.kind, rec.seat, rec.action_id, rec.random_values)
    _, live, _, _ = alice.view(match_id, None)
    assert game.view(state, None) == live


@pytest.mark.xfail(run=False, reason=(
    "not in the suite: a whole war through the client takes minutes. The stall found on "
    "2026-11-29 (a step without events handed the turn over unseen by StreamMatch) is fixed: "
    "the stream now sends a moved version's decision when its wait ends; run by hand the "
    "embedded case passed, the split one once ended on a Redis read timeout in the stream"))
def test_the_client_plays_pasaran_with_a_local_bot(stack):  # type: ignore[no-untyped-def]
    played = _client(stack, "play", "pasaran", "--auto", "heuristic", "--player", "pasaran-cli",
                     timeout=900)
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
    match_id = re.search(r"match ([0-9a-f]{32})", played.stdout).group(1)
    verified = _client(stack, "verify", match_id)
    assert verified.returncode == 0 and "verifies" in verified.stdout
