"""Optional rules as match options (9.0): reassembling backs (9.1), alternating initiative
(9.3); positions built directly."""

from __future__ import annotations

import pytest

from partida.engine import BadSetup, LocalRng
from partida.games.pasaran import board as B
from partida.games.pasaran import chits as H
from partida.games.pasaran import combat as CB
from tests.unit.pasaran.positions import GAME, C, Dice, act, empty, ids, put, side


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
        GAME.new_state("campaign", 2, {"blitzkrieg": True}, LocalRng(0))


def test_two_identical_backs_in_one_area_become_one_front() -> None:
    """9.1: when reinforcements arrive, a pair of identical reduced units sharing an area can
    be swapped for a single full-strength one; different kinds or places never pair."""
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


def _trench_turn(active: str = "rep"):  # type: ignore[no-untyped-def]
    s = empty(active)
    s.options = {"trenches": True}
    return s


def test_digging_a_trench_holds_the_infantry_and_finishes_next_friendly_turn() -> None:
    """9.5: an infantry unit starts a trench and may not move that turn; one trench dug at a
    time in an area; the trench is finished at the next friendly movement phase."""
    s = _trench_turn()
    put(s, "madrid", "r_mil1", "r_mil2")
    assert {"dig:r_mil1", "dig:r_mil2"} <= set(ids(s))
    act(s, "dig:r_mil1")
    assert s.trenches == [{"side": "rep", "place": "madrid", "turn": 1, "done": False}]
    assert not any(i.startswith(("move:r_mil1", "dig:")) for i in ids(s))
    s.turn += 1
    GAME._start_segment(s, "rep")
    assert s.trenches[0]["done"]
    act(s, "end")                                        # rail step, then movement
    assert "dig:r_mil2" in ids(s)


def test_a_finished_trench_absorbs_a_hit_and_is_destroyed() -> None:
    """9.5: the trench takes a hit in place of a unit, and is gone."""
    s = _trench_turn("nat")
    s.step, s.attacks = "combat", ["madrid"]
    s.trenches = [{"side": "rep", "place": "madrid", "turn": 1, "done": True}]
    put(s, "madrid", "n_afr1")
    put(s, "madrid", "r_mil1", "r_mil2")
    act(s, "fight:madrid", Dice(1, 6, 6))
    assert side(s) == "rep" and ids(s)[0] == "loss:trench"
    act(s, "loss:trench")
    assert s.trenches == [] and s.units["r_mil1"]["face"] == "front"


def test_trenches_are_lost_with_the_place_and_limited_per_area_and_city() -> None:
    """9.5: all trenches go when the area is conquered; at most two in an area and one in a
    city; a friendly trench may be taken up in the movement phase."""
    s = _trench_turn()
    s.trenches = [{"side": "rep", "place": "madrid", "turn": 0, "done": True},
                  {"side": "rep", "place": "madrid.c", "turn": 0, "done": True}]
    put(s, "madrid", "r_mil1")
    put(s, "madrid.c", "r_mil2")
    options = set(ids(s))
    assert "dig:r_mil1" in options and "dig:r_mil2" not in options
    act(s, "fill:madrid.c")
    assert [t["place"] for t in s.trenches] == ["madrid"]
    B.set_holder(s, "madrid", "nat")
    assert s.trenches == []


def _chit_combat(active: str = "nat"):  # type: ignore[no-untyped-def]
    s = empty(active, step="combat")
    s.options = {"combat_chits": True}
    s.chits = H.new_cups(C)
    s.attacks = ["soria" if active == "nat" else "burgos"]
    return s


def test_tactical_superiority_adds_chits() -> None:
    """9.4: one chit, plus one per HQ, for aircraft, for tanks, for the Legion Condor, and for
    the Nationalists when Republican militia and regulars fight together."""
    s = _chit_combat()
    put(s, "soria", "hq_mola", "n_lc1", "n_pooltank1", "n_reg1")
    put(s, "soria", "r_mil1", "r_reg1")
    assert H.superiority(C, s, "nat", "soria") == 5
    assert H.superiority(C, s, "rep", "soria") == 0


def test_chits_are_drawn_secretly_and_played_chits_change_only_the_first_round() -> None:
    """9.4: both sides draw before the combat, the drawn chits stay secret, the owner decides
    what to play, and a played chit works in the first round only."""
    s = _chit_combat()
    put(s, "soria", "n_reg1")
    put(s, "soria", "r_reg1")
    act(s, "fight:soria")
    assert side(s) == "nat" and ids(s)[-1] == "end"
    assert GAME.view(s, 1)["chits"]["rep"]["hand"] == 1
    (mine,) = s.chits["nat"]["hand"]
    s.chits["nat"]["hand"], s.chits["nat"]["cup"] = ["attack1"], [
        x for x in s.chits["nat"]["cup"] + [mine] if x != "attack1"]
    s.chits["rep"]["hand"] = ["dud1"]
    act(s, "chit:attack1")
    act(s, "end")
    assert side(s) == "rep" and ids(s) == ["chit:dud1", "end"]
    events = act(s, "end", Dice(6, 6))
    (round_,) = [e for e in events if e.kind == "round"]
    values = {entry[0]: entry[2] for entry in round_.data["fire"]}
    assert values == {"n_reg1": 4, "r_reg1": 4}          # 3 + chit; 3 + highlands
    s.combat["round"] = 2
    assert CB.land_value(C, s, "n_reg1", True, "soria") == 3


