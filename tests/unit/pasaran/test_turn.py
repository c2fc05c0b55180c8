"""Start and end of the turn: reinforcements, initiative, weather, income, production and
victory, on positions built directly; each test names the rulebook section."""

from __future__ import annotations

from partida.engine import LocalRng
from partida.games.pasaran import board as B
from tests.unit.pasaran.positions import GAME, C, Dice, act, empty, fresh, ids, put, side


def _at_reinforcement(turn: int, **control: str):  # type: ignore[no-untyped-def]
    s = fresh()
    s.turn, s.phase, s.step, s.active = turn, "reinforce", "", ""
    s.last_initiative = "nat"
    for area, who in control.items():
        s.control[area] = s.city_control[area] = who
    return s


def _no_arrivals(s) -> None:  # type: ignore[no-untyped-def]
    for r in s.units.values():
        if r["status"] == "queue":
            r["arrive"] = 99


def test_reinforcements_go_where_the_side_holds_area_and_city() -> None:
    """5.1: only in a friendly area with a friendly city (or that city); never where the city
    is the enemy's (Oviedo) nor in an area without a city."""
    s = _at_reinforcement(2)
    GAME._advance(s, LocalRng(0), [])
    assert side(s) == "rep" and s.phase == "reinforce"
    places = {i.split(":")[2] for i in ids(s)}
    assert {"madrid", "madrid.c", "barcelona"} <= places
    assert not {"asturias", "asturias.c", "toledo", "guadalajara", "sevilla"} & places
    act(s, "place:hq_miaja:madrid")
    assert s.units["hq_miaja"]["status"] == "map" and side(s) == "nat"


def test_madrid_city_takes_reinforcements_while_its_side_holds_it() -> None:
    """5.1 with the French note: a side holding Madrid may always place units there, here the
    city while the area around it is lost."""
    s = empty()
    s.control["madrid"] = "nat"
    places = B.reinforcement_places(C, s, "rep")
    assert "madrid.c" in places and "madrid" not in places


def test_a_reinforcement_with_nowhere_to_go_waits_a_turn() -> None:
    """5.1 (decision in RULES.md): no allowed place, the unit comes a turn later."""
    s = _at_reinforcement(2)
    for a in list(s.city_control):
        s.city_control[a] = "rep"
    s.units["hq_miaja"]["arrive"] = 99
    GAME._advance(s, LocalRng(0), [])
    assert s.units["n_newreg1"]["arrive"] == 3 and s.phase == "segment"


def test_initiative_to_the_higher_die_and_ties_to_the_side_without_it_last_turn() -> None:
    """5.2: the higher roll acts first; a tie goes to the side that did not have it; winning
    after going second gives a double move."""
    s = _at_reinforcement(2)
    _no_arrivals(s)
    s.last_initiative = "rep"
    GAME._advance(s, Dice(2, 5, 6), [])
    assert s.initiative == "nat" and s.active == "nat" and s.segment == 0
    s = _at_reinforcement(2)
    _no_arrivals(s)
    s.last_initiative = "rep"
    GAME._advance(s, Dice(4, 4, 6), [])
    assert s.initiative == "nat"
    s = _at_reinforcement(2)
    _no_arrivals(s)
    s.last_initiative = "nat"
    GAME._advance(s, Dice(4, 4, 6), [])
    assert s.initiative == "rep"


def test_weather_is_read_on_the_quarter_row() -> None:
    """5.3: the Republicans' die on the quarter's row: a 4 is bad in winter (Q1 1937) but good
    in autumn (Q4 1936); summer (Q3) is always good."""
    for turn, roll, weather in ((3, 4, "bad"), (2, 4, "good"), (2, 3, "bad"), (5, 1, "good")):
        s = _at_reinforcement(turn)
        _no_arrivals(s)
        GAME._advance(s, Dice(6, 1, roll), [])
        assert s.weather == weather, (turn, roll)


def test_income_counts_whole_areas_and_permanent_cards() -> None:
    """7.1, 7.3.1 and 6.6: the BP of areas held with their city; mixed control (Oviedo, Toledo)
    yields nothing; a permanent card adds its production."""
    s = empty()
    assert B.income(C, s, "rep") == 15 and B.income(C, s, "nat") == 13
    s.city_control["asturias"] = "rep"
    assert B.income(C, s, "rep") == 16
    s.permanent.append("supply_of_arms")
    assert B.income(C, s, "rep") == 18


