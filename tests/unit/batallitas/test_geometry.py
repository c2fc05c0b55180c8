"""Facing, the frontal arc, range, line of sight and cover (Shooting: Line of Sight, Diagonal
line of sight, Range, Cover; Leaders: Command distance), with the book's examples as positions."""

import pytest

from partida.games.batallitas.geometry import (
    distance,
    front_cells,
    has_cover,
    in_arc,
    line_of_sight,
    quarter_turns,
    range_band,
    turned,
)

from .positions import field

EMPTY = ["." * 9] * 9


def test_frontal_arc_widens_three_five_seven():
    """Line of Sight: three front cells, then five, then seven, for any facing."""
    for facing in "NESW":
        ranks = {}
        for x in range(-4, 5):
            for y in range(-4, 5):
                if in_arc((0, 0), facing, (x, y)):
                    d = distance((0, 0), (x, y))
                    ranks[d] = ranks.get(d, 0) + 1
        assert [ranks[d] for d in (1, 2, 3)] == [3, 5, 7]
    assert sorted(front_cells((4, 4), "N")) == [(3, 3), (4, 3), (5, 3)]
    assert not in_arc((4, 4), "N", (3, 4)) and not in_arc((4, 4), "N", (4, 5))


def test_turns_are_quarters():
    """Movement: a facing change is counted in 90° turns."""
    assert turned("N", 1) == "E" and turned("N", -1) == "W" and turned("W", 2) == "E"
    assert quarter_turns("N", "S") == 2 and quarter_turns("N", "W") == 1


def test_range_counts_the_target_cell_and_bands():
    """Range: count the target's cell, not the shooter's; short, long (up to double), impossible."""
    assert distance((0, 0), (3, 2)) == 3 and distance((2, 2), (2, 2)) == 0
    assert [range_band(d, 4) for d in (1, 4, 5, 8, 9)] == [
        "short", "short", "long", "long", "impossible"]


def test_command_distance_ignores_what_lies_between():
    """Rule number 2, Command distance: shortest count to the leader, walls and noses ignored;
    the book's example: B, C, D within six cells of A, E and F beyond."""
    leader = (5, 5)
    inside = [(8, 5), (11, 11), (0, 2)]  # B, C, D
    outside = [(12, 5), (5, 12)]  # E, F
    assert all(distance(p, leader) <= 6 for p in inside)
    assert all(distance(p, leader) > 6 for p in outside)


@pytest.mark.parametrize("blocker", ["N", "M"])
def test_major_obstructions_block_sight(blocker):
    """Major obstructions; Line of Sight: a major obstruction on the line hides the target."""
    rows = [".....", ".....", ".." + blocker + "..", ".....", "....."]
    f = field(rows)
    assert not line_of_sight(f, (2, 4), (2, 0))
    assert line_of_sight(f, (0, 4), (0, 0))


@pytest.mark.parametrize("terrain", [",", "n", "m"])
def test_obstacles_and_minor_obstructions_do_not_block_sight(terrain):
    """Obstacles, Minor obstructions: neither blocks sight."""
    f = field([".....", ".....", ".." + terrain + "..", ".....", "....."])
    assert line_of_sight(f, (2, 4), (2, 0))


def test_noses_and_lingering_blasts_block_sight():
    """Occupied cells; Line of Sight (the flamethrower's lingering blast): both hide."""
    f = field(EMPTY, noses=[(4, 4)])
    assert not line_of_sight(f, (4, 8), (4, 0))
    assert not line_of_sight(field(EMPTY, blasts={(4, 4): "slows"}), (4, 8), (4, 0))
    assert line_of_sight(f, (3, 8), (3, 0))


def test_walls_and_closed_doors_block_sight_open_doors_do_not():
    """Walls and doors: a wall or closed door blocks sight like a major obstruction; open not."""
    grid = ["+-+-+-+-+-+",
            "|. . . . .|",
            "+-+-+d+-+-+",
            "|. . . . .|",
            "+         +",
            "|. . . . .|",
            "+-+-+-+-+-+"]
    f = field(grid)
    assert not line_of_sight(f, (2, 2), (2, 0))
    assert line_of_sight(field(grid, open_doors=[0]), (2, 2), (2, 0))
    assert not line_of_sight(field(grid, open_doors=[0]), (0, 2), (0, 0))


def test_diagonal_line_between_two_cells_needs_both_blocked():
    """Diagonal line of sight: through a corner, sight is cut only if both side cells block."""
    assert line_of_sight(field(["....", "....", "...."]), (0, 0), (1, 1))
    assert line_of_sight(field([".N..", "....", "...."]), (0, 0), (1, 1))
    assert line_of_sight(field(["....", "N...", "...."], noses=[]), (0, 0), (1, 1))
    assert not line_of_sight(field([".N..", "N...", "...."]), (0, 0), (1, 1))
    assert not line_of_sight(field([".N..", "....", "...."], noses=[(0, 1)]), (0, 0), (1, 1))


def test_wall_through_a_corner_blocks_a_wall_ending_there_does_not():
    """Diagonal line of sight with walls on edges (RULES.md decision): a wall running through
    the corner shuts both side routes; a wall stopping at the corner shuts one."""
    through = ["+-+-+-+", "|.|. .|", "+ + + +", "|.|. .|", "+ + + +", "|. . .|", "+-+-+-+"]
    ending = ["+-+-+-+", "|.|. .|", "+ + + +", "|. . .|", "+ + + +", "|. . .|", "+-+-+-+"]
    assert not line_of_sight(field(through), (0, 0), (2, 2))
    assert line_of_sight(field(ending), (0, 0), (2, 2))


def test_book_example_of_line_of_sight():
    """Example of Line of Sight (picture lost, rebuilt): A and B see the target cell; C is hidden
    by another nose on its line; D's line runs exactly between two major obstructions."""
    rows = [".......",
            ".......",
            "....N..",
            "...N...",
            ".......",
            "......."]
    target, a, b, c, d = (1, 0), (6, 1), (1, 5), (0, 3), (5, 4)
    in_the_way = (0, 2)
    f = field(rows, noses=[target, a, b, c, d, in_the_way])
    assert line_of_sight(f, a, target) and line_of_sight(f, b, target)
    assert not line_of_sight(f, c, target)
    assert not line_of_sight(f, d, target)
    opened = field([r.replace("N", ".", 1) if i == 2 else r for i, r in enumerate(rows)])
    assert line_of_sight(opened, d, target)  # one side of the corner clear: sight passes


def test_book_example_of_cover():
    """Example of cover (picture lost, rebuilt): A sits behind a minor obstruction; B's and C's
    lines cross it, D's line does not, so A has cover from B and C only."""
    rows = [".......",
            "...n...",
            ".......",
            ".......",
            "......."]
    a = (3, 2)
    b, c, dd = (3, 0), (4, 0), (6, 2)
    f = field(rows, noses=[a, b, c, dd])
    assert line_of_sight(f, b, a) and has_cover(f, b, a)
    assert line_of_sight(f, c, a) and has_cover(f, c, a)
    assert line_of_sight(f, dd, a) and not has_cover(f, dd, a)


def test_cover_needs_the_obstruction_next_to_the_target():
    """Cover: the minor obstruction must be adjacent to the target, not just on the line."""
    f = field([".......", "...n...", ".......", ".......", "......."])
    assert has_cover(f, (3, 4), (3, 0))
    assert not has_cover(f, (3, 0), (3, 4))  # the obstruction is next to the shooter
