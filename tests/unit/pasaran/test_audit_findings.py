"""Rules audit findings: positions built directly, each test naming the rulebook section."""

from __future__ import annotations

from partida.engine import LocalRng
from partida.games.pasaran import chits as H
from partida.games.pasaran import combat as CB
from partida.games.pasaran import movement as M
from partida.games.pasaran import production as P
from tests.unit.pasaran.positions import GAME, C, Dice, act, at, empty, holder, ids, put


def test_the_legion_condor_aircraft_has_the_strength_its_card_gives() -> None:
    """Appendix, Legion CONDOR: the card puts one aircraft of strength 2 into the Nationalist
    pool (as Italian Corps does for its aircraft); built, it costs twice that (7.3)."""
    lc = C.unit("n_lc1")
    assert (lc.kind, lc.front, lc.tag, lc.star) == ("air", 2, "lc", "legion_condor")
    assert lc.front == C.unit("n_italair1").front
    assert P.cost(C, "n_lc1") == 4


def test_an_infantry_unit_digging_a_trench_makes_no_reaction_that_turn() -> None:
    """9.5: the infantry digging a trench may not move for the rest of the turn, so in the
    enemy's segment of that turn it is neither sent as a reserve (6.3.6) nor moved between
    its city and the attacked area (6.3.5); its comrades still may."""
    s = empty("nat", step="react")
    s.options = {"trenches": True}
    put(s, "guadalajara", "r_mil1", "r_mil3", "hq_miaja")
    put(s, "madrid.c", "r_mil2")
    for uid, place in (("r_mil1", "guadalajara"), ("r_mil2", "madrid.c")):
        s.units[uid]["digging"] = True
        s.trenches.append({"side": "rep", "place": place, "turn": s.turn, "done": False})
    put(s, "cuenca", "r_reg1")
    put(s, "cuenca", "n_reg1")
    put(s, "madrid", "r_reg2")
    put(s, "madrid", "n_reg2")
    s.attacks = ["cuenca", "madrid"]
    reacts = M.reactions(C, s, "rep")
    assert ("r_mil1", "cuenca") not in reacts
    assert ("r_mil2", "madrid") not in reacts
    assert reacts[("r_mil3", "cuenca")] == "reserve:hq_miaja"


def test_an_unfinished_trench_earns_the_defender_no_chit() -> None:
    """9.4 with 9.5: the defender's extra chit for a trench needs a trench that is finished;
    a trench still being dug is useless."""
    s = empty("nat", step="combat")
    s.options = {"trenches": True, "combat_chits": True}
    s.chits = H.new_cups(C)
    put(s, "cuenca", "r_mil1")
    put(s, "cuenca", "n_reg1")
    s.trenches = [{"side": "rep", "place": "cuenca", "turn": s.turn, "done": False}]
    assert H.superiority(C, s, "rep", "cuenca") == 0
    s.trenches[0]["done"] = True
    assert H.superiority(C, s, "rep", "cuenca") == 1


def test_a_city_attacked_this_segment_is_not_also_besieged() -> None:
    """6.4.5: the units around a city may besiege it instead of attacking it, not as well:
    while the attack on the city waits, and after it has been fought, no siege is offered."""
    s = empty("rep", step="combat")
    put(s, "toledo", "r_mil13", "r_reg2")
    put(s, "toledo.c", "r_reg1")
    put(s, "toledo.c", "n_alcazar1")
    s.attacks = ["toledo.c"]
    assert ids(s) == ["fight:toledo.c"]
    act(s, "fight:toledo.c", Dice(6, 6))                # both miss
    assert "retreat:toledo" in ids(s)
    act(s, "retreat:toledo")
    assert s.combat is None and holder(s, "toledo.c") == "nat"
    assert ids(s) == ["end"]
    other = empty("rep", step="combat")                 # not attacked: the siege is there
    put(other, "toledo", "r_mil13", "r_reg2")
    put(other, "toledo.c", "n_alcazar1")
    assert "siege:toledo" in ids(other)


# ----- second pass -------------------------------------------------------------------------
def test_aircraft_do_not_count_among_the_regulars_ending_barcelona_revolt() -> None:
    """Appendix, Barcelona Revolt (with the French note of 2.1): the revolt ends once three
    Republican regulars, a kind of ground unit, stand in the area; an aircraft based there is
    not one of them."""
    s = empty("rep")
    s.permanent = ["barcelona_revolt"]
    put(s, "barcelona", "r_mil1", "r_reg1", "r_reg2", "r_air3")
    GAME._end_of_turn(s, [])
    assert s.permanent == ["barcelona_revolt"]
    s = empty("rep")
    s.permanent = ["barcelona_revolt"]
    put(s, "barcelona", "r_mil1", "r_reg1", "r_reg2", "r_tank1")    # a tank is a regular
    GAME._end_of_turn(s, [])
    assert s.permanent == [] and "barcelona_revolt" in s.discard


def test_fog_does_not_name_the_hidden_hq_that_sent_a_reserve() -> None:
    """9.2: an HQ under the top of its stack is hidden, so the view must not tell which HQ
    has spent command on reserves (6.3.6); determinize keeps the view unchanged."""
    s = empty("nat", step="react")
    s.options = {"fog_of_war": True}
    put(s, "guadalajara", "hq_miaja", "r_mil1", "r_mil3")        # r_mil3 on top
    put(s, "cuenca", "r_reg1")
    put(s, "cuenca", "n_reg1")
    s.attacks = ["cuenca"]
    act(s, "react:r_mil1:cuenca")
    assert s.command_used == {"hq_miaja": 1}
    assert GAME.view(s, 1)["command_used"] == {}
    assert GAME.view(s, 0)["command_used"] == {"hq_miaja": 1}
    assert GAME.view(GAME.determinize(s, 1, LocalRng(3)), 1) == GAME.view(s, 1)


