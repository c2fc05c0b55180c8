"""Combat rules on positions built directly; each test names the rulebook section."""

from __future__ import annotations

from partida.games.pasaran import combat as CB
from tests.unit.pasaran.positions import C, Dice, act, at, empty, holder, ids, put, side


def _fight(place: str, active: str = "rep", weather: str = "good"):  # type: ignore[no-untyped-def]
    s = empty(active, step="combat", weather=weather)
    s.attacks = [place]
    return s


def _value(s, uid: str, attacker: bool, place: str) -> int:  # type: ignore[no-untyped-def]
    put(s, place, uid)
    return CB.land_value(C, s, uid, attacker, place)


def test_terrain_modifies_armour_infantry_defenders_and_attackers() -> None:
    """1.2: hills cost armour 1; highlands add 1 to infantry defenders; a river line takes 1
    from attackers; 6.5.3: the chart gives at most 5 and never below 0."""
    s = empty()
    assert _value(s, "n_pooltank1", False, "navarra") == 1             # tank 2, hills -1
    assert _value(s, "r_mil1", False, "guadalajara") == 3              # militia 2, +1 defending
    assert _value(s, "r_mil2", True, "guadalajara") == 2               # no bonus attacking
    assert _value(s, "r_reg1", True, "zaragoza") == 2                  # regular 3, river -1
    assert _value(s, "n_afr1", False, "teruel") == 5                   # African 4 +1
    assert CB.chart(C, 9) == 5 and CB.chart(C, -2) == 0


def test_madrid_has_its_own_effects() -> None:
    """1.2 Madrid: attacking land units -1, infantry defenders +1, tanks -1, aircraft in the
    ground fight -1."""
    s = empty()
    assert _value(s, "n_reg1", True, "madrid") == 2
    assert _value(s, "r_mil1", False, "madrid") == 3
    assert _value(s, "r_tank1", False, "madrid.c") == 1
    put(s, "madrid", "n_air1")
    assert CB.air_value(C, s, "n_air1", "madrid", False) == 1
    assert CB.air_value(C, s, "n_air1", "madrid", True) == 2            # not in the air segment


def test_bad_weather_weakens_attacking_land_units_and_all_aircraft() -> None:
    """5.3 and 6.5.3: terrain first, then weather (-1 to attacking land units and aircraft);
    the sierra halves aircraft over the land segment."""
    s = empty(weather="bad")
    assert _value(s, "r_reg1", True, "valladolid") == 2
    assert _value(s, "r_reg2", False, "valladolid") == 3
    put(s, "segovia", "n_lc1")
    assert CB.air_value(C, s, "n_lc1", "segovia", False) == 0            # 2 // 2 - 1
    assert CB.air_value(C, s, "n_lc1", "segovia", True) == 1             # 2 - 1


def test_tanks_fire_twice_hqs_never_and_both_sides_fire_on_round_start_strengths() -> None:
    """6.4.1: the active side fires first, tanks twice, HQs not at all; the inactive side fires
    back with the strength it had at the start of the round, though its unit dies."""
    s = _fight("valladolid")
    put(s, "valladolid", "r_tank1", "hq_miaja")
    put(s, "valladolid", "n_reg1")
    events = act(s, "fight:valladolid", Dice(1, 2, 3))
    (round_,) = [e for e in events if e.kind == "round"]
    fire = {entry[0]: entry for entry in round_.data["fire"]}
    assert fire["r_tank1"][3] == [1, 2] and fire["r_tank1"][4] == 2
    assert "hq_miaja" not in fire
    assert fire["n_reg1"][3] == [3] and fire["n_reg1"][4] == 1
    assert s.units["n_reg1"]["status"] == "pool"                       # flipped, then eliminated


def test_the_owner_chooses_which_unit_takes_a_hit_and_the_winner_takes_the_area() -> None:
    """6.4.7: the owner decides which unit is turned over; 6.4.10 and 6.6: the side left holds
    the place."""
    s = _fight("valladolid")
    put(s, "valladolid", "r_tank1", "hq_miaja")
    put(s, "valladolid", "n_reg1")
    act(s, "fight:valladolid", Dice(1, 2, 3))
    assert side(s) == "rep" and set(ids(s)) == {"loss:r_tank1", "loss:hq_miaja"}
    act(s, "loss:hq_miaja")
    assert s.units["hq_miaja"]["face"] == "back" and s.units["r_tank1"]["face"] == "front"
    assert s.combat is None and holder(s, "valladolid") == "rep"


