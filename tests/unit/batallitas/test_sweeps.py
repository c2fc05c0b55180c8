"""Sweeping attacks and the mastery knack (Rules: "Sweeping Attacks"; Knacks: Mastery),
positions built directly, dice scripted (ScriptedRng() with no faces: no die may be rolled)."""

from .positions import ScriptedRng, acting, game_position, ids

OPEN = ["........"] * 8
MISS = (2, 2, 2, 3)  # the Lethal Fan's three combat dice and the infernal die, no hit


def blows(ev):
    return [(e.data["target"], e.data["dice"]) for e in ev if e.kind == "blow"]


def test_a_master_sweeps_with_any_weapon_round_to_a_friend_without_penalty():
    """Mastery: any close weapon sweeps, with no die lost; the sweep goes round in the chosen
    direction from a front cell, striking each enemy, and stops at a cell held by a friend."""
    game, s = game_position(OPEN, {"s2.0": ((3, 3), "N"), "s2.1": ((4, 4), "N"),
                                   "s0.1": ((3, 2), "S"), "s0.2": ((4, 3), "W"),
                                   "s0.3": ((2, 3), "E")})
    acting(s, "s2.0")
    listed = ids(game, s)
    assert "sweep:hand:3,2:cw" in listed and "sweep:smg:3,2:cw" not in listed
    ev = game.apply(s, 1, "sweep:hand:3,2:cw", ScriptedRng(*MISS, *MISS))
    assert blows(ev) == [("s0.1", 3), ("s0.2", 3)]  # s0.3 lies beyond the friend at 4,4
    assert s.squads[2].pool_spent == 1 and s.pending is None  # one close-combat action
    ev = game.apply(s, 1, "sweep:hand:3,2:ccw", ScriptedRng(*MISS, *MISS))
    assert blows(ev) == [("s0.1", 3), ("s0.3", 3)]


def test_a_sweep_ends_after_a_full_circle_even_from_an_empty_cell():
    """A sweep may start from any front cell, empty too, and ends once it has gone all the way
    round: a lone enemy is struck once."""
    game, s = game_position(OPEN, {"s2.0": ((3, 3), "N"), "s0.1": ((3, 4), "N")})
    acting(s, "s2.0")
    ev = game.apply(s, 1, "sweep:hand:2,2:cw", ScriptedRng(*MISS))
    assert blows(ev) == [("s0.1", 3)]


def test_a_sweep_stops_at_an_obstructed_cell():
    """An obstructed cell (here a minor obstruction) stops the sweep."""
    rows = ["........", "........", "........", "....n...", "........", "........",
            "........", "........"]
    game, s = game_position(rows, {"s2.0": ((3, 3), "N"), "s0.1": ((3, 2), "S"),
                                   "s0.2": ((4, 4), "N")})
    acting(s, "s2.0")
    ev = game.apply(s, 1, "sweep:hand:3,2:cw", ScriptedRng(*MISS))
    assert blows(ev) == [("s0.1", 3)]  # 4,3 is furniture: 4,4 is never reached


def test_without_mastery_a_sweep_loses_a_die_to_hit_and_to_wound_and_a_screw_up_ends_it():
    """A sweeping weapon (the katanote) in ordinary hands: every blow of the sweep rolls one
    combat die and one pupae die fewer; a screw-up stops the sweep (and turns the blow back, as
    any close-combat screw-up); a weapon that cannot sweep is not offered."""
    game, s = game_position(OPEN, {"s0.0": ((3, 3), "N"), "s2.1": ((3, 2), "S"),
                                   "s2.2": ((4, 2), "S"), "s2.3": ((4, 3), "W")})
    for nid in ("s2.1", "s2.2", "s2.3"):
        s.nose(nid).attrs["combat"] = 2  # no tougher enemy, to see the sweep's own die
    acting(s, "s0.0")
    listed = ids(game, s)
    assert "sweep:katanote:3,2:cw" in listed and not any(a.startswith("sweep:hand") for a in listed)
    # blow 1: one die (5) + infernal 3, katanote's 3 pupae dice less one: (5, 5) kill s2.1;
    # blow 2: (1) + infernal 1, a screw-up: s2.2's hand weapon strikes back, 2 dice (1, 1)
    ev = game.apply(s, 0, "sweep:katanote:3,2:cw", ScriptedRng(5, 3, 5, 5, 1, 1, 1, 1))
    assert blows(ev) == [("s2.1", 1), ("s2.2", 1)]  # s2.3 is spared
    assert [e.data["dice"] for e in ev if e.kind == "pupae_roll"] == [2, 2]
    assert s.nose("s2.1").status == "dead" and s.nose("s2.3").status == "in_play"
