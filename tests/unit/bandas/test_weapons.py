"""Every weapon's rule (Rulebook, Armamento de distancia; Armas de combate cuerpo a cuerpo)."""

import pytest

from partida.games.bandas import actions as A

from .positions import act, activate, arena, kinds, of


def ground(**placed):
    return arena(keep=placed)


def test_two_pistols_give_two_shots_in_one_action():
    """Pistolas: two pistols, two shots (the second at −1 and with the ammunition check)."""
    state = ground(ch_pico=(60, 80), mu_baba=(68, 80))
    activate(state, "ch_pico")
    ev = act(state, "shoot:mu_baba:pistol", 1, 6, 4, 1, 6)
    assert [r["ws"] for r in of(ev, "attack_roll")] == [4, 3]
    assert len(of(ev, "ammo_check")) == 1 and state.active["actions"] == 1


def test_pistols_reach_ten_centimetres():
    state = ground(ch_pico=(60, 80), mu_baba=(70.5, 80))
    activate(state, "ch_pico")
    assert "out of range" in A.shoot_problem(state, "ch_pico", "mu_baba", "pistol")


def test_laser_rifle_is_better_under_ten_centimetres():
    """Rifles laser: +1 weapon skill under 10 cm."""
    state = ground(ch_lata=(60, 80), mu_baba=(68, 80))
    activate(state, "ch_lata")
    assert of(act(state, "shoot:mu_baba:laser_rifle", 1, 6), "attack_roll")[0]["ws"] == 3 + 1


def test_pulse_bazooka_hits_an_area_then_reloads():
    """Bazuka de pulsos: 3 cm area; the model then reloads through its next activation."""
    state = ground(ch_lata=(60, 80), mu_baba=(80, 80), mu_grumo=(82.5, 80), mu_ojo=(86, 80))
    state.models["ch_lata"]["weapons"] = ["pulse_bazooka"]
    activate(state, "ch_lata")
    ev = act(state, "shoot:mu_baba:pulse_bazooka", 1, 6, 1, 6)
    assert [r["target"] for r in of(ev, "attack_roll")] == ["mu_baba", "mu_grumo"]
    assert state.active["ammo_out"] and state.models["ch_lata"]["reload"] == "due"


def test_scatter_shotgun_gives_targets_plus_one_pericia_and_checks_ammunition():
    """Escopetas, dispersión: 2 cm area, +1 pericia to those attacked, ammunition check."""
    state = ground(mu_baba=(75, 80), ch_lata=(60, 80))
    activate(state, "mu_baba")
    ev = act(state, "shoot:ch_lata:shotgun", 1, 6, 5)
    assert of(ev, "attack_roll")[0]["pericia"] == 2 + 1
    assert of(ev, "ammo_check")[0]["passed"] is True


def test_pulse_rifle_pushes_the_target_straight_back():
    """Rifle de pulsos: a hit also pushes the target 1d6 cm directly away from the shooter."""
    state = ground(ch_lata=(60, 80), mu_baba=(70, 80))
    state.models["ch_lata"]["weapons"] = ["pulse_rifle"]
    activate(state, "ch_lata")
    ev = act(state, "shoot:mu_baba:pulse_rifle", 6, 1, 5, 1, 4, 4)  # hit, save fails, down,
    assert of(ev, "pushed")[0]["to"] == [74.0, 80.0]                # 4 cm back; ammo 4+


def test_two_hand_weapons_give_two_blows_the_second_at_minus_one():
    """Dos armas de mano: two attacks (Cuerpo a cuerpo: the second at −1)."""
    state = ground(mu_grumo=(60, 80), ch_lata=(62.8, 80))
    activate(state, "mu_grumo")
    ev = act(state, "fight:ch_lata:two_hand_weapons", 1, 6, 1, 6)
    assert [r["ws"] for r in of(ev, "attack_roll")] == [5, 4]


def test_two_handed_weapon_lowers_the_save_laser_weapon_raises_the_skill():
    """Armas a dos manos: −1 to the defender's save; Armas laser: +1 weapon skill."""
    state = ground(mu_sarna=(60, 80), ch_jefa=(62.8, 80))
    state.models["ch_jefa"]["weapons"] = ["light_auto"]       # no sabre to parry with
    activate(state, "mu_sarna")                     # animal, weapon skill 5
    ev = act(state, "fight:ch_jefa:two_handed", 6, 1, 6)        # hit; a 6 still saves
    assert of(ev, "save")[0]["needed"] == 5 + 1
    ev = act(state, "fight:ch_jefa:laser_melee", 1, 6)
    assert of(ev, "attack_roll")[0]["ws"] == 5 + 1 - 1     # laser +1, second blow −1


def test_a_charged_spear_strikes_first():
    """Lanza: always strikes first (RULES.md: once, at the model that charges it)."""
    state = ground(mu_baba=(60, 80), ch_pico=(62.8, 80))
    activate(state, "mu_baba")
    ev = act(state, "fight:ch_pico:sabre", 6, 1, 3, 3, 3)  # the spear hits (no parry): Baba stunned
    assert kinds(ev)[:2] == ["spear_strikes_first", "attack_roll"]
    assert state.models["mu_baba"]["status"] == "stunned" and "blow" not in kinds(ev)


def test_sabre_parries_on_a_six():
    """Sables: after a hit, a 6 on a d6 parries it."""
    state = ground(ch_lata=(60, 80), mu_baba=(62.8, 80))
    activate(state, "ch_lata")
    ev = act(state, "fight:mu_baba:chain_hook", 6, 1, 6)
    assert of(ev, "parry")[0]["parried"] and "wound" not in kinds(ev)


def test_a_push_stops_at_a_wall():
    """Rifle de pulsos (RULES.md falls: a pushed model stopped by a wall stays there)."""
    state = ground(ch_lata=(20, 55), mu_baba=(28, 55))
    state.models["ch_lata"]["weapons"] = ["pulse_rifle"]
    activate(state, "ch_lata")
    ev = act(state, "shoot:mu_baba:pulse_rifle", 6, 1, 5, 1, 6, 4)   # 6 cm east: the wall
    assert of(ev, "pushed")[0]["to"][0] == pytest.approx(29.9)       # at x 30
