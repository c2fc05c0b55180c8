"""Second audit against the rulebook: each divergence or decision checked on a position built
directly (Rulebook sections cited by their Spanish headings; see RULES.md)."""

import pytest
from shapely.geometry import Point

from partida.games.bandas import actions as A
from partida.games.bandas import combat as C
from partida.games.bandas import geometry as G
from partida.games.bandas import vehicles as V
from partida.games.bandas import world as W
from partida.games.bandas.content import check_gang, load

from .positions import GAME, ScriptedRng, act, activate, arena, kinds, of

TRUCK = "ca_camion"
NORTH = 1       # scatter die face pointing north


def next_turn(state, *units):
    """What the new turn does to the flags of the given units (initiative aside)."""
    state.turn += 1
    for u in units:
        (state.vehicles.get(u) or state.models[u])["activated"] = False


def test_a_model_knocked_down_before_it_acts_stays_down_until_the_next_turn():
    """Heridas (knocked down): the model may get up in the turn *after* the hit, so one
    knocked down before its activation does not act again that turn; in the next it stands
    but may not move."""
    state = arena(keep={"mu_baba": (60, 80), "ch_pico": (62.8, 80), "ch_lata": (10, 10)})
    state.order = [1, 0]
    activate(state, "mu_baba")
    ev = act(state, "fight:ch_pico:sabre", 1, 6, 6, 1, 1)     # spear misses; Baba hits; 1
    assert of(ev, "wound")[0]["result"] == "down"
    assert A.units(state, 0) == ["ch_lata"]
    act(state, "end")
    activate(state, "ch_lata")
    ev = act(state, "end", 6, 1)                               # turn over: initiative
    assert of(ev, "initiative")[0]["turn"] == 2 and GAME.to_act(state) == (0,)
    ev = activate(state, "ch_pico")
    assert of(ev, "recovered") == [{"model": "ch_pico", "now": "standing"}]
    assert state.active["no_move"]


def test_a_stunned_model_turns_to_down_only_in_the_next_turn():
    """Heridas (stunned; RULES.md: the ladder): stunned before its activation, the model
    does nothing more that turn; at its next turn's activation it becomes knocked down."""
    state = arena(keep={"ch_pico": (60, 80), "ch_lata": (10, 10), "mu_baba": (110, 10)})
    C.wound(state, "ch_pico", ScriptedRng(3), [])
    assert state.models["ch_pico"]["status"] == "stunned"
    assert A.units(state, 0) == ["ch_lata"]
    next_turn(state, "ch_pico")
    ev = activate(state, "ch_pico")
    assert of(ev, "recovered") == [{"model": "ch_pico", "now": "down"}]
    assert state.active is None


def test_a_model_that_falls_before_it_acts_stands_only_in_the_next_turn():
    """Caídas: passing the checks means the model needs an action to stand in the next
    turn; it does not act again in the turn it fell."""
    state = arena(keep={"ch_pico": (41, 20), "ch_lata": (10, 10), "mu_grumo": (112, 30)})
    state.models["ch_pico"]["roof"] = "taberna"
    C.fall(state, "ch_pico", 8.0, ScriptedRng(1), [])
    assert state.models["ch_pico"]["status"] == "prone"
    assert "ch_pico" not in A.units(state, 0)


def test_a_driver_knocked_down_before_its_vehicle_acts_stays_down_that_turn():
    """Heridas applied to drivers (RULES.md: drivers act through their vehicle): the truck
    activated in the turn its driver was knocked down stays put and the driver stays down;
    the driver gets up at the vehicle's activation in the next turn."""
    state = arena("convoy_ambush", keep={"em_rata": (65, 40)}, vehicles={TRUCK: (30, 45, 0)})
    V.hit_table(state, TRUCK, ScriptedRng(3, 2, 1), [])        # crew: the driver, wound 1
    assert state.models["ca_ruedas"]["status"] == "down"
    ev = activate(state, TRUCK)
    assert not of(ev, "recovered") and state.models["ca_ruedas"]["status"] == "down"
    assert not of(ev, "drove") and state.active is None     # nothing to do: over at once
    next_turn(state, TRUCK, "ca_ruedas")
    ev = activate(state, TRUCK)
    assert of(ev, "recovered") == [{"model": "ca_ruedas", "now": "standing"}]


def test_animals_may_carry_a_ranged_and_a_melee_weapon_or_two_melee():
    """Animales y robots / Armamento (RULES.md: animals' weapons): two melee weapons are an
    option for animals, instead of the usual one ranged and one melee, not an obligation."""
    pts = load().points

    def animal(*weapons):
        return {"id": "g", "name": "G", "points_limit": 500,
                "models": [{"id": "a", "name": "A", "grade": "animal", "weapons": list(weapons)}]}

    check_gang(pts, animal("pistol", "sabre"))
    check_gang(pts, animal("laser_melee", "spear"))
    check_gang(pts, animal("pistol", "pistol", "spear"))
    for illegal in (("pistol", "sabre", "spear"), ("laser_rifle", "pistol"),
                    ("sabre", "spear", "two_handed")):
        with pytest.raises(ValueError, match="animal carries 1 ranged and 1 melee"):
            check_gang(pts, animal(*illegal))


