"""Dynamit Joe through the services end to end (issue 5, "Done when"): a mixed human/bot match
of "The arrest" (9.1) on the embedded and the split stack. The human seat is played through
gRPC only — its view and legal actions read from the rules service, the game's heuristic bot
choosing, the choice sent as a typed action — and the other seats by the server's bots."""

from __future__ import annotations

from partida.engine import LocalRng
from partida.games.dynamit_joe.bots import HeuristicBot
from partida.games.dynamit_joe.v1 import dynamit_joe_pb2 as pb

from .play import check_finished_log, matchmake, play_typed, player

SEATS = 3


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
    match_id, seat = matchmake(alice, "dynamit_joe", "arrest", SEATS)
    outcome, decisions = play_typed(
        alice, "dynamit_joe", match_id, seat, HeuristicBot(), LocalRng(5),
        check=lambda r, view: _no_other_jokers(view, r.view.dynamit_joe, seat), timeout=300)
    assert outcome.reason and decisions > 0
    check_finished_log(alice, "dynamit_joe", "arrest", SEATS, match_id)
