"""Movement rules on positions built directly; each test names the rulebook section."""

from __future__ import annotations

import pytest

from partida.engine import IllegalAction
from partida.games.pasaran import board as B
from tests.unit.pasaran.positions import act, at, dests, empty, holder, ids, put, side


def test_infantry_moves_one_area_or_two_by_double_range_through_friends() -> None:
    """6.3.1 infantry range 1; 6.3.2 double range only through friendly areas, never onto an
    enemy one."""
    s = empty("rep")
    put(s, "madrid", "r_mil1")
    put(s, "soria", "n_reg1")
    d = dests(s, "r_mil1")
    assert {"guadalajara", "toledo", "cuenca"} <= d          # one area
    assert "valencia" in d                                   # two, all friendly: double range
    assert "soria" not in d                                  # enemy, two away: no double attack
    assert "zaragoza" not in d


def test_entering_an_enemy_area_with_units_is_an_attack() -> None:
    """6.3: a move into enemy territory holding enemy units is an attack."""
    s = empty("rep")
    put(s, "guadalajara", "r_mil1")
    put(s, "soria", "n_reg1")
    act(s, "move:r_mil1:soria")
    assert at(s, "r_mil1") == "soria" and s.attacks == ["soria"]
    assert holder(s, "soria") == "nat"


def test_entering_an_empty_enemy_area_takes_it_without_combat() -> None:
    """6.3 and 6.6: no troops at all there, so no attack; the area changes hands."""
    s = empty("rep")
    put(s, "guadalajara", "r_mil1")
    act(s, "move:r_mil1:soria")
    assert s.attacks == [] and holder(s, "soria") == "rep"


def test_tanks_pass_through_an_empty_enemy_area_and_take_it() -> None:
    """6.3.1: tanks and HQs may cross an unoccupied enemy area, taking control of it."""
    s = empty("rep")
    put(s, "guadalajara", "r_tank1")
    put(s, "burgos", "n_reg1")
    put(s, "segovia", "n_reg2")                       # the other way is held
    act(s, "move:r_tank1:burgos")
    assert holder(s, "soria") == "rep" and s.attacks == ["burgos"]


def test_infantry_cannot_pass_through_an_empty_enemy_area() -> None:
    """6.3.1: the pass-through exception is for tanks and HQs only."""
    s = empty("rep")
    put(s, "guadalajara", "r_reg1", "r_tank1")
    put(s, "burgos", "n_reg1")
    assert "burgos" not in dests(s, "r_reg1") and "burgos" in dests(s, "r_tank1")


def test_a_defended_city_stops_tanks_passing_through_its_area() -> None:
    """6.3.1: no passing through an area whose city has defenders; moving in is an attack."""
    s = empty("rep")
    put(s, "lerida", "r_tank1")
    put(s, "zaragoza.c", "n_reg1")
    d = dests(s, "r_tank1")
    assert "zaragoza" in d and "soria" not in d        # Soria lies only beyond Zaragoza
    act(s, "move:r_tank1:zaragoza")
    assert s.attacks == ["zaragoza"]


def test_sea_mountain_and_neutral_areas_are_closed_to_land_units() -> None:
    """1.2: land units never enter sea or mountain; 8.1: nobody enters a neutral area."""
    s = empty("rep")
    put(s, "almeria", "r_tank1")
    put(s, "lerida", "r_mil1")
    assert not {"sea", "sierra_nevada"} & dests(s, "r_tank1")
    assert not {"france", "pirineo"} & dests(s, "r_mil1")


def test_cities_are_entered_free_from_their_own_area_and_attacked_only_from_it() -> None:
    """6.3.3: own city and area cost nothing between them; a city is attacked from its area
    at one movement point, so infantry next door cannot reach Oviedo's city."""
    s = empty("rep")
    put(s, "madrid", "r_mil1")
    put(s, "asturias", "r_mil2")
    put(s, "santander", "r_mil3")
    put(s, "asturias.c", "n_oviedo1")
    assert "madrid.c" in dests(s, "r_mil1")
    assert "asturias.c" in dests(s, "r_mil2")
    assert "asturias.c" not in dests(s, "r_mil3")
    act(s, "move:r_mil2:asturias.c")
    assert s.attacks == ["asturias.c"]


