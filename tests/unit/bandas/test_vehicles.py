"""Vehicles (Rulebook, Vehículos; Acciones de abordaje; Disparo desde vehículos; Disparo a
vehículos; Tabla de blindajes; Tabla de impactos en vehículos; Atropellos de vehículos;
Mecánico; Conducción de primera; Tirador de primera; Alado; Arpones; Gancho con cadenas)."""

import pytest

from partida.engine import IllegalAction
from partida.games.bandas import actions as A
from partida.games.bandas import vehicles as V
from partida.games.bandas import world as W

from .positions import GAME, ScriptedRng, act, activate, arena, kinds, of

TRUCK = "ca_camion"


def convoy(keep=None, truck=(12, 45, 0), **vehicles):
    return arena("convoy_ambush", keep=keep or {"em_rata": (65, 40)},
                 vehicles={TRUCK: truck, **vehicles})


def legal(state, seat, aid):
    try:
        GAME.validate(state, seat, aid)
        return True
    except IllegalAction:
        return False


def test_a_truck_drives_20_cm_per_action_twice_and_carries_its_crew():
    """Vehículos: trucks 20 cm and 2 actions; riders go with it."""
    state = convoy()
    activate(state, TRUCK)
    assert legal(state, 0, "drive:32.0,45.0") and not legal(state, 0, "drive:32.5,45.0")
    act(state, "drive:32.0,45.0")
    assert state.vehicles[TRUCK]["moving"] and state.place("ca_llave") == (32.0, 45.0)
    act(state, "drive:45.0,50.0")
    assert state.active is None and state.vehicles[TRUCK]["heading"] == pytest.approx(21.04, 0.01)


def test_terrain_and_the_table_edge_stop_a_vehicle():
    state = convoy(truck=(47, 45, 0))
    activate(state, TRUCK)
    with pytest.raises(IllegalAction, match="nave"):
        GAME.validate(state, 0, "drive:47.0,58.0")
    state.vehicles[TRUCK].update(x=100.0)
    assert not legal(state, 0, "drive:116.0,45.0")


@pytest.mark.parametrize(("faces", "status", "y"), [((6, 1, 1, 5), "out", 46.0),
                                                    ((1, 6), "standing", 49.35)])
def test_running_a_model_over(faces, status, y):
    """Atropellos: driver's weapon skill against the model's pericia; a hit is a hit, a miss
    means it jumped clear (RULES.md: beside the vehicle's path)."""
    state = convoy(keep={"em_rata": (30, 46)})
    activate(state, TRUCK)
    ev = act(state, "drive:32.0,45.0", *faces)
    assert of(ev, "attack_roll")[0]["ws"] == 4            # Ruedas, a ganger
    assert state.models["em_rata"]["status"] == status
    assert state.models["em_rata"]["y"] == pytest.approx(y)


def test_motorbikes_cannot_run_models_over():
    """Motos / Atropellos: motorbikes cannot run over, so they must go round."""
    state = convoy(keep={"em_rata": (30, 36)}, ca_montura=(15, 36, 0))
    activate(state, "ca_montura")
    with pytest.raises(IllegalAction, match="motorbikes"):
        GAME.validate(state, 0, "drive:40.0,36.0")
    assert legal(state, 0, "drive:40.0,40.0")


def test_boarding_from_the_ground_is_a_pericia_check_at_minus_one():
    """Acciones de abordaje: −1 from the ground; Gancho con cadenas re-rolls a failure."""
    state = convoy(truck=(50, 45, 0))
    activate(state, "em_rata")                   # henchman, pericia 2: 1 or less from ground
    ev = act(state, "board:ca_camion", 2)
    assert of(ev, "pericia_check")[0]["pericia"] == 1 and "boarding_failed" in kinds(ev)
    state.models["em_rata"]["weapons"].append("chain_hook")
    ev = act(state, "board:ca_camion", 2, 1)
    assert state.models["em_rata"]["vehicle"] == TRUCK and "boarded" in kinds(ev)


def test_from_a_moving_vehicle_minus_two_and_one_move_at_most():
    """Acciones de abordaje: −2 from a moving vehicle; the jump is at most one move."""
    state = convoy(truck=(50, 45, 0), em_bugi=(50, 55, 0))
    state.vehicles["em_bugi"]["moving"] = True
    state.models["em_rata"].update(vehicle="em_bugi", role="rider")
    activate(state, "em_rata")
    ev = act(state, "board:ca_camion", 1)
    assert of(ev, "pericia_check")[0]["pericia"] == 0
    state.vehicles[TRUCK].update(x=20.0)
    with pytest.raises(IllegalAction, match="more than one move"):
        GAME.validate(state, 1, "board:ca_camion")


def test_winged_models_board_without_a_check_and_full_vehicles_refuse():
    """Alado: no boarding restrictions; Vehículos: a truck carries four."""
    state = convoy(keep={"em_garfio": (50, 40)}, truck=(50, 45, 0))
    activate(state, "em_garfio")
    ev = act(state, "board:ca_camion")
    assert "boarded" in kinds(ev) and len(state.crew(TRUCK)) == 4
    state = convoy(keep={"em_rata": (50, 40), "em_garfio": (58, 40)}, truck=(50, 45, 0))
    state.models["em_garfio"].update(vehicle=TRUCK, role="rider")
    activate(state, "em_rata")
    with pytest.raises(IllegalAction, match="full"):
        GAME.validate(state, 1, "board:ca_camion")


