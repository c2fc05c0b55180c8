"""The hate flaw's forced charge (Flaws: Hate): positions built directly. Fans hate the Tintín
Macutes (Squads: Fans)."""

from partida.engine import LocalRng

from .positions import acting, game_position, ids

OPEN = ["........"] * 8


def test_a_hater_within_three_cells_must_take_a_cheapest_path_towards_its_foe():
    """Within three cells and in sight of a hated nose, the only choices are the first steps
    of the cheapest paths to strike it; nothing else, not even ending the phase."""
    game, s = game_position(OPEN, {"s2.1": ((3, 5), "N"), "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    assert ids(game, s) == ["move:2,4", "move:3,4", "move:4,4"]
    assert game.default_action(s, 1) == "move:2,4"
    game.apply(s, 1, "move:3,4", LocalRng(0))
    assert ids(game, s) == ["move:2,3", "move:3,3", "move:4,3"]


def test_a_hater_cannot_fire_even_at_an_unlisted_cell():
    """The charge leaves no room for shooting: a burst at any cell, listed or not, is refused."""
    import pytest

    from partida.engine import IllegalAction

    game, s = game_position(OPEN, {"s2.1": ((3, 5), "N"), "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    for target in ("3,2", "4,1"):
        with pytest.raises(IllegalAction):
            game.apply(s, 1, f"fire:smg:{target}", LocalRng(0))


def test_a_hater_that_must_turn_first_turns():
    """The cheapest path may begin with a turn: a Fan with its back to the Macute."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "S"), "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    # turning round costs 2 at once or a quarter at a time; stepping round would cost more
    assert ids(game, s) == ["turn:N", "turn:E", "turn:W"]


def test_a_hater_beside_its_foe_must_strike_it():
    """Adjacent and facing it, the hater must attack it in close combat, with any close weapon
    it has, while its points last."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((3, 2), "S"),
                                   "s0.2": ((6, 6), "N")})
    acting(s, "s2.1")
    assert ids(game, s) == ["attack:hand:3,2"]
    s.nose("s2.1").spent = 5  # its points gone: it may stop
    assert "done" in ids(game, s)


def test_the_squad_cannot_skip_a_nose_in_hates_grip():
    """Hate binds at any moment: the squad phase cannot end while one of its noses must charge
    (RULES.md decision); the hater is the default choice."""
    from partida.games.batallitas import turn as T

    game, s = game_position(OPEN, {"s2.1": ((3, 5), "N"), "s2.2": ((6, 7), "N"),
                                   "s0.1": ((3, 2), "S")})
    T.activate(s, s.squads[2], [])
    assert ids(game, s) == ["act:s2.1", "act:s2.2"]
    assert game.default_action(s, 1) == "act:s2.1"


def test_hate_does_not_bind_out_of_reach_out_of_sight_or_with_a_pajara():
    """Beyond three cells, or with no line of sight, nothing binds the Fan; nor when it has a
    pájara (RULES.md decision: it could not strike at the end of the charge)."""
    game, s = game_position(OPEN, {"s2.1": ((3, 6), "N"), "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    assert "done" in ids(game, s) and "fire:smg:3,2" in ids(game, s)
    game, s = game_position(OPEN, {"s2.1": ((3, 5), "N"), "s2.2": ((3, 4), "N"),
                                   "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    assert "done" in ids(game, s)  # its squad mate blocks the sight
    game, s = game_position(OPEN, {"s2.1": ((3, 5), "N"), "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    s.nose("s2.1").pajara = True
    assert "done" in ids(game, s) and "rally" in ids(game, s)


def test_points_shared_by_the_leader_serve_only_the_blows():
    """A hater moves towards its foe on its own points only; its leader's points pay for the
    blows."""
    game, s = game_position(OPEN, {"s2.0": ((7, 7), "N"), "s2.1": ((3, 5), "N"),
                                   "s0.1": ((3, 2), "S")})
    acting(s, "s2.1")
    fan = s.nose("s2.1")
    fan.spent = 5  # its own points are gone; the DJ's pool is untouched
    assert ids(game, s) == ["done"]
    fan.pos, fan.facing = [3, 3], "N"
    assert ids(game, s) == ["attack:hand:3,2"]
