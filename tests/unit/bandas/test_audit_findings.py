"""Divergences from the rulebook found in an audit, each checked on a position built directly
(Rulebook sections cited by their Spanish headings; see RULES.md)."""

from partida.games.bandas import attacks as K

from .positions import GAME, act, activate, arena, kinds, of


def test_laser_rifle_close_bonus_counts_against_vehicles():
    """Rifles laser: the +1 for shooting from under 10 cm depends on the distance only, so it
    also applies when the target is a vehicle (measured to its footprint, as its range is)."""
    state = arena("convoy_ambush", keep={"em_vigia": (50, 40)},
                  vehicles={"ca_camion": (50, 48, 0)})               # 5 cm to the truck's side
    activate(state, "em_vigia")                                      # ganger, weapon skill 4
    ev = act(state, "shoot:ca_camion:laser_rifle", 1, 6)
    assert of(ev, "attack_roll")[0]["ws"] == 4 + 1
    state.vehicles["ca_camion"]["y"] = 60.0                          # 17 cm away: no bonus
    assert K.shoot_modifier(state, "em_vigia", "ca_camion", "laser_rifle", 0) == 0


def test_a_spear_counter_blow_that_hits_acid_blood_burns_the_spear_wielder():
    """Lanza (RULES.md: the charged spear strikes once first) with Sangre ácida: a model with
    acid blood hit in melee hits back whoever hit it, the spear's counter-blow included."""
    state = arena(keep={"mu_grumo": (60, 80), "ch_pico": (62.8, 80)})
    activate(state, "mu_grumo")                                      # acid blood, composite
    ev = act(state, "fight:ch_pico:two_hand_weapons", 6, 1, 1, 1, 1,  # spear hits, save 1
             4, 2)                      # both lie down: nobody is left to act, initiative
    assert kinds(ev)[:5] == ["spear_strikes_first", "attack_roll", "save", "wound",
                             "acid_blood"]
    assert of(ev, "acid_blood") == [{"model": "mu_grumo", "burns": "ch_pico"}]
    assert state.models["mu_grumo"]["status"] == "down"              # wound 1
    assert state.models["ch_pico"]["status"] == "down"               # no armour, wound 1


def test_a_spear_counter_blow_carries_the_poison_injector():
    """Lanza with Inyector de veneno: the charged spear-wielder's blow is in the first turn of
    that combat, so the charger defends at −1 pericia."""
    state = arena(keep={"mu_baba": (60, 80), "ch_pico": (62.8, 80)})
    state.models["ch_pico"]["skills"] = ["poison_injector"]
    activate(state, "mu_baba")                                       # henchman, pericia 2
    ev = act(state, "fight:ch_pico:sabre", 1, 6, 1, 6)               # both miss
    counter, blow = of(ev, "attack_roll")
    assert counter["attacker"] == "ch_pico" and counter["pericia"] == 2 - 1
    assert blow["attacker"] == "mu_baba"


def test_the_amulet_cancels_the_out_of_action_of_a_stunned_model_charged():
    """Amuletos with Heridas (RULES.md 'charged'): a stunned model attacked in melee goes out
    of action unless it saves; the amulet ignores one out of action per match, this one too."""
    state = arena(keep={"mu_baba": (60, 80), "ch_pico": (62.8, 80)})  # Pico: amulet, no armour
    state.models["ch_pico"]["status"] = "stunned"
    activate(state, "mu_baba")
    ev = act(state, "fight:ch_pico:sabre")                           # no roll, no save
    assert of(ev, "charged_while_down") == [{"model": "ch_pico", "now": "stunned"}]
    assert state.models["ch_pico"]["amulet_used"] is True
    act(state, "fight:ch_pico:sabre")                                # the amulet is spent
    assert state.models["ch_pico"]["status"] == "out"


def test_a_sabre_parries_the_spear_counter_blow():
    """Lanza with Sables: the charger's sabre may parry any blow that hits it, the charged
    spear's counter-blow too (a 6 parries)."""
    state = arena(keep={"mu_baba": (60, 80), "ch_pico": (62.8, 80)})
    activate(state, "mu_baba")                                       # carries a sabre
    ev = act(state, "fight:ch_pico:sabre", 6, 1, 6, 1, 6)            # spear hits, parried;
    assert of(ev, "parry") == [{"model": "mu_baba", "roll": 6, "parried": True}]
    assert "wound" not in kinds(ev) and state.models["mu_baba"]["status"] == "standing"
    assert [r["attacker"] for r in of(ev, "attack_roll")] == ["ch_pico", "mu_baba"]


def test_a_netted_driver_holds_its_vehicle_still_for_one_activation():
    """Lanza redes telemétrico (RULES.md: a netted model takes no move action at its next
    activation; drivers act through their vehicle's): the vehicle of a netted driver does not
    drive at its next activation, and the net is then spent."""
    state = arena("convoy_ambush", keep={"em_rata": (65, 40)},
                  vehicles={"ca_camion": (30, 45, 0)})
    state.models["ca_ruedas"]["netted"] = True                       # the truck's driver
    activate(state, "ca_camion")
    assert state.active["no_move"] and state.models["ca_ruedas"]["netted"] is False
    assert [a.id for a in GAME.legal_actions(state, 0)] == ["end"]
    act(state, "end")
    state.vehicles["ca_camion"]["activated"] = False
    activate(state, "ca_camion")
    assert not state.active["no_move"]
