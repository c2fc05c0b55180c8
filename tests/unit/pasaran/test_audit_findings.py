"""Rules audit findings: positions built directly, each test naming the rulebook section."""

from __future__ import annotations

from partida.games.pasaran import chits as H
from partida.games.pasaran import movement as M
from partida.games.pasaran import production as P
from tests.unit.pasaran.positions import C, Dice, act, empty, holder, ids, put


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
