"""Dice rolls, the infernal die and dice modifiers (Basic Game Concepts)."""

from partida.games.batallitas.dice import Roll, pool, roll

from .positions import ScriptedRng


def test_a_roll_succeeds_on_any_five_or_six():
    """Dice rolls: dice are read one by one; one 5+ is enough, all 4 or less fail."""
    assert Roll((4, 3, 5)).success and Roll((6,)).success
    assert not Roll((4, 4, 1)).success


def test_pupae_rolls_count_every_success():
    """Pupae: every 5+ on a pupae roll is one pupa."""
    assert Roll((5, 6, 2, 5)).successes == 3


def test_infernal_six_on_a_success_is_a_critical():
    """The infernal die: 6 with a successful roll is a critical; the die itself never hits."""
    r = roll(ScriptedRng(1, 5, 6), 2, infernal=True)
    assert r == Roll((1, 5), 6) and r.critical and not r.screw_up
    assert not Roll((4, 4), 6).critical and not Roll((4, 4), 6).success


def test_infernal_one_on_a_failure_is_a_screw_up():
    """The infernal die: 1 with a failed roll is a screw-up; 2-5 are ignored."""
    assert Roll((4, 2), 1).screw_up
    assert not Roll((6, 2), 1).screw_up  # a success is never a screw-up
    assert not any(Roll((4,), i).screw_up or Roll((5,), i).critical for i in range(2, 6))


def test_only_attack_rolls_throw_the_infernal_die():
    """The infernal die: it is thrown with shooting and close-combat rolls only."""
    assert roll(ScriptedRng(5, 5), 2).infernal is None


def test_modifiers_to_zero_dice_mean_no_roll():
    """Dice modifiers: at zero dice or fewer the roll is not made (and nothing is drawn)."""
    assert pool(2, -1, -1) == 0 and pool(1, -3) == 0 and pool(3, -1, +1) == 3
    rng = ScriptedRng()
    assert roll(rng, pool(2, -1, -1), infernal=True) is None
    assert rng.draws == []