def test_end_of_turn_collects_income_then_cards_then_production() -> None:
    """7.0: income is collected, then the card procedure and production follow."""
    s = empty("nat", step="combat", weather="bad")
    s.segment, s.initiative = 1, "rep"
    s.bp = {"rep": 1, "nat": 2}
    s.deck = []
    act(s, "end")
    assert s.bp == {"rep": 16, "nat": 15}
    assert s.phase == "production" and side(s) == "rep"


def _production(bp: int = 10):  # type: ignore[no-untyped-def]
    s = fresh()
    s.phase, s.initiative, s.done, s.step = "production", "rep", [], ""
    s.bp = {"rep": bp, "nat": 0}
    return s


def test_building_costs_the_front_value_doubled_for_tanks_and_aircraft() -> None:
    """7.3 and 7.3.2: infantry its front, tanks and aircraft double; arrival after 1, 3 and 2
    quarters; identical counters are offered once; HQs are never built."""
    s = _production()
    options = ids(s)
    assert "build:r_poolmil1" in options and "build:r_poolmil2" not in options
    assert not any(o.startswith("build:hq_") for o in options)
    act(s, "build:r_poolmil1")
    act(s, "build:r_pooltank1")
    assert s.bp["rep"] == 10 - 2 - 4
    assert s.units["r_poolmil1"]["arrive"] == 2 and s.units["r_pooltank1"]["arrive"] == 4
    act(s, "build:r_poolair1")
    assert s.bp["rep"] == 0 and s.units["r_poolair1"]["arrive"] == 3
    assert ids(s) == ["end"]


def test_repairs_cost_the_difference_and_follow_the_reinforcement_limits() -> None:
    """7.3.2 and the errata: turning a unit back to its front costs the difference (double for
    tanks and aircraft), only where reinforcements could be placed."""
    s = _production(bp=4)
    put(s, "madrid", "r_reg1", "r_tank1", face="back")
    put(s, "guadalajara", "r_reg2", face="back")
    options = ids(s)
    assert "repair:r_reg1" in options and "repair:r_tank1" in options
    assert "repair:r_reg2" not in options
    act(s, "repair:r_tank1")
    assert s.units["r_tank1"]["face"] == "front" and s.bp["rep"] == 2


def test_an_eliminated_hq_is_rebuilt_for_one_bp_in_four_quarters() -> None:
    """7.3.2: HQs are not built, but an eliminated one returns for 1 BP after 4 turns."""
    s = _production(bp=1)
    s.units["hq_miaja"].update(status="dead", at=None, arrive=None)
    act(s, "rebuild:hq_miaja")
    assert s.units["hq_miaja"]["status"] == "queue" and s.units["hq_miaja"]["arrive"] == 5
    assert s.bp["rep"] == 0


def _end_turn(turn: int, **control: str):  # type: ignore[no-untyped-def]
    s = empty()
    s.turn = turn
    for area, who in control.items():
        s.control[area] = s.city_control[area] = who
    GAME._end_of_turn(s, [])
    return GAME.outcome(s)


def test_twenty_bp_of_areas_is_a_total_victory() -> None:
    """8.5: 20 BP or more of controlled production at the end of a turn wins."""
    out = _end_turn(4, madrid="nat", barcelona="nat", valencia="nat")
    assert out is not None and out.winners == (1,)
    assert _end_turn(4, madrid="nat") is None


def test_the_schedule_victories_of_1936_and_1937() -> None:
    """8.5: Madrid at the end of 1936; Madrid, or Valencia and Barcelona, at the end of 1937."""
    assert _end_turn(2, madrid="nat").winners == (1,)
    assert _end_turn(1, madrid="nat") is None
    assert _end_turn(6, valencia="nat", barcelona="nat", sevilla="rep",
                     zaragoza="rep").winners == (1,)
    assert _end_turn(6, valencia="nat") is None


def test_the_republic_wins_if_it_stands_at_the_end_of_q2_1939_and_surrender_loses() -> None:
    """8.5: no Nationalist victory by the end of Q2 1939 is a Republican win; a side that gives
    up loses; there is no draw."""
    out = _end_turn(12)
    assert out.winners == (0,) and not out.draw
    s = fresh()
    GAME.resign(s, 0)
    assert GAME.outcome(s).winners == (1,)
