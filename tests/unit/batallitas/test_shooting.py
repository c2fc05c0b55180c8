"""Shooting resolution (Shooting: Firing One Shot, Empty and Obstructed Cells, Rate of Fire,
Shooting Restrictions, Cover, Jamming and Unjamming, Limited Ammunition; Pupae; Automatic pupae;
Armour; knack Precision; Alert Shot), every position built directly, dice scripted."""

import pytest

from partida.engine import IllegalAction, LocalRng
from partida.games.batallitas import shooting as F
from partida.games.batallitas.world import field_of

from .positions import ScriptedRng, acting, game_position, ids

OPEN = ["........"] * 8
BEHIND_SOFA = ["........", "........", "...n....", "........",
               "........", "........", "........", "........"]


def fire_ids(game, s):
    return [a for a in ids(game, s) if a.startswith(("fire:", "shot:"))]


def test_dice_are_shooting_minus_long_range_minus_cover_plus_pajara():
    """Firing One Shot: Shooting dice, one fewer at long range; Cover: one fewer behind a minor
    obstruction the line crosses; The Pájara: one more against a nose with one."""
    game, s = game_position(BEHIND_SOFA, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 1), "S"),
                                          "s0.2": ((6, 0), "S")})
    f, fan, smg = field_of(s), s.nose("s2.1"), F.weapon("smg")
    assert F.shot_dice(s, f, fan, (3, 1), alert=False, w=smg) == (2 - 1, True)  # cover
    assert F.shot_dice(s, f, fan, (6, 0), alert=False, w=smg) == (2 - 1, False)  # 7 > 6: long
    s.nose("s0.2").pajara = True
    assert F.shot_dice(s, f, fan, (6, 0), alert=False, w=smg) == (2 - 1 + 1, False)
    assert F.shot_dice(s, f, fan, (6, 0), alert=True, w=smg) == (1, False)  # alert: -1


def test_no_dice_means_no_shot():
    """Dice modifiers: at zero dice the roll is not made (RULES.md: such a shot is not legal)."""
    game, s = game_position(["........", "...n...."] + ["........"] * 6,
                            {"s2.1": ((3, 7), "N"), "s0.1": ((3, 0), "S")})
    acting(s, "s2.1")
    # 7 cells: long (-1), behind the sofa (-1): 2 - 2 = 0 dice.
    assert F.refusal(s, field_of(s), s.nose("s2.1"), F.weapon("smg"), (3, 0)) == \
        "no dice left to roll"
    assert "fire:smg:3,0" not in ids(game, s)


def test_a_success_rolls_pupae_and_kills_at_zero():
    """Firing One Shot (success), Pupae: each 5+ on the weapon's pupae dice is a pupa; at zero
    the nose is out. The shot costs 2 points (short or long weapon)."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 2), "S"),
                                   "s2.2": ((0, 7), "N"), "s0.2": ((7, 0), "S")})
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(5, 1, 3, 6, 5))
    assert s.nose("s0.1").status == "dead" and s.nose("s2.1").spent == 2
    assert s.burst is not None and s.burst["left"] == 1  # the burst's second shot is left


def test_a_critical_adds_an_automatic_pupa():
    """Firing One Shot (critical) and Automatic pupae: a hit with a 6 on the infernal die adds a
    pupa to those rolled."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 2), "S"),
                                   "s0.2": ((7, 0), "S")})
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(6, 2, 6, 1, 2))
    assert s.nose("s0.1").pupae == 1


def test_a_screw_up_jams_and_unjamming_costs_three():
    """Firing One Shot (screw-up), Jamming and Unjamming: the weapon jams, the burst ends, it
    cannot fire until 3 points clear it."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 2), "S"),
                                   "s0.2": ((7, 0), "S")})
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(2, 4, 1))
    fan = s.nose("s2.1")
    assert fan.jammed == ["smg"] and s.burst is None and not fire_ids(game, s)
    game.apply(s, 1, "unjam:smg", LocalRng(0))
    assert fan.jammed == [] and fan.spent == 5


def test_a_plain_miss_does_nothing():
    """Firing One Shot (failure): no hit, no jam."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 2), "S"),
                                   "s0.2": ((7, 0), "S")})
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(2, 4, 5))
    assert s.nose("s0.1").pupae == 2 and s.nose("s2.1").jammed == []


