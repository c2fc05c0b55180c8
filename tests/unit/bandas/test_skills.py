"""Skills (Rulebook, Habilidades mecánicas, de mutación, místicas). Mechanised legs, laser
vision, huge's movement and cover, gelatinous body are in test_movement / test_sight /
test_falls; winged, ace driver, mechanic and marksman in test_vehicles."""

import pytest

from partida.engine import IllegalAction
from partida.games.bandas import combat as C

from .positions import GAME, ScriptedRng, act, activate, arena, kinds, of


def duel(attacker="ch_lata", defender="mu_baba", gap=2.8, a_skills=None, d_skills=None):
    state = arena(keep={attacker: (60, 80), defender: (60 + gap, 80)})
    if a_skills is not None:
        state.models[attacker]["skills"] = a_skills
    if d_skills is not None:
        state.models[defender]["skills"] = d_skills
    return state


def test_bionic_arm_adds_to_the_melee_weapon():
    """Brazo biónico: +1 weapon skill in melee, added to a laser weapon's +1."""
    state = duel("mu_sarna", "ch_lata", a_skills=["bionic_arm"])
    activate(state, "mu_sarna")
    assert of(act(state, "fight:ch_lata:laser_melee", 1, 6), "attack_roll")[0]["ws"] == 5 + 2


def test_assault_armour_improves_the_save():
    """Armadura de asalto: +1 to the bearer's save."""
    state = duel(d_skills=["assault_armour"])
    assert C.save_needed(state, "mu_baba", 0) == 5


def test_poison_injector_lowers_pericia_in_the_first_turn_of_the_fight():
    """Inyector de veneno: −1 to the opponent's pericia during the first turn of combat."""
    state = duel("mu_sarna", "ch_lata")
    activate(state, "mu_sarna")
    assert of(act(state, "fight:ch_lata:laser_melee", 1, 6), "attack_roll")[0]["pericia"] == 1
    state.turn += 1
    assert of(act(state, "fight:ch_lata:laser_melee", 1, 6), "attack_roll")[0]["pericia"] == 2


@pytest.mark.parametrize(("face", "status"), [(1, "standing"), (4, "standing"), (5, "out")])
def test_regenerative_skin_only_goes_out_of_action(face, status):
    """Piel regenerativa: knocked down and stunned do not apply to it."""
    state = duel(d_skills=["regenerative_skin"])
    C.wound(state, "mu_baba", ScriptedRng(face), [])
    assert state.models["mu_baba"]["status"] == status


def test_mimetic_skin_asks_the_shooter_for_a_check_first():
    """Piel mimética: to shoot at it the shooter must first pass a pericia check."""
    state = duel(gap=10, d_skills=["mimetic_skin"])
    activate(state, "ch_lata")                      # henchman, pericia 2
    ev = act(state, "shoot:mu_baba:laser_rifle", 3)
    assert of(ev, "pericia_check")[0]["passed"] is False and "attack_roll" not in kinds(ev)
    ev = act(state, "shoot:mu_baba:laser_rifle", 4, 2, 1, 6)   # ammo 4+, check 2 passes
    assert "attack_roll" in kinds(ev)


def test_acid_blood_hits_back_whoever_hits_it_in_melee():
    """Sangre ácida: hit in melee, it gives its attacker a hit."""
    state = duel(d_skills=["acid_blood"])
    activate(state, "ch_lata")
    ev = act(state, "fight:mu_baba:chain_hook", 6, 1, 1, 5, 1, 5, 1,  # hit, no parry, save
             4, 2)                                                      # fails, down; lata's
    assert "acid_blood" in kinds(ev)                                    # save fails, down;
    assert state.models["ch_lata"]["status"] == "down"                  # both lie: new turn


def test_the_amulet_ignores_one_out_of_action():
    """Amuletos: one out-of-action result ignored per match."""
    state = duel("ch_pico", "mu_baba")                                 # Pico wears an amulet
    C.wound(state, "ch_pico", ScriptedRng(6), [])
    assert state.models["ch_pico"]["status"] == "standing"
    C.wound(state, "ch_pico", ScriptedRng(6), [])
    assert state.models["ch_pico"]["status"] == "out"


def test_the_invisibility_cloak_cannot_be_shot_from_under_20_cm():
    """Capa de invisibilidad."""
    state = duel(gap=15, d_skills=["invisibility_cloak"])
    activate(state, "ch_lata")
    with pytest.raises(IllegalAction, match="cloak"):
        GAME.validate(state, 0, "shoot:mu_baba:laser_rifle")
    state.models["mu_baba"]["x"] = 81.0
    GAME.validate(state, 0, "shoot:mu_baba:laser_rifle")


def test_drugs_passed_give_the_bonus_for_the_activation_failed_knock_down():
    """Drogas para todos: once per turn, a pericia check: +1 weapon skill (or pericia, or
    +5 cm) for the activation; failed, knocked down even with regenerative skin."""
    state = duel("ch_jefa", "mu_baba", gap=15)
    activate(state, "ch_jefa")
    act(state, "drugs:ws", 4)
    assert state.active["actions"] == 3                      # a free action
    assert of(act(state, "shoot:mu_baba:light_auto", 1, 6), "attack_roll")[0]["ws"] == 6
    with pytest.raises(IllegalAction):
        GAME.validate(state, 0, "drugs:move")
    state = duel("ch_jefa", "mu_baba", gap=15)
    state.models["ch_jefa"]["skills"] = ["drugs", "regenerative_skin"]
    activate(state, "ch_jefa")
    ev = act(state, "drugs:move", 5)
    assert state.models["ch_jefa"]["status"] == "down" and "activation_over" in kinds(ev)


def test_a_netted_model_cannot_move_at_its_next_activation():
    """Lanza redes telemétrico: used in melee to hold an enemy; then it reloads."""
    state = duel(a_skills=["net_launcher"])
    activate(state, "ch_lata")
    act(state, "fight:mu_baba:net", 6, 1)
    assert state.models["mu_baba"]["netted"]
    assert not any(a.id.endswith(":net") for a in GAME.legal_actions(state, 0))
    activate(state, "mu_baba")
    assert not any(a.id.startswith("move:") for a in GAME.legal_actions(state, 1))


def test_huge_hits_harder_in_melee():
    """Cosa enorme: +1 weapon skill in melee and −1 to the enemy's save in melee."""
    state = duel("mu_grumo", "ch_jefa", d_skills=[])
    state.models["mu_grumo"]["skills"] = ["huge"]
    state.models["ch_jefa"]["weapons"] = ["light_auto"]
    activate(state, "mu_grumo")
    ev = act(state, "fight:ch_jefa:two_hand_weapons", 6, 1, 6, 1, 6)
    assert of(ev, "attack_roll")[0]["ws"] == 5 + 1
    assert of(ev, "save")[0]["needed"] == 5 + 1


def test_drugs_for_movement_add_five_centimetres_to_each_move():
    """Drogas para todos: +5 cm to its move actions for the activation."""
    state = duel("ch_jefa", "mu_baba", gap=40)
    activate(state, "ch_jefa")                          # 15 cm with mechanised legs
    act(state, "drugs:move", 2)
    GAME.validate(state, 0, "move:79.9,80.0")           # 19.9 cm
    with pytest.raises(IllegalAction):
        GAME.validate(state, 0, "move:80.2,80.0")