def test_a_unit_in_a_full_city_may_still_be_repaired() -> None:
    """Errata to 7.3.2: repairs obey the places of 5.1; a repair adds no unit, so a city
    already holding three units (here Madrid's, its area lost) is no bar."""
    s = empty("rep")
    s.phase, s.initiative, s.done, s.bp["rep"] = "production", "rep", [], 10
    s.control["madrid"] = "nat"
    put(s, "madrid.c", "r_reg1", "r_reg2", "r_reg3", face="back")
    assert {"repair:r_reg1", "repair:r_reg2", "repair:r_reg3"} <= set(ids(s))
    put(s, "guadalajara", "r_reg4", face="back")                 # no city there: no repair
    assert "repair:r_reg4" not in ids(s)


def test_land_units_may_retreat_into_a_friendly_city_of_a_neighbouring_area() -> None:
    """6.4.8: besides adjacent friendly areas, a friendly city within range takes
    retreating land units (reading in RULES.md: the city of a neighbouring area the side
    holds, with room for them)."""
    s = empty("rep", step="combat")
    s.city_control["toledo"] = "rep"
    put(s, "toledo", "r_reg1")
    put(s, "toledo", "n_reg1")
    s.attacks = ["toledo"]
    act(s, "fight:toledo", Dice(6, 6))
    options = ids(s)
    assert {"retreat:madrid.c", "retreat:toledo.c", "retreat:madrid"} <= set(options)
    assert "retreat:caceres.c" not in options                     # an enemy area's city
    act(s, "retreat:madrid.c")
    assert at(s, "r_reg1") == "madrid.c" and holder(s, "toledo") == "nat"


def test_a_river_line_weakens_attacking_aircraft_too() -> None:
    """1.2: the river line takes 1 from every attacker; aircraft over the land segment feel
    the map's terrain (RULES.md reading of 6.5.3), so an attacking aircraft loses 1 there,
    a defending one does not, and neither does one in the air segment."""
    s = empty("rep", step="combat")
    put(s, "zaragoza", "r_air1", "r_reg1")
    put(s, "zaragoza", "n_air1", "n_reg1")
    assert CB.air_value(C, s, "r_air1", "zaragoza", False) == 1
    assert CB.land_value(C, s, "r_reg1", True, "zaragoza") == 2
    assert CB.air_value(C, s, "n_air1", "zaragoza", False) == 2
    assert CB.air_value(C, s, "r_air1", "zaragoza", True) == 2


def test_an_hq_accompanies_its_reserves_and_goes_nowhere_else() -> None:
    """6.3.6: an HQ may go along with the reserves it sent, not to another combat."""
    s = empty("rep")
    put(s, "guadalajara", "r_mil1")
    put(s, "soria", "n_reg1")
    put(s, "huesca", "r_mil2")
    put(s, "zaragoza", "n_reg2")                                  # empty of hq, a neighbour
    put(s, "navarra", "hq_mola", "n_reg3", "n_reg4")
    s.control["huesca"] = "rep"
    act(s, "move:r_mil1:soria")
    act(s, "move:r_mil2:zaragoza")
    act(s, "end")
    assert not {"react:hq_mola:soria", "react:hq_mola:zaragoza"} & set(ids(s))
    act(s, "react:n_reg3:soria")
    options = ids(s)
    assert "react:hq_mola:soria" in options and "react:hq_mola:zaragoza" not in options
    assert "react:n_reg4:zaragoza" in options


def test_a_tank_leaving_its_city_passes_through_the_empty_enemy_area_around_it() -> None:
    """6.3.1 with 6.3.3: a tank in a friendly city whose area the enemy holds but does not
    occupy takes that area and may drive on; infantry stop there; enemy units in the area
    make it an attack."""
    s = empty("nat")
    put(s, "asturias.c", "n_pooltank1", "n_reg1")
    assert {"asturias", "galicia", "santander"} <= M.land_moves(C, s, "n_pooltank1").keys()
    assert set(M.land_moves(C, s, "n_reg1")) == {"asturias"}
    act(s, "move:n_pooltank1:santander")
    assert holder(s, "asturias") == "nat" and holder(s, "santander") == "nat"
    s = empty("nat")
    put(s, "asturias.c", "n_pooltank1")
    put(s, "asturias", "r_mil1")
    assert set(M.land_moves(C, s, "n_pooltank1")) == {"asturias"}
    act(s, "move:n_pooltank1:asturias")
    assert s.attacks == ["asturias"]


def test_an_hqs_rating_counts_again_in_the_exploitation_reactions() -> None:
    """6.3.6 with 6.5 (reading in RULES.md): an HQ's rating limits the reserves it sends in
    one reaction step; after the exploitation's attacks it may send as many again."""
    s = empty("rep", step="exploit")
    s.exploiting = True
    put(s, "guadalajara", "r_tank1")
    put(s, "soria", "n_reg1")
    put(s, "navarra", "hq_mola", "n_reg5")
    s.command_used = {"hq_mola": 3}                  # spent on the movement's reactions
    act(s, "move:r_tank1:soria")
    act(s, "end")
    assert s.step == "react" and "react:n_reg5:soria" in ids(s)