def test_the_books_burst_example():
    """Rate of Fire, example of a burst: RoF 3; the first shot at B, the second at an empty cell
    next to B (lost), the third at C next to the second; C was not next to B."""
    game, s = game_position(OPEN, {"s0.3": ((3, 7), "N"), "s2.1": ((2, 2), "S"),
                                   "s2.2": ((4, 2), "S")})
    acting(s, "s0.3")
    miss = (2, 2, 3)
    game.apply(s, 0, "fire:cannon:2,2", ScriptedRng(*miss))
    after_b = fire_ids(game, s)
    assert "shot:3,2" in after_b and "shot:2,2" in after_b and "shot:4,2" not in after_b
    game.apply(s, 0, "shot:3,2", ScriptedRng(*miss))
    assert "shot:4,2" in fire_ids(game, s)
    game.apply(s, 0, "shot:4,2", ScriptedRng(*miss))
    cannon = s.nose("s0.3")
    assert s.burst is None and cannon.ammo["cannon"] == 12 - 3 and cannon.spent == 3


def test_the_first_shot_may_go_at_an_empty_cell_though_only_enemies_are_listed():
    """Empty and Obstructed Cells: any cell in arc, sight and range may be shot."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    assert fire_ids(game, s) == ["fire:smg:3,2"]
    game.apply(s, 1, "fire:smg:5,3", ScriptedRng(6, 6, 3))  # a "hit" on nothing
    assert s.nose("s0.1").pupae == 2
    game.apply(s, 1, "stop", LocalRng(0))
    with pytest.raises(IllegalAction):  # beside the shooter: outside the arc
        game.apply(s, 1, "fire:smg:0,7", LocalRng(0))


def test_a_leader_may_be_shot_only_as_the_nearest_enemy():
    """Shooting Restrictions, Rule number 3: a leader is a target only when it is the shooter's
    nearest enemy (ties allow it, RULES.md decision)."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.0": ((3, 2), "S"),
                                   "s0.1": ((4, 5), "S")})
    s.nose("s2.1").flaws.remove("hate")  # about shooting: no hateful charge at the Macute
    acting(s, "s2.1")
    assert fire_ids(game, s) == ["fire:smg:4,5"]
    s.nose("s0.1").pos = [5, 2]
    assert fire_ids(game, s) == ["fire:smg:3,2", "fire:smg:5,2"]  # both five cells away


def test_only_short_weapons_fire_at_an_adjacent_nose():
    """Shooting Restrictions: an adjacent nose may be shot only with a short weapon."""
    game, s = game_position(OPEN, {"s0.0": ((3, 4), "N"), "s0.1": ((4, 4), "N"),
                                   "s2.1": ((3, 3), "S")})
    acting(s, "s0.1")
    assert "fire:smg:3,3" not in ids(game, s)
    acting(s, "s0.0")
    assert "fire:pistol:3,3" in ids(game, s)


def test_no_shot_out_of_arc_beyond_double_range_or_without_sight():
    """Line of Sight (frontal arc; blocked by noses), Range (impossible beyond double)."""
    rows = ["." * 16, "." * 16, "." * 16]
    game, s = game_position(rows, {"s0.0": ((0, 1), "E"), "s2.1": ((9, 1), "W"),
                                   "s2.2": ((0, 0), "W"), "s2.3": ((3, 1), "W")})
    acting(s, "s0.0")
    pistol = F.weapon("pistol")
    f = field_of(s)
    assert F.refusal(s, f, s.nose("s0.0"), pistol, (9, 1)) == "out of range"  # 9 > 2 x 4
    assert F.refusal(s, f, s.nose("s0.0"), pistol, (0, 0)) == \
        "the target is outside the frontal arc"
    s.nose("s2.1").pos = [6, 1]
    assert F.refusal(s, field_of(s), s.nose("s0.0"), pistol, (6, 1)) == "no line of sight"