def test_shooting_a_vehicle_uses_the_drivers_pericia_and_a_harpoon_hit_frees_boarding():
    """Disparo a vehículos: the driver's pericia (Conducción de primera: +1 driving); Arpones:
    a hit lifts the boarding limits."""
    state = convoy(keep={"em_garfio": (40, 57)}, truck=(20, 45, 0))
    state.models["em_garfio"]["skills"] = []
    activate(state, "em_garfio")
    assert not legal(state, 1, "board:ca_camion")          # 15.8 cm: over one move
    ev = act(state, "shoot:ca_camion:harpoon", 6, 1, 6, 4)  # hit; medium armour saves; ammo
    assert of(ev, "attack_roll")[0]["pericia"] == 3 + 1
    assert of(ev, "vehicle_save")[0] == {"vehicle": TRUCK, "roll": 6, "needed": 5, "saved": True}
    ev = act(state, "board:ca_camion")
    assert "boarded" in kinds(ev) and not of(ev, "pericia_check")


def test_vehicle_armour_table():
    """Tabla de blindajes: light 6+, medium 5+, heavy 4+ (a piercing shot: one worse)."""
    state = convoy()
    for armour, need in (("light", 6), ("medium", 5), ("heavy", 4)):
        state.vehicles[TRUCK]["armour"] = armour
        ev = []
        V.armour_saves(state, TRUCK, 0, ScriptedRng(1), ev)
        assert of(ev, "vehicle_save")[0]["needed"] == need
    ev = []
    V.armour_saves(state, TRUCK, 1, ScriptedRng(4), ev)
    assert of(ev, "vehicle_save")[0] == {"vehicle": TRUCK, "roll": 4, "needed": 5, "saved": False}
    state.vehicles[TRUCK]["armour"] = "light"
    assert V.armour_saves(state, TRUCK, 1, ScriptedRng(), []) is False   # 7+: no save


def test_shooting_from_a_vehicle_minus_one_not_gunners_nor_marksmen():
    """Disparo desde vehículos: −1 except gunners; Tirador de primera ignores it."""
    state = convoy(keep={"em_rata": (29, 45), "ca_moto": (5, 5)}, truck=(20, 45, 0))
    activate(state, "ca_ametra")                         # the gunner's heavy automatic
    ev = act(state, "shoot:em_rata:heavy_auto", 1, 6)
    ev += act(state, "shoot:em_rata:heavy_auto", 1, 6)  # no −1, no ammunition check
    assert [r["ws"] for r in of(ev, "attack_roll")] == [3, 3] and not of(ev, "ammo_check")
    state.models["ca_moto"].update(vehicle=TRUCK, role="rider")
    activate(state, "ca_moto")
    assert of(act(state, "shoot:em_rata:pistol", 1, 6, 4, 1, 6), "attack_roll")[0]["ws"] == 2
    activate(state, "ca_llave")                         # a marksman
    assert of(act(state, "shoot:em_rata:light_auto", 1, 6), "attack_roll")[0]["ws"] == 5


def test_hit_table_wheels_weapon_crew_cargo_near_miss():
    """Tabla de impactos en vehículos, 1-5."""
    state = convoy()
    V.hit_table(state, TRUCK, ScriptedRng(1), [])
    assert state.vehicles[TRUCK]["wheels"] == 1
    V.hit_table(state, TRUCK, ScriptedRng(2), [])
    assert state.vehicles[TRUCK]["weapon_broken"]
    ev = []
    V.hit_table(state, TRUCK, ScriptedRng(3, 5, 1, 1), ev)   # crew: 4-6 the gunner; hit, down
    assert of(ev, "crew_hit")[0]["model"] == "ca_ametra"
    ev = []
    V.hit_table(state, TRUCK, ScriptedRng(3, 2, 1), ev)      # 1-3 the driver; knocked down
    assert of(ev, "crew_hit")[0]["model"] == "ca_ruedas"
    ev = []
    V.hit_table(state, TRUCK, ScriptedRng(4, 1, 1, 1), ev)   # cargo: Llave, saves on 5+: no
    assert of(ev, "cargo_hit")[0]["model"] == "ca_llave"
    ev = []
    V.hit_table(state, TRUCK, ScriptedRng(5), ev)
    assert kinds(ev) == ["vehicle_hit"]


def test_a_second_wheel_hit_immobilises_and_a_first_makes_the_driver_check():
    """Tabla de impactos 1 (RULES.md: crashed vehicles): a failed check drifts 2d6 cm; a
    second wheel result leaves it unable to move."""
    state = convoy(truck=(60, 45, 0))
    state.vehicles[TRUCK]["wheels"] = 1
    ev = activate(state, TRUCK, 5, 3, 2, 2)                 # fails (pericia 4), east, 4 cm
    assert of(ev, "drifted")[0]["to"] == pytest.approx([64.0, 45.0])
    assert state.active is None
    state.vehicles[TRUCK].update(wheels=2, activated=False)
    activate(state, TRUCK)
    assert [a.id for a in GAME.legal_actions(state, 0)] == ["end"]


