"""Close combat (Close Combat, Tough Enemies, Surprise Attacks, Combat backpack, Chainsaw,
Stunning pupae, The Pájara, Alert Shot endings, Rule number 3), positions built directly."""

from partida.engine import LocalRng
from partida.games.batallitas import combat as C

from .positions import ScriptedRng, acting, game_position, ids

OPEN = ["......"] * 6


def blows(game, s):
    return [a for a in ids(game, s) if a.startswith("attack:")]


def test_a_blow_needs_the_enemy_in_a_front_cell_and_costs_one():
    """Close Combat: adjacent and facing the target, 1 point, Combat dice."""
    game, s = game_position(OPEN, {"s2.1": ((2, 2), "N"), "s0.1": ((3, 1), "S"),
                                   "s0.2": ((2, 3), "N")})
    acting(s, "s2.1")
    assert blows(game, s) == ["attack:hand:3,1"]  # the Macute behind it is out of reach
    game.apply(s, 1, "attack:hand:3,1", ScriptedRng(1, 2, 3, 4))
    assert s.nose("s2.1").spent == 1


def test_a_better_fighter_costs_a_die_and_a_pajara_gives_one():
    """Tough Enemies: one die fewer against a higher Combat; The Pájara: one more against it."""
    game, s = game_position(OPEN, {"s2.1": ((2, 2), "N"), "s0.1": ((2, 1), "S")})
    fan, macute = s.nose("s2.1"), s.nose("s0.1")
    assert C.combat_dice(s, macute, fan) == 2 - 1
    assert C.combat_dice(s, fan, macute) == 3
    macute.pajara = True
    assert C.combat_dice(s, fan, macute) == 4


def test_surprise_from_behind_and_the_backpack():
    """Surprise Attacks: +1 combat die and +1 pupae die against a back turned to the attacker;
    Combat backpack: no extra dice against a Macute."""
    game, s = game_position(OPEN, {"s0.1": ((2, 3), "N"), "s2.1": ((2, 2), "N"),
                                   "s2.2": ((4, 3), "N"), "s0.2": ((4, 2), "N")})
    macute, fan = s.nose("s0.1"), s.nose("s2.1")
    assert C.surprise(macute, fan) and C.combat_dice(s, macute, fan) == 2 - 1 + 1
    assert C.surprise(s.nose("s2.2"), s.nose("s0.2"))
    assert C.combat_dice(s, s.nose("s2.2"), s.nose("s0.2")) == 3  # the backpack
    fan.facing = "E"
    assert not C.surprise(macute, fan)


def test_a_screw_up_from_behind_is_ignored_and_the_defender_may_turn_round():
    """Surprise Attacks: the attacker's screw-up is ignored; the defender may turn to face it
    without paying (a decision for its side, keeping its facing by default)."""
    game, s = game_position(OPEN, {"s0.1": ((2, 3), "N"), "s2.1": ((2, 2), "N"),
                                   "s0.2": ((5, 5), "N")})
    acting(s, "s0.1")
    game.apply(s, 0, "attack:hand:2,2", ScriptedRng(2, 3, 1))
    assert game.to_act(s) == (1,) and ids(game, s) == ["stay", "face"]
    assert game.default_action(s, 1) == "stay"
    game.apply(s, 1, "face", LocalRng(0))
    assert s.nose("s2.1").facing == "S" and s.nose("s0.1").pupae == 2
    assert game.to_act(s) == (0,)


def test_a_screw_up_turns_the_blow_back_on_the_attacker():
    """Close Combat (screw-up): the defender rolls pupae on the attacker with a close weapon it
    carries (RULES.md: its best); Rule number 3: a leader may always be attacked up close."""
    game, s = game_position(OPEN, {"s2.1": ((2, 2), "N"), "s0.0": ((2, 1), "S"),
                                   "s2.2": ((5, 5), "N")})
    acting(s, "s2.1")
    assert blows(game, s) == ["attack:hand:2,1"]
    # Three misses and a 1 on the infernal die; the sergeant's katanote: Muscles 2 + 1 dice.
    game.apply(s, 1, "attack:hand:2,1", ScriptedRng(1, 2, 3, 1, 5, 5, 1))
    assert s.nose("s2.1").status == "dead" and s.nose("s0.0").pupae == 2


def test_the_chainsaw_screw_up_bites_its_wielder():
    """Chainsaw: on a screw-up the wielder rolls the pupae on itself."""
    game, s = game_position(OPEN, {"s2.0": ((2, 2), "N"), "s0.1": ((2, 1), "S"),
                                   "s2.2": ((5, 5), "N")})
    s.nose("s2.0").weapons = ["hand", "smg", "chainsaw"]
    acting(s, "s2.0")
    # Muscles 3 + 2 = five pupae dice on itself: three 5+ take its three pupae.
    game.apply(s, 1, "attack:chainsaw:2,1", ScriptedRng(1, 1, 1, 1, 5, 5, 6, 1, 1))
    assert s.nose("s2.0").status == "dead" and s.nose("s0.1").pupae == 2


def test_a_contusion_blow_gives_pajaras_and_a_second_becomes_a_pupa():
    """Hand weapon (contusion), Stunning pupae, The Pájara: each success is a pájara; a nose
    holds one at most and a second one is a pupa."""
    game, s = game_position(OPEN, {"s2.1": ((2, 2), "N"), "s0.1": ((2, 1), "S")})
    acting(s, "s2.1")
    game.apply(s, 1, "attack:hand:2,1", ScriptedRng(5, 1, 1, 3, 5, 6))
    macute = s.nose("s0.1")
    assert macute.pajara and macute.pupae == 1


def test_being_attacked_ends_the_alert_and_a_pajara_forbids_attacking():
    """Alert Shot: attacked in close combat, the nose leaves its alert; The Pájara: a nose with
    one may not attack."""
    game, s = game_position(OPEN, {"s2.1": ((2, 2), "N"), "s0.1": ((2, 1), "S")})
    acting(s, "s2.1")
    s.nose("s0.1").alert = True
    game.apply(s, 1, "attack:hand:2,1", ScriptedRng(1, 2, 3, 4))
    assert not s.nose("s0.1").alert
    s.nose("s2.1").pajara = True
    assert blows(game, s) == []
