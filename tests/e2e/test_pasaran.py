"""¿Pasarán? through the services end to end (issue 7): a human-vs-bot campaign on the embedded
and the split stack. The human seat (the Republicans) is played through gRPC only — its view
and legal actions read from the rules service, the game's heuristic bot choosing, the choice
sent as a typed action — and the Nationalists by the server's bot. The engine has one scenario,
the whole war; a heuristic campaign runs to a few hundred actions, so no shorter variant is
needed. Then `partida client play pasaran --auto heuristic` against the same server."""

from __future__ import annotations

import re

from partida.engine import LocalRng
from partida.games.pasaran.bots import HeuristicBot
from partida.games.pasaran.v1 import pasaran_pb2 as pb

from .play import RefusedOnce, check_finished_log, matchmake, play_typed, player
from .test_client_cli import _client

SCENARIO, SEATS = "campaign", 2


def test_a_human_vs_bot_campaign_ends_and_verifies(stack):  # type: ignore[no-untyped-def]
    alice = player(stack)
    match_id, seat = matchmake(alice, "pasaran", SCENARIO, SEATS)

    def check(r, view):  # type: ignore[no-untyped-def]
        assert r.view.pasaran.turn == view["turn"] and len(r.view.pasaran.units) == len(
            view["units"])

    # A typed move to a place the map does not have is refused before the engine.
    off_map = RefusedOnce(alice, "pasaran", match_id, seat, "move", lambda legal: pb.Action(
        move=pb.Action.UnitTo(unit=legal.move.unit, place="lisboa")), "not a pasaran place")
    outcome, decisions = play_typed(alice, "pasaran", match_id, seat, HeuristicBot(),
                                    LocalRng(5), check=check, probe=off_map, timeout=900)
    assert outcome.reason and decisions > 0 and off_map.done
    check_finished_log(alice, "pasaran", SCENARIO, SEATS, match_id)


def test_the_client_plays_pasaran_with_a_local_bot(stack):  # type: ignore[no-untyped-def]
    """A whole war through the terminal client. On the split stack this once failed on a
    Redis read timeout in StreamMatch: redis-py's default socket timeout equalled the stream's
    wait (fixed in rules/redis_session.py; test_redis_session checks the wait alone)."""
    played = _client(stack, "play", "pasaran", "--auto", "heuristic", "--player", "pasaran-cli",
                     timeout=900)
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
    match_id = re.search(r"match ([0-9a-f]{32})", played.stdout).group(1)
    verified = _client(stack, "verify", match_id)
    assert verified.returncode == 0 and "verifies" in verified.stdout
