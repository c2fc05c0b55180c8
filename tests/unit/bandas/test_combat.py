"""Resolution, wounds, saves, ammunition (Rulebook, Disparo y cuerpo a cuerpo; Disparos; Cuerpo
a cuerpo; Heridas; Chequeo de pericia; Armamento, blindaje y chequeo de munición; Blindajes)."""

import pytest

from partida.engine import IllegalAction
from partida.games.bandas import combat as C

from .positions import GAME, ScriptedRng, act, activate, arena, kinds, of


def open_ground(**extra):
    return arena(keep={"ch_lata": (60, 80), "ch_jefa": (50, 80), "ch_pico": (40, 80),
                       "ch_tuerca": (30, 80), "mu_baba": (80, 80), "mu_grumo": (75, 85),
                       **extra})


def test_a_tie_misses_and_only_a_higher_total_hits():
    """Disparo y cuerpo a cuerpo: d6 + weapon skill must beat d6 + pericia."""
    state = open_ground()
    activate(state, "ch_lata")                                   # henchman: weapon skill 3
    ev = act(state, "shoot:mu_baba:laser_rifle", 2, 3)           # 5 against 3 + 2: a tie
    assert of(ev, "attack_roll")[0]["hit"] is False and "wound" not in kinds(ev)
    ev = act(state, "shoot:mu_baba:laser_rifle", 4, 4, 3, 5, 1)  # ammo 4+; 4+3-1 > 3+2: hit
    assert of(ev, "attack_roll")[0]["hit"] is True
    assert of(ev, "save") == [{"model": "mu_baba", "roll": 5, "needed": 6, "saved": False}]
    assert state.models["mu_baba"]["status"] == "down"


def test_each_shot_after_the_first_is_one_worse_and_the_second_checks_ammunition():
    """Disparos: −1, −2 on the second and third shots; Armamento: two or more shots declared
    call for one ammunition check on 4+."""
    state = open_ground()
    activate(state, "ch_jefa")                                   # veteran, 3 actions, WS 5
    ws = []
    for faces in ((1, 6), (4, 1, 6), (1, 6)):
        ev = act(state, "shoot:mu_grumo:light_auto", *faces)
        ws.append(of(ev, "attack_roll")[0]["ws"])
    assert ws == [5, 4, 3]


def test_a_failed_ammunition_check_loses_the_shot_and_the_next_activation_reloads():
    state = open_ground()
    activate(state, "ch_jefa")
    act(state, "shoot:mu_grumo:light_auto", 1, 6)
    ev = act(state, "shoot:mu_grumo:light_auto", 3)             # the check fails: no shot
    assert of(ev, "ammo_check")[0]["passed"] is False and "attack_roll" not in kinds(ev)
    assert not any(a.id.startswith("shoot:") for a in GAME.legal_actions(state, 0))
    act(state, "end")
    state.models["ch_jefa"]["activated"] = False
    activate(state, "ch_jefa")
    assert state.active["no_shoot"]
    with pytest.raises(IllegalAction, match="reloading"):
        GAME.validate(state, 0, "shoot:mu_grumo:light_auto")
    act(state, "end")
    state.models["ch_jefa"]["activated"] = False
    activate(state, "ch_jefa")                                   # reloaded
    GAME.validate(state, 0, "shoot:mu_grumo:light_auto")


@pytest.mark.parametrize(("face", "status"), [(1, "down"), (2, "down"), (3, "stunned"),
                                              (4, "stunned"), (5, "out"), (6, "out")])
def test_wound_table(face, status):
    """Heridas: 1-2 knocked down, 3-4 stunned, 5-6 out of action."""
    state = open_ground()
    C.wound(state, "mu_baba", ScriptedRng(face), [])
    assert state.models["mu_baba"]["status"] == status


def test_armour_saves_and_weapons_that_reduce_them():
    """Blindajes: composite saves on 5+; Armamento: a −1 weapon makes it 6+, and an improvised
    6+ save against it is lost (the book's own example)."""
    state = open_ground()
    assert C.save_needed(state, "mu_grumo", 0) == 5
    assert C.save_needed(state, "mu_grumo", 1) == 6
    assert C.save_needed(state, "mu_baba", 1) is None
    assert C.save_needed(state, "ch_pico", 0) is None            # no armour, no save
    activate(state, "ch_tuerca")                                 # piercing shotgun
    state.models["mu_grumo"].update(x=45.0, y=80.0)
    ev = act(state, "shoot:mu_grumo:shotgun", 6, 1, 5, 1)
    assert of(ev, "save")[0] == {"model": "mu_grumo", "roll": 5, "needed": 6, "saved": False}


def test_a_downed_model_charged_goes_to_stunned_unless_it_saves_then_out():
    """Heridas (RULES.md: 'charged' is being attacked in melee; the stunned paragraph's second
    'downed' read as stunned)."""
    state = open_ground(mu_baba=(42.8, 80))
    state.models["mu_baba"]["status"] = "down"
    activate(state, "ch_pico")
    ev = act(state, "fight:mu_baba:spear", 3)                    # its improvised save fails
    assert "attack_roll" not in kinds(ev) and state.models["mu_baba"]["status"] == "stunned"
    ev = act(state, "fight:mu_baba:spear", 6)                    # saved: stays stunned
    assert state.models["mu_baba"]["status"] == "stunned"
    state.models["ch_pico"]["activated"] = False
    activate(state, "ch_pico")
    act(state, "fight:mu_baba:spear", 2)
    assert state.models["mu_baba"]["status"] == "out"


def test_a_stunned_model_spends_its_activation_becoming_down():
    """Heridas (RULES.md): stunned, its next activation only brings it to knocked down."""
    state = open_ground()
    state.models["ch_pico"]["status"] = "stunned"
    ev = activate(state, "ch_pico")
    assert state.models["ch_pico"]["status"] == "down" and "activation_over" in kinds(ev)


@pytest.mark.parametrize(("face", "passed"), [(1, True), (3, True), (4, False)])
def test_pericia_check_is_at_or_under(face, passed):
    """Chequeo de pericia: a d6 equal to or under the pericia passes (a ganger's is 3)."""
    state = open_ground()
    assert C.check(state, "ch_pico", ScriptedRng(face), [], "test") is passed
