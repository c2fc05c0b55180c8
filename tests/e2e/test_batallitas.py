"""Fanhunter Batallitas through the services end to end (issue 6, "Done when"): a human-vs-bot
match of scenario 1, The Last Game, on the embedded and the split stack. The human seat is
played through gRPC only — its view and legal actions read from the rules service, the game's
heuristic bot choosing, the choice sent as a typed action — and the other seat by the
server's bot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import grpc

from partida.devstack.stack import API_KEY
from partida.engine import Action, LocalRng, get
from partida.games.batallitas.bots import HeuristicBot
from partida.rules.audit import audit
from partida.rules.randomness import replay_action, replay_setup
from partida.v1 import common_pb2, rules_pb2

from .play import player

SEATS = 2
PARTIDA = str(Path(sys.executable).parent / "partida")


def _matchmake(remote) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 30
    for ticket in remote.find_match("batallitas", "last_game", SEATS, True, uuid.uuid4().hex):
        if ticket.match_id:
            return ticket.match_id, ticket.seat
        assert time.monotonic() < deadline, "matchmaking took too long"
    raise AssertionError("the ticket ended without a match")


def test_a_human_vs_bot_match_of_the_last_game_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = _matchmake(alice)
    bot, rng = HeuristicBot(), LocalRng(5)
    decisions, outcome = 0, None
    deadline = time.monotonic() + 600
    while outcome is None:
        assert time.monotonic() < deadline, "the match did not end"
        r = alice.look(match_id, seat, with_actions=True)
        view = json.loads(r.view.data_json)
        # the seat's own event cards only: the other hand is a count
        assert list(r.view.batallitas.hand) == view["hand"]
        assert "hands" not in view and len(view["hand_counts"]) == SEATS
        if r.HasField("outcome"):
            outcome = r.outcome
            break
        if seat not in r.decision.seats:
            time.sleep(0.01)
            continue
        # The view and the actions of one reading (a separate ListLegalActions could see a
        # later version than the view when the bot moves in between).
        choice = bot.choose(view, [Action(a.action_id, a.description) for a in r.actions], rng)
        typed = next(a.batallitas for a in r.actions if a.action_id == choice)
        try:
            alice.call(alice.rules, "SubmitAction", rules_pb2.SubmitActionRequest(
                match_id=match_id, seat=seat, expected_version=r.view.version,
                request_id=uuid.uuid4().hex, action=common_pb2.Action(batallitas=typed)))
            decisions += 1
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.ABORTED:  # a bot or a timer moved first: read again
                raise
    assert outcome.reason and decisions > 0
    log = alice.match_log(match_id)
    assert log.match.status == common_pb2.MATCH_STATUS_FINISHED
    assert audit(log.match, list(log.records)) == []
    game = get("batallitas")
    state = replay_setup(game, "last_game", SEATS, json.loads(log.match.options_json),
                         log.records[0].random_values)
    for rec in log.records[1:]:
        replay_action(game, state, rec.kind, rec.seat, rec.action_id, rec.random_values)
    _, live, _, _ = alice.view(match_id, None)
    assert game.view(state, None) == live


def test_the_client_cli_plays_the_last_game(stack):  # type: ignore[no-untyped-def]
    """`partida client play batallitas --auto heuristic`, as a user would run it."""
    env = {**os.environ, "PARTIDA_SERVER": stack.address, "PARTIDA_API_KEY": API_KEY}
    played = subprocess.run([PARTIDA, "client", "play", "batallitas", "--scenario", "last_game",
                             "--auto", "heuristic", "--player", "cli-batallitas"],
                            capture_output=True, text=True, env=env, timeout=600)
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
