"""Bandas through the services end to end (issue 8, "Done when"): a human-vs-bot match of the
street fight on the embedded and the split stack. The human seat is played through gRPC only —
its view and legal actions read from the rules service, the game's heuristic bot choosing, the
choice sent as a typed action — and the other seat by the server's bot. Then `partida client
play bandas --auto heuristic` against the same server."""

from __future__ import annotations

import re

from partida.engine import LocalRng
from partida.games.bandas.bots import HeuristicBot
from partida.games.bandas.v1 import bandas_pb2 as pb

from .play import RefusedOnce, check_finished_log, matchmake, play_typed, player
from .test_client_cli import _client

TABLE, SEATS = "street_fight", 2


def test_a_human_vs_bot_street_fight_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = matchmake(alice, "bandas", TABLE, SEATS)

    def check(r, view):  # type: ignore[no-untyped-def]
        assert r.view.bandas.table == TABLE and len(r.view.bandas.models) == len(view["models"])

    # A typed destination off every table is refused before it reaches the engine.
    off_table = RefusedOnce(alice, "bandas", match_id, seat, "move", lambda _: pb.Action(
        move=pb.Action.Move(to=pb.Point(x=999.0, y=5.0))), "not a bandas point")
    outcome, decisions = play_typed(alice, "bandas", match_id, seat, HeuristicBot(),
                                    LocalRng(5), check=check, probe=off_table)
    assert outcome.reason and decisions > 0 and off_table.done
    check_finished_log(alice, "bandas", TABLE, SEATS, match_id)


def test_the_client_plays_bandas_with_a_local_bot(stack):  # type: ignore[no-untyped-def]
    played = _client(stack, "play", "bandas", "--auto", "heuristic", "--player", "bandas-cli",
                     timeout=600)
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
    match_id = re.search(r"match ([0-9a-f]{32})", played.stdout).group(1)
    verified = _client(stack, "verify", match_id)
    assert verified.returncode == 0 and "verifies" in verified.stdout