def test_a_drift_into_terrain_is_a_crash_and_another_hit_roll():
    state = convoy(truck=(47, 35, 0))                       # the wall runs 3 cm south
    state.vehicles[TRUCK]["wheels"] = 1
    ev = activate(state, TRUCK, 6, 5, 6, 6, 5)              # fails, south, 12 cm: crash; 5
    assert of(ev, "drifted")[0]["crashed"] and of(ev, "vehicle_hit")[0]["roll"] == 5


def test_the_engine_explodes_on_a_second_six_then_on_five_or_six():
    """Tabla de impactos 6: roll again, a 6 blows it up; next time 5 or 6, and so on. The crew
    takes two hits at weapon skill 6 each."""
    state = convoy()
    V.hit_table(state, TRUCK, ScriptedRng(6, 4), [])
    assert not state.vehicles[TRUCK]["wrecked"]
    ev = []
    faces = [6, 5] + [1, 6] * 6                             # every attack on the crew misses
    V.hit_table(state, TRUCK, ScriptedRng(*faces), ev)
    assert of(ev, "engine_roll")[0]["needed"] == 5 and state.vehicles[TRUCK]["wrecked"]
    assert len(of(ev, "attack_roll")) == 6 and all(r["ws"] == 6 for r in of(ev, "attack_roll"))
    assert not state.crew(TRUCK)                            # set down beside the wreck


def test_a_mechanic_repairs_once_per_turn():
    """Mecánico: a pericia check mends a destroyed part (one: the wheels first, RULES.md),
    one try per turn."""
    state = convoy()
    state.vehicles[TRUCK].update(wheels=1, weapon_broken=True)
    activate(state, "ca_llave")
    act(state, "repair:ca_camion", 5)                       # fails (pericia 4)
    assert not legal(state, 0, "repair:ca_camion")
    state.turn += 1
    act(state, "repair:ca_camion", 4)
    assert state.vehicles[TRUCK]["wheels"] == 0 and state.vehicles[TRUCK]["weapon_broken"]
    state.turn += 1
    act(state, "repair:ca_camion", 4)
    assert not state.vehicles[TRUCK]["weapon_broken"]


def test_the_convoy_wins_when_its_truck_reaches_the_exit():
    """Convoy ambush (ours): the truck ending a move in the east exit wins."""
    state = convoy(truck=(100, 45, 0))
    activate(state, TRUCK)
    act(state, "drive:113.0,45.0")
    assert GAME.outcome(state).winners == (0,)


def test_a_rider_takes_the_wheel_of_a_vehicle_without_driver():
    """RULES.md (drivers): the book does not say; a rider spends an action to drive."""
    state = convoy()
    state.models["ca_ruedas"]["status"] = "out"
    assert TRUCK not in A.units(state, 0)
    activate(state, "ca_llave")
    act(state, "wheel:ca_camion")
    assert state.driver(TRUCK) == "ca_llave"
    assert not legal(state, 0, "wheel:ca_camion")


def test_a_declared_rider_defends_with_its_own_pericia():
    """Disparo a vehículos: the shooter declares the vehicle or a rider (RULES.md: a rider
    defends with its own pericia)."""
    state = convoy(keep={"em_vigia": (40, 45)}, truck=(25, 45, 0))
    activate(state, "em_vigia")                          # laser rifle, 30 cm
    ev = act(state, "shoot:ca_llave:laser_rifle", 1, 6)
    assert of(ev, "attack_roll")[0]["pericia"] == 4     # Llave, a veteran


def test_vehicles_are_sighted_by_samples_and_take_cover_too():
    """Línea de visión for a vehicle target: nine points over its footprint; half hidden is
    −1 to the shooter, wholly hidden is no target."""
    state = convoy(keep={"em_rata": (65, 15)}, truck=(76, 34, 0))   # half behind the guardhouse
    assert W.hidden_vehicle(state, "em_rata", TRUCK) == 6
    activate(state, "em_rata")
    ev = act(state, "shoot:ca_camion:shotgun", 1, 6)
    assert of(ev, "attack_roll")[0]["ws"] == 3 - 1
    state.vehicles[TRUCK].update(x=60.0, y=40.0)
    assert W.hidden_vehicle(state, "em_rata", TRUCK) == 0
    state.vehicles[TRUCK].update(x=78.0, y=45.0)
    state.models["em_rata"].update(x=78.0, y=2.0)                   # the guardhouse between
    assert W.hidden_vehicle(state, "em_rata", TRUCK) == 9


def test_a_downed_driver_gets_up_but_the_vehicle_stays_this_activation():
    """Heridas applied to drivers (RULES.md: drivers act through their vehicle)."""
    state = convoy()
    state.models["ca_ruedas"]["status"] = "down"
    activate(state, TRUCK)
    assert state.models["ca_ruedas"]["status"] == "standing"
    assert [a.id for a in GAME.legal_actions(state, 0)] == ["end"]
