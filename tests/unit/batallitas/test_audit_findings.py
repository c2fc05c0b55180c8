"""Divergences from the book found by an audit, each pinned by a position built directly."""

from partida.engine import LocalRng

from .positions import acting, game_position, ids, scenario_position

# An open street with one obstacle cell at (3, 2).
STREET = ["........", "........", "...,....", "........",
          "........", "........", "........", "........"]


def test_command_makes_turning_in_an_obstacle_cell_cheaper():
    """Knacks, Command, with Rules, Actions: turning a facing is one of the movement actions,
    and a command nose pays one point less for each movement action (never less than one). So
    a quarter turn inside an obstacle cell, normally 2 points, costs it 1; a half turn 2."""
    game, s = game_position(STREET, {"s2.0": ((3, 2), "N"), "s0.1": ((7, 7), "N")})
    acting(s, "s2.0")  # the Fans' leader, a Lethal Fan with command
    lead = s.nose("s2.0")
    assert "command" in lead.knacks
    turns = {a.id: a.description for a in game.legal_actions(s, 1) if a.id.startswith("turn:")}
    assert turns["turn:E"].endswith("(1)") and turns["turn:S"].endswith("(2)")
    game.apply(s, 1, "turn:E", LocalRng(0))
    assert s.squads[lead.squad].pool_spent == 1  # the leader spends from its pool


def test_without_command_turning_in_an_obstacle_cell_still_costs_two():
    """Rules, Movement: a nose without command pays the obstacle's extra point per turn."""
    game, s = game_position(STREET, {"s2.1": ((3, 2), "N"), "s0.1": ((7, 7), "N")})
    s.nose("s2.1").flaws.remove("hate")
    acting(s, "s2.1")
    game.apply(s, 1, "turn:E", LocalRng(0))
    assert s.nose("s2.1").spent == 2


def test_command_makes_leaving_the_board_cheaper():
    """Knacks, Command, with scenario 2's leaving the board (a step off it, RULES.md
    decision): the Fans' Lethal Fan leader, with command, leaves sideways for 1, not 2."""
    game, s = scenario_position("shopping", {"s1.0": ((11, 9), "N"), "s0.1": ((0, 10), "E")})
    assert "command" in s.nose("s1.0").knacks
    assert "leave:east" in ids(game, s)
    game.apply(s, 1, "leave:east", LocalRng(0))
    assert s.squads[1].pool_spent == 1
