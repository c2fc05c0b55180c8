"""Optional rules as match options (9.0): reassembling backs (9.1), alternating initiative
(9.3); positions built directly."""

from __future__ import annotations

import pytest

from partida.engine import BadSetup, LocalRng
from tests.unit.pasaran.positions import GAME, Dice, act, ids, put, side


def _reinforcement(**options: bool):  # type: ignore[no-untyped-def]
    s = GAME.new_state("campaign", 2, options, LocalRng(0))
    s.turn, s.phase, s.step, s.active, s.last_initiative = 2, "reinforce", "", None, "nat"
    for r in s.units.values():
        if r["status"] == "queue":
            r["arrive"] = 99
    return s


def test_options_are_true_or_false_and_known() -> None:
    """9.0: the players agree on optional rules before the game."""
    with pytest.raises(BadSetup):
        GAME.new_state("campaign", 2, {"alternating_initiative": "yes"}, LocalRng(0))
    with pytest.raises(BadSetup):
        GAME.new_state("campaign", 2, {"trenches": True}, LocalRng(0))


def test_two_identical_backs_in_one_area_become_one_front() -> None:
    """9.1: in the reinforcement phase two exactly alike units on their backs in the same area
    may be replaced by one on its front; units of another kind or place do not pair."""
    s = _reinforcement(reassembling_backs=True)
    put(s, "madrid", "r_reg1", "r_reg2", face="back")
    put(s, "madrid", "r_mil1", face="back")
    put(s, "valencia", "r_mil2", face="back")
    GAME._advance(s, LocalRng(0), [])
    assert side(s) == "rep" and ids(s) == ["reassemble:r_reg1:r_reg2", "end"]
    act(s, "reassemble:r_reg1:r_reg2")
    assert s.units["r_reg1"]["face"] == "front" and s.units["r_reg2"]["status"] == "pool"
    assert s.phase == "segment"              # no pair left: on to the initiative
    off = _reinforcement()
    put(off, "madrid", "r_reg1", "r_reg2", face="back")
    GAME._advance(off, Dice(6, 1, 6), [])
    assert off.phase == "segment"


def test_the_initiative_winner_chooses_who_acts_first() -> None:
    """9.3: with alternating initiative the side winning the roll decides which side is the
    active side."""
    s = _reinforcement(alternating_initiative=True)
    GAME._advance(s, Dice(5, 2, 6), [])
    assert s.phase == "initiative" and side(s) == "rep"
    assert set(ids(s)) == {"first:rep", "first:nat"}
    act(s, "first:nat")
    assert s.active == "nat" and s.segment == 0 and s.initiative == "nat"
