"""Falls (Rulebook, Caídas de vehículos, o edificios; Cuerpo gelatinoso; RULES.md: pushes
and the prone state)."""

from partida.games.bandas import combat as C

from .positions import GAME, ScriptedRng, act, activate, arena, of

WEST = 7        # scatter die faces 1-8, north first and clockwise: the 7th points west


def on_roof(mid="ch_pico", at=(41, 20), roof="taberna"):
    state = arena(keep={mid: at, "mu_grumo": (112, 30)})
    state.models[mid]["roof"] = roof
    return state


def test_a_hit_near_a_roof_edge_pushes_and_a_low_fall_takes_one_check():
    """Caídas: hit within 2 cm of the edge: scatter die and 1d6 cm; under 10 cm one check."""
    state = on_roof()
    ev = []
    C.hit(state, "ch_pico", ScriptedRng(2, WEST, 3, 2), ev)   # down; pushed 3 cm west; passes
    assert of(ev, "pushed")[0]["to"] == [38.0, 20.0]
    assert of(ev, "fell") == [{"model": "ch_pico", "height": 8.0, "checks": 1}]
    m = state.models["ch_pico"]
    assert m["roof"] is None and m["status"] == "down"


def test_away_from_the_edge_a_hit_pushes_nobody():
    state = on_roof(at=(50, 20))
    ev = []
    C.hit(state, "ch_pico", ScriptedRng(1), ev)
    assert not of(ev, "pushed") and state.models["ch_pico"]["roof"] == "taberna"


def test_from_ten_centimetres_or_more_two_checks_each_failure_a_wound():
    """Caídas: higher than 10 cm, two pericia checks; a failed one goes to the wound table."""
    state = on_roof(at=(66, 60), roof="torre")
    ev = []
    C.fall(state, "ch_pico", 12.0, ScriptedRng(5, 1, 2), ev)   # fails (wound: down), passes
    assert [e["passed"] for e in of(ev, "pericia_check")] == [False, True]
    assert of(ev, "wound")[0]["result"] == "down"


def test_passing_every_check_leaves_it_prone_and_standing_costs_an_action():
    """Caídas: success means the model needs an action to stand in its next turn."""
    state = on_roof()
    C.fall(state, "ch_pico", 8.0, ScriptedRng(1), [])
    assert state.models["ch_pico"]["status"] == "prone"
    state.models["ch_pico"]["activated"] = False                # its next turn
    activate(state, "ch_pico")
    assert sorted(a.id for a in GAME.legal_actions(state, 0)) == ["end", "stand"]
    act(state, "stand")
    assert state.models["ch_pico"]["status"] == "standing" and state.active["actions"] == 1


def test_gelatinous_body_falls_low_without_a_check_and_high_with_one():
    """Cuerpo gelatinoso: no check up to 10 cm, one from higher or from a moving vehicle."""
    state = on_roof()
    state.models["ch_pico"]["skills"] = ["gelatinous_body"]
    ev = []
    C.fall(state, "ch_pico", 8.0, ScriptedRng(), ev)
    assert of(ev, "fell")[0]["checks"] == 0 and state.models["ch_pico"]["status"] == "prone"
    ev = []
    C.fall(state, "ch_pico", 12.0, ScriptedRng(1), ev)
    assert of(ev, "fell")[0]["checks"] == 1


def test_a_rider_of_a_moving_vehicle_thrown_off_takes_two_checks():
    """Caídas: a hit on a moving vehicle pushes the rider; off the vehicle it falls as from
    high."""
    state = arena("convoy_ambush", keep={"em_garfio": (42, 72)},
                  vehicles={"ca_montura": (60, 40, 0)})
    state.vehicles["ca_montura"]["moving"] = True
    ev = []
    C.hit(state, "ca_moto", ScriptedRng(1, 1, 4, 1, 1), ev)  # down; 4 cm north: off; 2 passes
    assert of(ev, "fell")[0]["checks"] == 2
    assert state.models["ca_moto"]["vehicle"] is None


def test_exactly_ten_centimetres_is_one_check():
    """Caídas (RULES.md): up to 10 cm one check, as the gelatinous body's 'not above 10'."""
    state = on_roof()
    ev = []
    C.fall(state, "ch_pico", 10.0, ScriptedRng(1), ev)
    assert of(ev, "fell")[0]["checks"] == 1