def test_a_unit_without_a_back_dies_at_the_first_hit_and_surplus_hits_are_lost() -> None:
    """6.4.7: no back printed, one hit eliminates; hits beyond what the units absorb vanish."""
    s = _fight("soria", active="nat")
    put(s, "soria", "n_afr1", "n_afr2")
    put(s, "soria", "r_milb1")
    act(s, "fight:soria", Dice(1, 1, 6))
    assert s.units["r_milb1"]["status"] == "pool"
    assert s.combat is None and holder(s, "soria") == "nat"


def test_aircraft_fight_aircraft_first_and_surplus_land_units_fire_anti_aircraft() -> None:
    """6.5.3 mixed forces and 6.4.6: aircraft against aircraft in the air segment, the side with
    more sends its surplus to the land segment; the side with more land units puts its surplus
    (weakest first) on anti-aircraft."""
    s = empty()
    put(s, "soria", "r_air1", "r_air2", "r_mil1")
    put(s, "soria", "n_air1", "n_reg1", "n_reg2", "n_recruit1")
    segs = CB.segments(C, s, "soria")
    assert len(segs["rep"]["air"]) == 1 and len(segs["rep"]["over"]) == 1
    assert segs["nat"]["air"] == ["n_air1"] and segs["nat"]["over"] == []
    assert segs["nat"]["aa"] == ["n_recruit1", "n_reg1"]
    assert segs["rep"]["aa"] == [] and segs["nat"]["land"] == ["n_reg2"]


def test_air_hits_fall_on_aircraft_and_land_hits_on_land_units() -> None:
    """6.4.7 and 6.4.6: anti-aircraft units cannot absorb hits from the air segment."""
    s = empty()
    s.combat = {"place": "soria", "round": 1, "stage": "losses", "ask": [], "must": None,
                "hits": {"rep": {"air": 0, "land": 0}, "nat": {"air": 1, "land": 0}}}
    put(s, "soria", "n_air1", "n_air2", "n_reg1")
    assert CB.candidates(C, s, "nat", "air") == ["n_air1", "n_air2"]
    assert CB.candidates(C, s, "nat", "land") == ["n_reg1"]


def test_retreat_is_asked_of_the_active_side_first_and_moves_all_its_land_units() -> None:
    """6.4.8: both sides standing after a round, the active side is asked first; all its land
    units retreat to an adjacent friendly area; neither retreating, another round is fought."""
    s = _fight("soria")
    s.control["soria"] = "nat"
    put(s, "soria", "r_reg1", "r_reg2")
    put(s, "soria", "n_reg1", "n_reg2")
    act(s, "fight:soria", Dice(6, 6, 6, 6))
    assert side(s) == "rep" and "stay" in ids(s) and "retreat:guadalajara" in ids(s)
    assert "retreat:zaragoza" not in ids(s)
    act(s, "stay")
    assert side(s) == "nat"
    act(s, "stay", Dice(6, 6, 6, 6))
    assert s.combat["round"] == 2
    act(s, "retreat:guadalajara")
    assert {at(s, "r_reg1"), at(s, "r_reg2")} == {"guadalajara"}
    assert s.combat is None and holder(s, "soria") == "nat"


def test_aircraft_alone_must_leave_and_cannot_take_an_area() -> None:
    """6.4.9: aircraft alone after a round retreat at once; 6.6: aircraft alone never conquer,
    even when they destroy the last defender."""
    s = _fight("soria")
    put(s, "guadalajara", "r_mil1")
    put(s, "soria", "r_air1")
    put(s, "soria", "n_reg1", face="back")
    act(s, "fight:soria")
    act(s, "declare:0:1", Dice(1, 6))              # the lone defender fires anti-aircraft
    assert s.units["n_reg1"]["status"] == "pool"
    assert holder(s, "soria") == "nat" and at(s, "r_air1") == "guadalajara"
    s = _fight("soria")
    put(s, "guadalajara", "r_mil1")
    put(s, "soria", "r_air1")
    put(s, "soria", "n_reg1")
    act(s, "fight:soria")
    act(s, "declare:0:0", Dice(6, 6))
    assert s.combat is None and at(s, "r_air1") == "guadalajara"


