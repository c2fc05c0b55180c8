"""Third audit against the rulebook: deployment, the three authored tables and how they end,
pushes ending on other models, and two skills of a downed model that is charged. Each
divergence or decision is checked on a position built directly (Rulebook sections cited by
their Spanish headings; decisions in RULES.md)."""

import copy

import pytest

from partida.engine import BadSetup, LocalRng
from partida.games.bandas import combat as C
from partida.games.bandas import geometry as G
from partida.games.bandas import world as W

from .positions import GAME, ScriptedRng, act, activate, arena, of
from .test_scenarios import CUSTOM

EAST = 0.0      # push angle, degrees


# ----- Piel regenerativa / Sangre ácida on a downed model that is charged (Heridas) ---------

def test_a_downed_model_with_regenerative_skin_that_is_charged_stays_down():
    """Piel regenerativa: its bearer can only be put out of action, never stunned. Knocked
    down anyway (failed drugs), a charge on it would stun it (Heridas): that result does not
    apply, so it stays down (RULES.md, charged)."""
    state = arena(keep={"mu_baba": (60, 80), "ch_pico": (62.8, 80), "ch_lata": (10, 10)})
    pico = state.models["ch_pico"]
    pico.update(status="down", skills=["regenerative_skin"])
    assert pico["armour"] is None                   # no save to roll
    activate(state, "mu_baba")
    ev = act(state, "fight:ch_pico:sabre")
    assert of(ev, "charged_while_down") == [{"model": "ch_pico", "now": "down"}]
    assert pico["status"] == "down"


def test_a_stunned_model_with_regenerative_skin_that_is_charged_still_goes_out():
    """Piel regenerativa keeps out of action: the charge on a stunned model is unchanged."""
    state = arena(keep={"mu_baba": (60, 80), "ch_pico": (62.8, 80), "ch_lata": (10, 10)})
    state.models["ch_pico"].update(status="stunned", skills=["regenerative_skin"])
    activate(state, "mu_baba")
    act(state, "fight:ch_pico:sabre")
    assert state.models["ch_pico"]["status"] == "out"


@pytest.mark.parametrize(("save", "now"), [(1, "stunned"), (6, "down")])
def test_charging_a_downed_model_with_acid_blood_burns_the_charger(save, now):
    """Sangre ácida: hitting the bearer in melee hits the attacker. A charge on a downed
    model is a melee hit that needs no roll (Heridas), so it burns the charger too, whether
    or not the armour then saves (as a blow that lands and is saved does; RULES.md)."""
    state = arena(keep={"ch_pico": (60, 80), "mu_grumo": (62.8, 80), "mu_baba": (110, 10)})
    state.models["mu_grumo"]["status"] = "down"
    activate(state, "ch_pico")
    ev = act(state, "fight:mu_grumo:spear", save, 1)    # Grumo's 5+ save; Pico's wound: 1
    assert of(ev, "save")[0]["saved"] == (save == 6)
    assert state.models["mu_grumo"]["status"] == now
    assert of(ev, "acid_blood") == [{"model": "mu_grumo", "burns": "ch_pico"}]
    assert of(ev, "wound") == [{"model": "ch_pico", "roll": 1, "result": "down"}]


# ----- pushes (Caídas; Rifle de pulsos) -------------------------------------------------------

def test_a_pushed_model_stops_at_the_base_of_a_model_in_its_way():
    """Caídas / Rifle de pulsos push a model 1d6 cm; bases may not overlap (RULES.md), so a
    push stops in base contact with a model in its path, as it stops at a wall."""
    state = arena(keep={"ch_pico": (60, 80), "mu_baba": (64, 80)})
    ev: list = []
    C.push(state, "ch_pico", EAST, 6, ScriptedRng(), ev, {"by": "test"})
    pico = state.models["ch_pico"]
    assert (pico["x"], pico["y"]) == pytest.approx((64 - 2 * G.RADIUS, 80))
    assert of(ev, "pushed")[0]["to"] == pytest.approx([61.5, 80])
    assert state.models["mu_baba"]["x"] == 64       # the other model is not moved


def test_a_push_passes_beside_a_model_and_ignores_models_out_of_action():
    """Caídas (a push) with RULES.md's reading on bases in the way: a model beside the path,
    or one out of action, does not stop it."""
    state = arena(keep={"ch_pico": (60, 80), "mu_baba": (64, 82.6), "mu_ojo": (63, 80)})
    state.models["mu_ojo"]["status"] = "out"
    C.push(state, "ch_pico", EAST, 6, ScriptedRng(), [], {"by": "test"})
    assert state.models["ch_pico"]["x"] == pytest.approx(66)


def test_a_model_pushed_off_a_roof_lands_short_of_a_model_below():
    """Caídas: pushed off the tavern's roof (8 cm) towards a model standing at its foot, the
    faller stops in base contact with it (off the roof, so it still falls: one check)."""
    state = arena(keep={"ch_pico": (58.5, 20), "mu_baba": (63, 20)})
    state.models["ch_pico"]["roof"] = "taberna"
    ev: list = []
    C.push(state, "ch_pico", EAST, 6, ScriptedRng(1), ev, {"by": "test"})
    pico = state.models["ch_pico"]
    assert pico["x"] == pytest.approx(63 - 2 * G.RADIUS) and pico["roof"] is None
    assert of(ev, "fell")[0]["checks"] == 1 and pico["status"] == "prone"