def test_armour_takes_a_pupae_die():
    """Kevlar: one pupae die fewer against short and long weapons; Metakevlar: against all."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((3, 2), "S")})
    fan, macute = s.nose("s2.1"), s.nose("s0.1")
    smg, cannon = F.weapon("smg"), F.weapon("cannon")
    assert F.pupae_dice(s, fan, smg, macute, cover=False) == 2  # a backpack stops nothing
    macute.armour = "kevlar"
    assert F.pupae_dice(s, fan, smg, macute, cover=True) == 0
    assert F.pupae_dice(s, fan, cannon, macute, cover=False) == 4
    macute.armour = "metakevlar"
    assert F.pupae_dice(s, fan, cannon, macute, cover=False) == 3


def test_magazines_run_out_and_are_changed():
    """Limited Ammunition: heavy weapons count shots, not bursts; an empty weapon cannot fire;
    changing the magazine is two generic actions (4 points, RULES.md) while a spare lasts."""
    game, s = game_position(OPEN, {"s0.3": ((3, 7), "N"), "s2.1": ((3, 2), "S")})
    acting(s, "s0.3")
    cannon = s.nose("s0.3")
    cannon.ammo["cannon"] = 1
    game.apply(s, 0, "fire:cannon:3,2", ScriptedRng(2, 2, 3))
    assert s.burst is None and cannon.ammo["cannon"] == 0 and not fire_ids(game, s)
    s.squads[0].pool_spent, cannon.spent, cannon.group = 0, 0, None  # a fresh phase (clumsy)
    game.apply(s, 0, "reload:cannon", LocalRng(0))
    assert cannon.ammo["cannon"] == 12 and cannon.spares["cannon"] == 0 and cannon.spent == 4
    cannon.ammo["cannon"] = 3
    assert "reload:cannon" not in ids(game, s)  # no spare left


def test_precision_adds_a_shot_to_short_and_long_weapons():
    """Precision: +1 rate of fire with short or long weapons, not heavy ones."""
    game, s = game_position(OPEN, {"s2.0": ((3, 7), "N")})
    dj = s.nose("s2.0")
    assert F.rate_of_fire(dj, F.weapon("smg")) == 3
    assert F.rate_of_fire(dj, F.weapon("cannon")) == 3
    assert F.rate_of_fire(dj, F.weapon("smg"), alert=True) == 1


def test_no_shooting_at_ones_own_side():
    """RULES.md decision: a cell holding a friendly nose is not a target."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s2.2": ((3, 3), "S")})
    acting(s, "s2.1")
    with pytest.raises(IllegalAction):
        game.apply(s, 1, "fire:smg:3,3", LocalRng(0))


# --- alert --------------------------------------------------------------------------------

def alert_position():
    """A Macute on alert looking south down a column; a Fan acts in front of it."""
    return game_position(OPEN, {"s0.1": ((3, 0), "S"), "s2.1": ((3, 6), "N"),
                                "s2.2": ((0, 7), "E"), "s0.2": ((7, 7), "N")})


def test_an_enemy_action_in_sight_offers_the_alert_nose_a_shot():
    """Alert Shot: a nose on alert may fire, for free, at an enemy in arc and sight that acts;
    the decision goes to the alert nose's side, holding fire by default."""
    game, s = alert_position()
    s.nose("s0.1").alert = True
    acting(s, "s2.1")
    s.nose("s0.1").alert = True
    game.apply(s, 1, "move:3,5", LocalRng(0))
    assert game.to_act(s) == (0,) and ids(game, s) == ["hold", "alert:s0.1:smg"]
    assert game.default_action(s, 0) == "hold"
    # One die (2 - 1 on alert) plus the infernal; two pupae dice kill the Fan.
    game.apply(s, 0, "alert:s0.1:smg", ScriptedRng(5, 3, 5, 6))
    assert s.nose("s2.1").status == "dead" and s.nose("s0.1").alert
    assert game.to_act(s) == (1,) and s.active_nose is None and "act:s2.2" in ids(game, s)


def test_alert_shots_only_at_short_range():
    """Alert Shot restrictions: only at short distance."""
    game, s = alert_position()
    s.nose("s2.1").pos = [3, 7]
    acting(s, "s2.1")
    s.nose("s0.1").alert = True
    game.apply(s, 1, "turn:E", LocalRng(0))  # 7 cells: long for the SMG
    assert game.to_act(s) == (1,)


def test_alert_fires_between_the_shots_of_a_burst():
    """Alert Shot: a nose on alert may put its shot between the shots of an enemy's burst."""
    game, s = alert_position()
    acting(s, "s2.1")
    s.nose("s0.1").alert = True
    game.apply(s, 1, "fire:smg:3,0", ScriptedRng(2, 2, 3))  # a miss; one shot left
    assert game.to_act(s) == (0,) and s.burst is not None
    game.apply(s, 0, "hold", LocalRng(0))
    assert game.to_act(s) == (1,) and "shot:3,0" in ids(game, s)


def test_a_screw_up_or_a_hit_ends_the_alert():
    """Alert Shot: the alert ends when the nose screws up a shot or is hit by one."""
    game, s = alert_position()
    acting(s, "s2.1")
    s.nose("s0.1").alert = True
    game.apply(s, 1, "move:3,5", LocalRng(0))
    game.apply(s, 0, "alert:s0.1:smg", ScriptedRng(2, 1))
    assert not s.nose("s0.1").alert and s.nose("s0.1").jammed == ["smg"]
    s.nose("s0.1").alert, s.nose("s0.1").jammed = True, []
    game.apply(s, 1, "fire:smg:3,0", ScriptedRng(5, 2, 3, 1, 1))
    assert not s.nose("s0.1").alert and s.nose("s0.1").pupae == 2
