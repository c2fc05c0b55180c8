"""Double doors opened or closed leaf by leaf, flaps, and the command knack's moving through
friends (Rules: Doors, Double doors; Board 2, Board 4 and Board 7 notes on flaps; Knacks:
Command). Positions built directly."""

from partida.engine import LocalRng

from .positions import acting, game_position, ids

# A wall across the board with a double door (two leaves) in it, south of cells (1,0), (2,0).
DOUBLE = ["+-+-+-+-+-+",
          "|. . . . .|",
          "+-+D+D+-+-+",
          "|. . . . .|",
          "+-+-+-+-+-+"]
# A counter (minor) with a flap in it across an indoor room.
COUNTER = ["_____", "mmfmm", "_____"]
OPEN = ["........"] * 8
FAR_MACUTE = {"s0.1": ((7, 7), "N")}


def door_position(facing="S"):
    game, s = game_position(DOUBLE, {"s2.1": ((1, 0), facing), "s2.2": ((4, 1), "N"),
                                     "s0.1": ((4, 0), "W")})
    for nid in ("s2.1", "s2.2"):
        s.nose(nid).flaws.remove("hate")  # about doors, not the Macute beside them
    acting(s, "s2.1")
    return game, s


def test_a_double_door_opens_whole_or_by_either_leaf_facing_any_part():
    """Double doors: the nose may open the whole door or only one leaf, not necessarily the
    one in front of it, for one generic action."""
    game, s = door_position()
    assert {"open:0", "open:0:0", "open:0:1"} <= set(ids(game, s))
    game.apply(s, 1, "open:0:1", LocalRng(0))
    assert s.open_leaves == [[0, 1]] and s.open_doors == [] and s.nose("s2.1").spent == 2
    assert "move:1,1" not in ids(game, s) and "move:2,1" in ids(game, s)
    # one leaf left shut: opening it is opening the door; one open: closing it closes the door
    listed = [a for a in ids(game, s) if a.startswith(("open", "close"))]
    assert listed == ["open:0", "close:0"]
    game.apply(s, 1, "open:0", LocalRng(0))
    assert s.open_doors == [0] and s.open_leaves == []
    assert "move:1,1" in ids(game, s)


def test_a_double_door_closes_by_one_leaf_too_and_needs_no_facing_to_close():
    """Closing works the same way, whole or a leaf, from in front of the door in any facing."""
    game, s = door_position(facing="E")
    s.open_doors = [0]
    assert not any(a.startswith("open") for a in ids(game, s))  # not facing the door
    assert {"close:0", "close:0:0", "close:0:1"} <= set(ids(game, s))
    game.apply(s, 1, "close:0:0", LocalRng(0))
    assert s.open_doors == [] and s.open_leaves == [[0, 1]]


def test_a_flap_is_minor_while_closed_and_opened_from_beside_it_facing_it():
    """Board 2/4/7 notes: a flap closed is a minor obstruction; opened (a generic action by a
    nose beside it and facing it, RULES.md decision) its cell is clear."""
    game, s = game_position(COUNTER, {"s2.1": ((2, 0), "S"), "s0.1": ((0, 2), "N")})
    s.nose("s2.1").flaws.remove("hate")
    acting(s, "s2.1")
    assert "move:2,1" not in ids(game, s) and "open_flap:2,1" in ids(game, s)
    game.apply(s, 1, "open_flap:2,1", LocalRng(0))
    assert s.open_flaps == [[2, 1]] and s.nose("s2.1").spent == 2
    assert "move:2,1" in ids(game, s)
    game.apply(s, 1, "move:2,1", LocalRng(0))
    assert "close_flap:2,1" not in ids(game, s)  # someone stands in it
    game.apply(s, 1, "move:2,2", LocalRng(0))
    game.apply(s, 1, "turn:E", LocalRng(0))  # facing away: it may still be closed
    s.nose("s2.1").spent = 0
    game.apply(s, 1, "close_flap:2,1", LocalRng(0))
    assert s.open_flaps == [] and "move:2,1" not in ids(game, s)


def test_command_moves_through_a_friends_cell_but_cannot_stop_there():
    """Command: a nose with it moves through cells of noses of its side as if empty, but does
    not end its movement in one; other noses cannot."""
    game, s = game_position(OPEN, {"s2.0": ((1, 3), "E"), "s2.1": ((2, 3), "N"), **FAR_MACUTE})
    acting(s, "s2.0")  # the Fans' leader, a Lethal Fan with command
    assert "move:2,3" in ids(game, s)
    game.apply(s, 1, "move:2,3", LocalRng(0))
    listed = ids(game, s)
    assert "done" not in listed and all(a.startswith("move:") for a in listed)
    assert "move:3,3" in listed and s.prompts == []
    game.apply(s, 1, "move:3,3", LocalRng(0))
    assert "done" in ids(game, s)
    acting(s, "s2.1")  # a plain Fan: friends block it
    assert "move:3,3" not in ids(game, s)


def test_command_goes_into_a_friends_cell_only_with_points_to_get_out():
    """RULES.md decision: a step into a friend's cell is listed only when the nose can still
    pay a step out of it; enemy cells are never passable."""
    game, s = game_position(OPEN, {"s2.0": ((1, 3), "E"), "s2.1": ((2, 3), "N"), **FAR_MACUTE})
    acting(s, "s2.0")
    lead = s.nose("s2.0")
    s.squads[2].pool_owner = None  # its own points only, for the count
    lead.spent = lead.attrs["actions"] - 1  # one point: in, but not out again
    assert "move:2,3" not in ids(game, s) and "move:2,2" in ids(game, s)
    game, s = game_position(OPEN, {"s2.0": ((1, 3), "E"), "s0.1": ((2, 3), "W")})
    s.nose("s2.0").flaws.clear()  # no hateful charge: this is about passing
    acting(s, "s2.0")
    assert "move:2,3" not in ids(game, s)