def test_a_combat_nobody_can_fire_in_makes_the_active_side_retreat() -> None:
    """6.4.10 with 6.4.2 (decision in RULES.md): HQs face each other, nobody can fire, so the
    active side must leave: no option to fight on."""
    s = _fight("soria")
    put(s, "soria", "hq_miaja")
    put(s, "soria", "hq_mola")
    act(s, "fight:soria")
    assert side(s) == "rep" and ids(s) == ["retreat:guadalajara"]


def test_the_active_side_chooses_the_order_of_its_combats() -> None:
    """6.4.1: every attacked place is offered; combats are not skipped."""
    s = _fight("soria")
    s.attacks = ["soria", "zaragoza"]
    put(s, "soria", "r_reg1", "n_reg1")
    put(s, "zaragoza", "r_reg2", "n_reg2")
    assert set(ids(s)) == {"fight:soria", "fight:zaragoza"}


def test_a_siege_rolls_once_with_the_strongest_units_and_a_wiped_out_side_loses() -> None:
    """6.4.5 siege: the strongest land unit of each side, one unmodified die each; the side
    wiped out loses its place."""
    s = _fight("toledo")
    s.attacks = []
    put(s, "toledo", "r_reg1", "r_mil1")
    put(s, "toledo.c", "n_alcazar1", face="back")
    assert "siege:toledo" in ids(s)
    act(s, "siege:toledo", Dice(3, 6))                    # the regular (3) hits, Moscardo misses
    assert s.units["n_alcazar1"]["status"] == "pool" and holder(s, "toledo.c") == "rep"
    assert s.units["r_reg1"]["face"] == "front"


def test_retreating_units_may_go_to_different_places_but_all_must_go() -> None:
    """6.4.8: retreating units may all go to one place or split among several; a retreat is all or
    nothing, so once split every land unit is sent somewhere."""
    s = _fight("soria")
    s.control["segovia"] = "rep"
    put(s, "soria", "r_reg1", "r_reg2")
    put(s, "soria", "n_reg1", "n_reg2")
    act(s, "fight:soria", Dice(6, 6, 6, 6))
    assert "split" in ids(s)
    act(s, "split")
    assert side(s) == "rep" and "stay" not in ids(s)
    assert {"send:r_reg1:guadalajara", "send:r_reg1:segovia"} <= set(ids(s))
    act(s, "send:r_reg1:guadalajara")
    assert s.combat is not None and side(s) == "rep"
    act(s, "send:r_reg2:segovia")
    assert at(s, "r_reg1") == "guadalajara" and at(s, "r_reg2") == "segovia"
    assert s.combat is None and holder(s, "soria") == "nat"


def test_each_side_declares_how_its_surplus_fights() -> None:
    """6.5.3 mixed forces and 6.4.6: before a round the side with more aircraft says how many
    of the extra ones go to the land segment, the side with more land units how many of the
    extra ones fire anti-aircraft; the active side declares first."""
    s = _fight("soria")
    put(s, "soria", "r_air1", "r_air2", "r_air3", "r_reg1")
    put(s, "soria", "n_air1", "n_reg1", "n_reg2", "n_reg3")
    act(s, "fight:soria")
    assert side(s) == "rep" and ids(s) == ["declare:2:0", "declare:1:0", "declare:0:0"]
    act(s, "declare:0:0")
    assert side(s) == "nat" and ids(s) == ["declare:0:2", "declare:0:1", "declare:0:0"]
    segs = CB.segments(C, s, "soria")
    assert len(segs["rep"]["air"]) == 3 and segs["rep"]["over"] == []
    assert len(segs["nat"]["aa"]) == 2                         # not declared yet: all surplus
    s.combat["declared"]["nat"] = [0, 1]
    assert len(CB.segments(C, s, "soria")["nat"]["aa"]) == 1