def test_at_most_three_land_units_attack_a_city() -> None:
    """6.4.5: no more than three land units may attack a city."""
    s = empty("rep")
    put(s, "asturias.c", "n_oviedo1")
    put(s, "asturias", "r_mil1", "r_mil2", "r_mil3", "r_mil4")
    for uid in ("r_mil1", "r_mil2", "r_mil3"):
        act(s, f"move:{uid}:asturias.c")
    assert "asturias.c" not in dests(s, "r_mil4")


def test_rail_moves_go_any_distance_on_friendly_rails_and_are_counted() -> None:
    """6.1: one unit per rail move, as far as the lines run through friendly areas, before
    normal movement; the Republicans have three."""
    s = empty("rep", step="rail")
    put(s, "barcelona", "r_mil1", "r_mil2", "r_mil3", "r_mil4")
    d = dests(s, "r_mil1", "rail")
    assert {"valencia", "alicante", "madrid"} <= d and "zaragoza" not in d
    for uid in ("r_mil1", "r_mil2", "r_mil3"):
        act(s, f"rail:{uid}:valencia")
    assert not dests(s, "r_mil4", "rail")
    assert "move:r_mil1:castellon" not in ids(s)          # rail comes before movement
    act(s, "end")
    assert "castellon" in dests(s, "r_mil1")              # and does not use the normal move


def test_the_republican_coastal_move() -> None:
    """6.1: one Republican unit between friendly coastal areas, any distance; the Nationalists
    have none."""
    s = empty("rep", step="rail")
    put(s, "barcelona", "r_mil1", "r_mil2")
    assert "malaga" in dests(s, "r_mil1", "coast")
    act(s, "coast:r_mil1:malaga")
    assert at(s, "r_mil1") == "malaga" and not dests(s, "r_mil2", "coast")
    n = empty("nat", step="rail")
    put(n, "cadiz", "n_reg1")
    assert not dests(n, "n_reg1", "coast")


def test_rebasing_from_mallorca_across_the_sea_once_a_turn() -> None:
    """6.2 and 1.1: aircraft rebase up to four areas through friendly territory (the sea is one
    area), once per turn."""
    s = empty("nat", step="rail")
    put(s, "mallorca", "n_air1")
    assert "sevilla" in dests(s, "n_air1", "rebase")
    assert "valencia" not in dests(s, "n_air1", "rebase")
    act(s, "rebase:n_air1:cadiz")
    assert not dests(s, "n_air1", "rebase")


def test_aircraft_fly_two_areas_over_enemy_land_and_end_only_home_or_on_a_target() -> None:
    """6.3.1 and 1.1: from Mallorca over the sea onto Valencia (two areas); no landing in an
    enemy area they do not attack."""
    s = empty("nat")
    put(s, "mallorca", "n_air1")
    put(s, "valencia", "r_mil1")
    d = dests(s, "n_air1")
    assert "valencia" in d and "castellon" not in d and "sea" not in d
    act(s, "move:n_air1:valencia")
    assert s.attacks == ["valencia"]


def test_inactive_side_reacts_from_the_city_and_with_aircraft() -> None:
    """6.3.5: units in the city join the combat in its area; aircraft within range join any
    attacked place."""
    s = empty("rep")
    put(s, "guadalajara", "r_mil1")
    put(s, "soria", "n_reg1")
    put(s, "zaragoza.c", "n_reg2")
    put(s, "navarra", "n_air1")
    put(s, "tarragona", "r_mil2")
    act(s, "move:r_mil2:zaragoza")
    act(s, "move:r_mil1:soria")
    act(s, "end")
    assert side(s) == "nat" and s.step == "react"
    options = set(ids(s))
    assert {"react:n_reg2:zaragoza", "react:n_air1:soria", "react:n_air1:zaragoza"} <= options
    act(s, "react:n_reg2:zaragoza")
    assert at(s, "n_reg2") == "zaragoza"