def test_a_cancel_chit_or_the_card_voids_the_enemy_chits() -> None:
    """9.4: chits do not cancel each other, except the cancel chit; the card Cancel Enemy
    Combat Chits does the same for one combat; Offensive draws three more chits when
    attacking."""
    s = _chit_combat()
    put(s, "soria", "n_reg1")
    put(s, "soria", "r_reg1")
    s.hands = {"rep": [{"card": "cancel_chits", "turn": 0}],
               "nat": [{"card": "offensive", "turn": 0}]}
    act(s, "fight:soria")
    drawn = len(s.chits["nat"]["hand"])
    act(s, "play:offensive")
    assert len(s.chits["nat"]["hand"]) == drawn + 3
    s.chits["nat"]["hand"] = ["attack1"]
    act(s, "chit:attack1")
    act(s, "end")
    assert "play:offensive" not in ids(s)          # the defender cannot
    act(s, "play:cancel_chits")
    assert s.combat["void"] == ["nat"]
    s.combat["round"] = 1
    assert CB.land_value(C, s, "n_reg1", True, "soria") == 3


def test_pinned_reserves_and_aircraft_do_not_react() -> None:
    """10.1, 10.2: a land unit pins an enemy land unit stationed with an HQ next door, an
    aircraft pins an enemy aircraft; pinned units cannot join a combat elsewhere; HQs never
    pin, land units never pin aircraft, and units without an HQ are no reserves to pin."""
    s = empty("nat")
    s.options = {"pinning": True}
    put(s, "soria", "n_reg1")
    put(s, "segovia", "n_reg2", "hq_mola")
    put(s, "segovia", "n_air1")
    put(s, "guadalajara", "r_mil1")
    put(s, "madrid", "hq_miaja", "r_reg1", "r_reg2", "r_air1")
    put(s, "cuenca", "r_mil3")
    options = set(ids(s))
    assert {"pin:n_reg2:r_reg1", "pin:n_reg2:hq_miaja", "pin:n_air1:r_air1"} <= options
    assert not {"pin:n_reg2:r_air1", "pin:n_reg2:r_mil3"} & options
    assert not any(o.startswith("pin:hq_mola") for o in options)
    act(s, "pin:n_reg2:r_reg1")
    act(s, "pin:n_air1:r_air1")
    assert "move:n_reg2:madrid" not in ids(s)                 # pinning used its move
    act(s, "move:n_reg1:guadalajara")
    act(s, "end")
    reacting = {i for i in ids(s) if i.startswith("react:")}
    assert "react:r_reg2:guadalajara" in reacting and "react:r_reg1:guadalajara" not in reacting
    assert not any(i.startswith("react:r_air1") for i in reacting)


def _fog(active: str = "rep"):  # type: ignore[no-untyped-def]
    s = empty(active)
    s.options = {"fog_of_war": True}
    return s


def test_fog_shows_only_the_top_of_an_enemy_stack_and_its_size() -> None:
    """9.2: only the top unit of an enemy stack may be inspected (here the last to arrive);
    own units and units in a place being fought over stay visible."""
    s = _fog()
    put(s, "madrid", "r_mil1")
    for uid in ("n_reg1", "n_reg2", "n_afr1"):
        B.move_to(s, uid, "segovia")
        s.units[uid]["status"] = "map"
    view = GAME.view(s, 0)
    assert view["units"]["n_afr1"]["at"] == "segovia"
    assert view["units"]["n_reg1"] == {"side": "nat", "status": "map", "hidden": True}
    assert view["stacks"]["nat"] == {"segovia": 3}
    assert GAME.view(s, 1)["units"]["n_reg1"]["at"] == "segovia"
    act(s, "move:r_mil1:segovia")
    assert GAME.view(s, 0)["units"]["n_reg1"]["at"] == "segovia"        # now in combat


def test_fog_limits_stacks_to_ten_and_hides_moves_in_events() -> None:
    """9.2: no stack of more than 10 units; the other side learns where a unit went, not which
    unit it was."""
    s = _fog()
    put(s, "madrid", *[f"r_mil{i}" for i in range(1, 11)])
    put(s, "guadalajara", "r_reg1")
    assert "madrid" not in {i.split(":")[2] for i in ids(s) if i.startswith("move:r_reg1:")}
    (moved,) = [e for e in act(s, "move:r_mil1:cuenca") if e.kind == "move"]
    assert moved.for_seat(1).data == {"to": "cuenca"}
    assert moved.for_seat(0).data["unit"] == "r_mil1"


def test_determinize_deals_hidden_units_out_again_without_changing_the_view() -> None:
    """9.2 with the engine contract: a determinized state looks the same to the seat, while the
    units it cannot see may stand elsewhere."""
    s = _fog()
    put(s, "segovia", "n_reg1", "n_reg2", "n_afr1")
    put(s, "soria", "n_reg3", "n_reg4", "n_afr2")
    moved = False
    for seed in range(10):
        det = GAME.determinize(s, 0, LocalRng(seed))
        assert GAME.view(det, 0) == GAME.view(s, 0)
        moved |= det.units["n_reg1"]["at"] != s.units["n_reg1"]["at"]
    assert moved
