"""Line of sight and cover with shapely (Rulebook, Línea de visión y coberturas; Visión laser;
Cosa enorme; RULES.md: nine sample points, 50% cover from five hidden)."""

from partida.games.bandas import world as W

from .positions import GAME, act, activate, arena, of


def ws_of_shot(state, action, *faces):
    return of(act(state, action, *faces), "attack_roll")[0]["ws"]


def test_half_hidden_behind_a_low_wall_is_cover_minus_one():
    """Línea de visión: at least 50% covered by a wall: −1 to the shooter's weapon skill."""
    state = arena(keep={"ch_lata": (20, 55), "mu_baba": (33, 55)})
    assert W.hidden(state, "ch_lata", "mu_baba") == 6
    activate(state, "ch_lata")
    assert ws_of_shot(state, "shoot:mu_baba:laser_rifle", 1, 6) == 3 - 1


def test_in_the_open_no_cover():
    state = arena(keep={"ch_lata": (60, 80), "mu_baba": (80, 80)})
    assert W.hidden(state, "ch_lata", "mu_baba") == 0
    activate(state, "ch_lata")
    assert ws_of_shot(state, "shoot:mu_baba:laser_rifle", 1, 6) == 3


def test_light_scenery_is_no_cover():
    """Línea de visión: hedges, barrels and light cover do not count."""
    state = arena(keep={"ch_lata": (10, 22), "mu_baba": (27, 22)})
    assert W.hidden(state, "ch_lata", "mu_baba") == 0


def test_completely_hidden_is_no_target():
    """Línea de visión: a model wholly behind scenery is not a valid target."""
    state = arena(keep={"ch_lata": (50, 5), "mu_baba": (50, 33)})
    assert W.hidden(state, "ch_lata", "mu_baba") == 9
    activate(state, "ch_lata")
    assert not any(a.id.startswith("shoot:") for a in GAME.legal_actions(state, 0))


def test_from_a_roof_the_low_wall_hides_less():
    """Heights: from the 12 cm tower's roof the shooter looks down over the 2 cm wall."""
    state = arena(keep={"ch_lata": (67, 57), "mu_baba": (33, 55)})
    state.models["ch_lata"]["roof"] = "torre"
    assert W.hidden(state, "ch_lata", "mu_baba") < 5


def test_laser_vision_ignores_cover():
    """Visión laser: the bearer ignores all cover of the enemy."""
    state = arena(keep={"ch_tuerca": (20, 55), "mu_baba": (33, 55)})
    activate(state, "ch_tuerca")        # ganger, weapon skill 4, laser vision
    assert ws_of_shot(state, "shoot:mu_baba:shotgun", 1, 6) == 4


def test_a_huge_target_gets_no_cover():
    """Cosa enorme: huge models cannot benefit from cover."""
    state = arena(keep={"ch_lata": (20, 55), "mu_baba": (33, 55)})
    state.models["mu_baba"]["skills"] = ["huge"]
    activate(state, "ch_lata")
    assert ws_of_shot(state, "shoot:mu_baba:laser_rifle", 1, 6) == 3