def test_getting_into_a_vehicle_of_ones_own_gang_is_no_assault():
    """Acciones de abordaje (RULES.md: boarding one's own vehicle): the pericia check is for
    assaulting a vehicle; a model climbs into its own gang's truck with no check, still
    within one move of it and with a free place."""
    state = arena("convoy_ambush", keep={"ca_moto": (50, 40), "em_rata": (90, 80)},
                  vehicles={TRUCK: (50, 45, 0)})
    activate(state, "ca_moto")
    ev = act(state, "board:ca_camion")                         # no die rolled
    assert kinds(ev) == ["boarded"] and state.models["ca_moto"]["vehicle"] == TRUCK


def test_a_drifting_vehicle_runs_over_a_model_in_its_way():
    """Tabla de impactos (1, wheels) with Atropellos (RULES.md: crashed vehicles): a model in
    the drift's way is run over like one in a drive's, and one that jumps clear ends beside
    the vehicle, not under it."""
    state = arena("convoy_ambush", keep={"em_rata": (60, 50.5)}, vehicles={TRUCK: (60, 45, 0)})
    state.vehicles[TRUCK]["wheels"] = 1
    ev = activate(state, TRUCK, 5, NORTH, 3, 3, 1, 6)          # fails; north 6 cm; jumps
    assert of(ev, "drifted")[0]["to"] == pytest.approx([60.0, 51.0])
    assert of(ev, "attack_roll")[0]["target"] == "em_rata"
    rata = (state.models["em_rata"]["x"], state.models["em_rata"]["y"])
    assert W.vehicle_shape(state, TRUCK).shape.distance(Point(rata)) > G.RADIUS
    activate(state, "em_rata")
    assert any(a.id.startswith("move:") for a in GAME.legal_actions(state, 1))


def test_a_drifting_motorbike_stops_short_of_a_model_without_crashing():
    """Motos / Atropellos: motorbikes cannot run models over, so a drifting one stops at the
    model; a model is not scenery, so this is no crash (Tabla de impactos, 1)."""
    state = arena("convoy_ambush", keep={"em_rata": (60, 50)},
                  vehicles={"ca_montura": (60, 45, 0)})
    state.vehicles["ca_montura"]["wheels"] = 1
    ev = activate(state, "ca_montura", 5, NORTH, 3, 3)         # fails (pericia 2); 6 cm
    assert of(ev, "drifted")[0]["to"] == pytest.approx([60.0, 47.5])
    assert of(ev, "drifted")[0]["crashed"] is False and "vehicle_hit" not in kinds(ev)
    assert state.models["em_rata"]["status"] == "standing"


def test_a_mechanic_mends_one_destroyed_part_per_check():
    """Mecánico: a successful check repairs the part destroyed (RULES.md: one part a check,
    the wheels first)."""
    state = arena("convoy_ambush", keep={"em_rata": (90, 80)}, vehicles={TRUCK: (30, 45, 0)})
    state.vehicles[TRUCK].update(wheels=2, weapon_broken=True)
    activate(state, "ca_llave")
    act(state, "repair:ca_camion", 1)
    assert state.vehicles[TRUCK]["wheels"] == 0 and state.vehicles[TRUCK]["weapon_broken"]


def test_a_vehicle_left_without_a_driver_stops_being_in_motion():
    """Caídas / Acciones de abordaje ('a moving vehicle'; RULES.md: in motion until its next
    activation): a vehicle whose driver is out of action never activates, so after a whole
    turn without an activation it is no longer in motion; one that drove keeps it into the
    next turn until it activates."""
    state = arena("convoy_ambush", keep={"em_rata": (90, 80)},
                  vehicles={TRUCK: (30, 45, 0), "ca_montura": (30, 30, 0)})
    C.worsen(state, "ca_ruedas", "out", [])
    state.vehicles[TRUCK]["moving"] = True
    state.vehicles["ca_montura"].update(moving=True, activated=True)
    for mid in ("ca_ametra", "ca_llave"):
        state.models[mid]["activated"] = True
    activate(state, "em_rata")
    ev = act(state, "end", 6, 1)                               # the turn ends: initiative
    assert of(ev, "initiative")[0]["turn"] == 2
    assert state.vehicles[TRUCK]["moving"] is False
    assert state.vehicles["ca_montura"]["moving"] is True


def test_survivors_of_an_explosion_are_set_down_where_their_bases_fit():
    """Tabla de impactos (6, engine; RULES.md: survivors beside the wreck): a truck against
    a building sets its survivors down on its open side, not inside the building."""
    state = arena("convoy_ambush", keep={"em_rata": (90, 20)}, vehicles={TRUCK: (42, 57, 0)})
    V.explode(state, TRUCK, ScriptedRng(*[1, 6] * 6), [])      # every attack misses
    blocks = W.blocks(state)
    for mid in ("ca_ruedas", "ca_ametra", "ca_llave"):
        m = state.models[mid]
        assert m["vehicle"] is None and not G.base_overlaps((m["x"], m["y"]), blocks)
        assert m["y"] < 54


def test_a_pair_of_pistols_gives_two_blows_in_melee():
    """Pistolas (RULES.md: two pistols): usable in melee, and a pair gives two shots, so one
    melee action with a pair is two blows, the second at −1."""
    state = arena(keep={"ch_pico": (60, 80), "mu_baba": (62.8, 80)})   # Pico: two pistols
    activate(state, "ch_pico")
    ev = act(state, "fight:mu_baba:pistol", 1, 6, 1, 6)                # both miss
    assert [r["ws"] for r in of(ev, "attack_roll")] == [4, 3] and not of(ev, "ammo_check")
