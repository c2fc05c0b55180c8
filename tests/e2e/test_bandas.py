"""Bandas through the services end to end (issue 8, "Done when"): a human-vs-bot match of the
street fight on the embedded and the split stack. The human seat is played through gRPC only —
its view and legal actions read from the rules service, the game's heuristic bot choosing, the
choice sent as a typed action — and the other seat by the server's bot. Then `partida client
play bandas --auto heuristic` against the same server."""

from __future__ import annotations

import json
import re
import time
import uuid

import grpc
import pytest

from partida.engine import Action, LocalRng, get
from partida.games.bandas.bots import HeuristicBot
from partida.games.bandas.v1 import bandas_pb2 as pb
from partida.rules.audit import audit
from partida.rules.randomness import replay_action, replay_setup
from partida.v1 import common_pb2, rules_pb2

from .play import player
from .test_client_cli import _client

TABLE, SEATS = "street_fight", 2


def _matchmake(remote) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 30
    for ticket in remote.find_match("bandas", TABLE, SEATS, True, uuid.uuid4().hex):
        if ticket.match_id:
            return ticket.match_id, ticket.seat
        assert time.monotonic() < deadline, "matchmaking took too long"
    raise AssertionError("the ticket ended without a match")


def _submit(remote, match_id: str, seat: int, version: int, typed: pb.Action):  # type: ignore[no-untyped-def]
    return remote.call(remote.rules, "SubmitAction", rules_pb2.SubmitActionRequest(
        match_id=match_id, seat=seat, expected_version=version, request_id=uuid.uuid4().hex,
        action=common_pb2.Action(bandas=typed)))


def test_a_human_vs_bot_street_fight_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = _matchmake(alice)
    bot, rng = HeuristicBot(), LocalRng(5)
    decisions, refused_off_table, outcome = 0, False, None
    deadline = time.monotonic() + 600
    while outcome is None:
        assert time.monotonic() < deadline, "the match did not end"
        r = alice.look(match_id, seat, with_actions=True)
        view = json.loads(r.view.data_json)
        assert r.view.bandas.table == TABLE and len(r.view.bandas.models) == len(view["models"])
        if r.HasField("outcome"):
            outcome = r.outcome
            break
        if seat not in r.decision.seats:
            time.sleep(0.01)
            continue
        legal = alice.legal(match_id, seat)
        moves = [a for a in legal.actions if a.bandas.WhichOneof("kind") == "move"]
        if moves and not refused_off_table:
            # A typed destination off every table is refused before it reaches the engine.
            off = pb.Action(move=pb.Action.Move(to=pb.Point(x=999.0, y=5.0)))
            with pytest.raises(grpc.RpcError) as refused:
                _submit(alice, match_id, seat, legal.version, off)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "not a bandas point" in refused.value.details()
            refused_off_table = True
        choice = bot.choose(view, [Action(a.action_id, a.description) for a in legal.actions],
                            rng)
        typed = next(a.bandas for a in legal.actions if a.action_id == choice)
        try:
            _submit(alice, match_id, seat, legal.version, typed)
            decisions += 1
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.ABORTED:  # a bot or a timer moved first: read again
                raise
    assert outcome.reason and decisions > 0 and refused_off_table
    log = alice.match_log(match_id)
    assert log.match.status == common_pb2.MATCH_STATUS_FINISHED
    assert audit(log.match, list(log.records)) == []
    game = get("bandas")
    state = replay_setup(game, TABLE, SEATS, json.loads(log.match.options_json),
                         log.records[0].random_values)
    for rec in log.records[1:]:
        replay_action(game, state, rec.kind, rec.seat, rec.action_id, rec.random_values)
    _, live, _, _ = alice.view(match_id, None)
    assert game.view(state, None) == live


def test_the_client_plays_bandas_with_a_local_bot(stack):  # type: ignore[no-untyped-def]
    played = _client(stack, "play", "bandas", "--auto", "heuristic", "--player", "bandas-cli",
                     timeout=600)
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
    match_id = re.search(r"match ([0-9a-f]{32})", played.stdout).group(1)
    verified = _client(stack, "verify", match_id)
    assert verified.returncode == 0 and "verifies" in verified.stdout