def test_reserves_follow_their_hq_up_to_its_command() -> None:
    """6.3.6: land units with an HQ move to an area attacked by land units, up to the HQ's
    rating (Mola 3), through friendly areas; the HQ may go along."""
    s = empty("rep")
    put(s, "guadalajara", "r_mil1")
    put(s, "soria", "n_reg1")
    put(s, "navarra", "hq_mola", "n_reg2", "n_reg3", "n_reg4", "n_reg5")
    act(s, "move:r_mil1:soria")
    act(s, "end")
    for uid in ("n_reg2", "n_reg3", "n_reg4"):
        act(s, f"react:{uid}:soria")
    assert "react:n_reg5:soria" not in ids(s)
    assert "react:hq_mola:soria" in ids(s)


def test_kleber_leads_only_regulars_and_air_attacks_raise_no_reserves() -> None:
    """7.3.2: Kleber commands only regulars, Durruti only militia; 6.3.6: an attack without
    land units (the air strike on Toledo) triggers no reserve movement."""
    s = empty("nat")
    put(s, "soria", "n_reg1")
    put(s, "segovia", "n_air1")
    put(s, "guadalajara", "r_mil1")
    put(s, "toledo", "r_mil4")
    put(s, "madrid", "hq_durruti", "r_mil2", "r_reg3")
    put(s, "cuenca", "hq_kleber", "r_mil3", "r_reg2")
    act(s, "move:n_reg1:guadalajara")
    act(s, "move:n_air1:toledo")
    act(s, "end")
    options = set(ids(s))
    assert {"react:r_mil2:guadalajara", "react:r_reg2:guadalajara"} <= options
    assert not {"react:r_reg3:guadalajara", "react:r_mil3:guadalajara"} & options
    assert not any(o.startswith("react:r_mil2:toledo") for o in options)


def test_exploitation_moves_tanks_hqs_and_led_infantry_in_good_weather_only() -> None:
    """6.5: after the combats, tanks, HQs and infantry with an HQ (up to its rating) move again;
    bad weather allows no exploitation (5.3)."""
    s = empty("nat", step="combat")
    put(s, "navarra", "hq_mola", "n_reg1", "n_pooltank1")
    put(s, "burgos", "n_reg2")
    act(s, "end")
    assert s.step == "exploit"
    movers = {i.split(":")[1] for i in ids(s) if i.startswith("move:")}
    assert movers == {"hq_mola", "n_reg1", "n_pooltank1"}
    b = empty("nat", step="combat", weather="bad")
    put(b, "navarra", "n_pooltank1")
    act(b, "end")
    assert b.segment == 1 and b.active == "rep"


def test_a_unit_moves_only_once_per_movement_phase() -> None:
    """6.3.1: each unit moves once."""
    s = empty("rep")
    put(s, "madrid", "r_mil1")
    act(s, "move:r_mil1:guadalajara")
    with pytest.raises(IllegalAction):
        act(s, "move:r_mil1:madrid")


def test_a_nested_snapshot_leaves_the_outer_index_in_place() -> None:
    """Not a rule: the index of units by place that move searches read (board.snapshot)
    answers like a scan of every unit, by side too, and an inner snapshot of the same state
    does not end the outer one's index."""
    s = empty("rep")
    put(s, "madrid", "r_mil1")
    put(s, "madrid", "n_reg1")
    scanned = (B.units_at(s, "madrid"), B.units_at(s, "madrid", "rep"))
    with B.snapshot(s):
        with B.snapshot(s):
            pass
        assert id(s) in B._SNAPSHOT
        assert (B.units_at(s, "madrid"), B.units_at(s, "madrid", "rep")) == scanned
    assert id(s) not in B._SNAPSHOT
