"""Movement and its costs (Rules: Actions, Movement, Doors; knack Command; Board 4 notes)."""

from partida.games.batallitas.movement import can_step, step_cost, turn_cost

from .positions import field

OPEN = ["....."] * 5


def test_forward_costs_one_back_or_side_two():
    """Actions: forward 1 (the three front cells, RULES.md decision), backward or sideways 2."""
    f = field(OPEN)
    assert [step_cost(f, (2, 2), "N", p) for p in ((2, 1), (1, 1), (3, 1))] == [1, 1, 1]
    assert [step_cost(f, (2, 2), "N", p) for p in ((1, 2), (3, 2), (2, 3), (1, 3))] == [2] * 4
    assert step_cost(f, (2, 2), "E", (3, 2)) == 1


def test_obstacles_buildings_stages_and_tear_gas_add_a_point():
    """Obstacles (+1), entering or leaving a building (+1), Board 4 stage (+1), tear gas (+1,
    cumulative with an obstacle)."""
    f = field([".,...", "._...", ".....", ".....", "....."])
    assert step_cost(f, (1, 2), "N", (1, 1)) == 2  # into a building
    assert step_cost(f, (1, 1), "N", (1, 0)) == 3  # out of it, into an obstacle
    gas = field([".,...", ".....", ".....", ".....", "....."], blasts={(1, 0): "slows"})
    assert step_cost(gas, (1, 1), "N", (1, 0)) == 3
    assert step_cost(gas, (1, 1), "S", (1, 0)) == 4


def test_command_knack_takes_a_point_off_but_never_below_one():
    """Knacks, Command: every move costs one less, at least 1."""
    f = field([".,...", "....."] + ["....."] * 3)
    assert step_cost(f, (1, 1), "N", (1, 0), command=True) == 1
    assert step_cost(f, (2, 2), "N", (2, 1), command=True) == 1
    assert step_cost(f, (2, 2), "N", (2, 3), command=True) == 1
    assert step_cost(f, (2, 1), "S", (1, 0), command=True) == 2


def test_turning_costs_a_point_per_quarter_two_in_an_obstacle():
    """Movement: each 90° turn costs 1, and one more in an obstacle cell."""
    f = field([".,...", "....."] + ["....."] * 3)
    assert turn_cost(f, (0, 0), 2) == 2 and turn_cost(f, (1, 0), 1) == 2


def test_cannot_enter_obstructed_occupied_or_blazing_cells():
    """Minor and major obstructions, Occupied cells; the flamethrower's blast is impassable."""
    f = field(["nN,..", "....."] + ["....."] * 3, noses=[(3, 1)], blasts={(4, 1): "blocks"})
    assert not can_step(f, (0, 1), (0, 0)) and not can_step(f, (1, 1), (1, 0))
    assert can_step(f, (2, 1), (2, 0))  # an obstacle can be entered
    assert not can_step(f, (2, 1), (3, 1)) and not can_step(f, (3, 2), (4, 1))
    assert not can_step(f, (0, 1), (0, 3))  # not a neighbour


def test_blocked_diagonal_needs_both_side_cells_shut():
    """Movement: a diagonal step is refused when both side cells are obstructed or occupied."""
    both = field([".n...", "n...."] + ["....."] * 3)
    one = field([".n...", "....."] + ["....."] * 3)
    assert not can_step(both, (0, 0), (1, 1))
    assert can_step(one, (0, 0), (1, 1))
    assert not can_step(field([".n...", "....."] + ["....."] * 3, noses=[(0, 1)]), (0, 0), (1, 1))


def test_walls_and_doors_on_edges():
    """Walls and doors, Doors: no step through a wall or closed door; an open door is free;
    a wall through the corner blocks the diagonal (RULES.md decision)."""
    grid = ["+-+-+-+",
            "|. .|.|",
            "+-+d+ +",
            "|. .|.|",
            "+ + + +",
            "|. . .|",
            "+-+-+-+"]
    f = field(grid)
    assert not can_step(f, (1, 0), (1, 1))
    assert can_step(field(grid, open_doors=[0]), (1, 0), (1, 1))
    assert step_cost(field(grid, open_doors=[0]), (1, 0), "S", (1, 1)) == 1
    assert not can_step(f, (1, 0), (2, 0)) and not can_step(f, (1, 0), (2, 1))
    assert can_step(f, (1, 1), (2, 2))  # the wall ends at that corner