def test_a_push_on_a_roof_ignores_models_on_the_ground_beside_the_building():
    """While the pushed model is still over its roof, models on the ground are below it."""
    state = arena(keep={"ch_pico": (55, 20), "mu_baba": (61.3, 20)})
    state.models["ch_pico"]["roof"] = "taberna"
    C.push(state, "ch_pico", EAST, 4, ScriptedRng(), [], {"by": "test"})
    pico = state.models["ch_pico"]
    assert pico["x"] == pytest.approx(59) and pico["roof"] == "taberna"


# ----- the convoy ambush (ours; how a match ends) ---------------------------------------------

def test_only_the_convoys_own_truck_wins_the_convoy_ambush():
    """Our convoy objective: the convoy wins when *its* truck gets through; a vehicle of the
    ambushers in the exit strip does nothing for it."""
    state = arena("convoy_ambush", keep={"em_rata": (65, 40)},
                  vehicles={"ca_camion": (116, 45, 0)})
    state.vehicles["ca_camion"]["seat"] = 1
    assert not GAME._decided(state, [])
    state.vehicles["ca_camion"]["seat"] = 0
    assert GAME._decided(state, []) and GAME.outcome(state).winners == (0,)


def test_a_submitted_convoy_gang_must_field_the_truck_of_the_objective():
    """A convoy gang submitted as data without the objective's truck could never win but by
    rout, and an ambushers' vehicle given that id used to win the match for the convoy."""
    ambush = copy.deepcopy(CUSTOM)
    ambush["id"] = "otra"
    for m in ambush["models"]:
        m["id"] = m["id"].replace("yo_", "el_")
    ambush["vehicles"][0].update(id="ca_camion", driver="el_conductor")
    with pytest.raises(BadSetup, match="must field the vehicle 'ca_camion'"):
        GAME.new_state("convoy_ambush", 2, {"gangs": {"convoy": CUSTOM, "paso": ambush}},
                       LocalRng(0))
    convoy = copy.deepcopy(CUSTOM)
    convoy["vehicles"][0]["id"] = "ca_camion"
    state = GAME.new_state("convoy_ambush", 2, {"gangs": {"convoy": convoy}}, LocalRng(0))
    assert state.vehicles["ca_camion"]["seat"] == 0


# ----- the scramble (ours): a routed gang's crates ---------------------------------------------

def test_a_routed_gang_drops_its_crates_where_its_models_stand():
    """Rout (ours): a routed gang's models leave the fight; the crates they held drop where
    they stand, like an out-of-action model's, so the scramble can still be won."""
    state = arena("scramble", 3, {"ch_jefa": (30, 45), "mu_grumo": (112, 25),
                                  "fe_nodo": (50, 83)})
    state.models["ch_jefa"]["loot"] = 1
    state.loot = [list(p) for p in state.loot[1:]]
    ev = GAME.resign(state, 0)
    assert of(ev, "loot_dropped") == [{"model": "ch_jefa", "crates": 1, "at": [30.0, 45.0]}]
    assert [30.0, 45.0] in state.loot and state.models["ch_jefa"]["loot"] == 0


def test_a_gang_routed_at_the_end_of_a_turn_drops_its_crates():
    """Our rout rule (RULES.md, rout and the scramble's objective): a gang routed at the end
    of a turn drops its crates where its models stand, as resigning does."""
    state = arena("scramble", 3, {"ch_jefa": (30, 45), "ch_pico": (20, 30),
                                  "mu_grumo": (112, 25), "fe_nodo": (50, 83)})
    state.models["ch_jefa"]["loot"] = 1
    state.models["ch_pico"]["status"] = "out"       # half of Oeste's two models
    ev: list = []
    GAME._end_turn(state, LocalRng(0), ev)
    assert 0 in state.routed and [30.0, 45.0] in state.loot


# ----- deployment and the tables (checked correct) ------------------------------------------

@pytest.mark.parametrize("table", ["street_fight", "convoy_ambush", "scramble"])
def test_ready_made_set_ups_stand_in_their_zones_without_overlaps(table):
    """Our tables: every model's base and vehicle's footprint lies inside its side's zone,
    on the table, off walls and solid pieces (on a roof only wholly on it), bases apart."""
    t = GAME.content.table(table)
    state = GAME.new_state(table, len(t.sides), {}, LocalRng(0))
    zones = {seat: G.polygon(s.deploy) for seat, s in enumerate(t.sides)}
    table_box = G.polygon([(0, 0), (t.width, 0), (t.width, t.height), (0, t.height)])
    feet = [(mid, m) for mid, m in state.models.items() if not m["vehicle"]]
    for mid, m in feet:
        b = G.base((m["x"], m["y"]))
        assert zones[m["seat"]].contains(b) and table_box.contains(b), mid
        for blk in W.blocks(state):
            if blk.id == m["roof"]:
                assert blk.shape.contains(b), mid
            else:
                assert blk.shape.intersection(b).area < 1e-6, (mid, blk.id)
    for i, (_, ma) in enumerate(feet):
        for _, mb in feet[i + 1:]:
            if ma["roof"] == mb["roof"]:
                assert G.distance((ma["x"], ma["y"]), (mb["x"], mb["y"])) >= 2 * G.RADIUS
    for vid, v in state.vehicles.items():
        shape = W.vehicle_shape(state, vid).shape
        assert zones[v["seat"]].contains(shape), vid
        assert all(blk.shape.intersection(shape).area < 1e-6
                   for blk in W.blocks(state, frozenset({vid})))
