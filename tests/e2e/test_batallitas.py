"""Fanhunter Batallitas through the services end to end (issue 6, "Done when"): a human-vs-bot
match of scenario 1, The Last Game, on the embedded and the split stack. The human seat is
played through gRPC only — its view and legal actions read from the rules service, the game's
heuristic bot choosing, the choice sent as a typed action — and the other seat by the
server's bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from partida.devstack.stack import API_KEY
from partida.engine import LocalRng
from partida.games.batallitas.bots import HeuristicBot

from .play import check_finished_log, matchmake, play_typed, player

SEATS = 2
PARTIDA = str(Path(sys.executable).parent / "partida")


def test_a_human_vs_bot_match_of_the_last_game_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = matchmake(alice, "batallitas", "last_game", SEATS)

    def check(r, view):  # type: ignore[no-untyped-def]
        # the seat's own event cards only: the other hand is a count
        assert list(r.view.batallitas.hand) == view["hand"]
        assert "hands" not in view and len(view["hand_counts"]) == SEATS

    outcome, decisions = play_typed(alice, "batallitas", match_id, seat, HeuristicBot(),
                                    LocalRng(5), check=check, one_reading=True)
    assert outcome.reason and decisions > 0
    check_finished_log(alice, "batallitas", "last_game", SEATS, match_id)


def test_the_client_cli_plays_the_last_game(stack):  # type: ignore[no-untyped-def]
    """`partida client play batallitas --auto heuristic`, as a user would run it."""
    env = {**os.environ, "PARTIDA_SERVER": stack.address, "PARTIDA_API_KEY": API_KEY}
    played = subprocess.run([PARTIDA, "client", "play", "batallitas", "--scenario", "last_game",
                             "--auto", "heuristic", "--player", "cli-batallitas"],
                            capture_output=True, text=True, env=env, timeout=600)
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
