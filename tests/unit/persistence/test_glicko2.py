"""Glicko-2 against Glickman's worked example, and how matches become games."""

import pytest

from partida.persistence.glicko2 import FIXED_OPPONENT, Skill, is_cooperative, rate_match, update
from partida.persistence.records import Outcome, Seat


def test_glickmans_worked_example():
    after = update(Skill(1500, 200, 0.06),
                   [(Skill(1400, 30), 1.0), (Skill(1550, 100), 0.0), (Skill(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation():
    after = update(Skill(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.deviation == pytest.approx(200.27, abs=0.01)


def test_a_huge_upset_converges():
    after = update(Skill(1000, 30, 0.06), [(Skill(2800, 30), 1.0)] * 10)
    assert after.rating > 1000 and after.volatility > 0.06


def _seats(*players: str, sides: tuple[str, ...] = ()) -> list[Seat]:
    return [Seat(i, p, "human" if p else "bot", "" if p else "heuristic",
                 sides[i] if sides else "") for i, p in enumerate(players)]


@pytest.mark.parametrize("winners, draw, sides, cooperative", [
    ((0, 1), False, (), True),  # the table won
    ((), False, (), True),  # the table lost
    ((), True, (), False),  # a draw is never a shared loss
    ((0,), False, (), False),
    ((0, 1), False, ("red", "blue"), False),  # sides differ: a competitive game
])
def test_cooperative_is_read_from_the_outcome(winners, draw, sides, cooperative):
    seats = _seats("a", "b", sides=sides)
    assert is_cooperative(seats, Outcome(winners, draw)) is cooperative


def test_equal_players_move_symmetrically():
    after = rate_match(_seats("a", "b"), Outcome((1,)), {})
    assert after["b"].rating - 1500 == pytest.approx(1500 - after["a"].rating)


def test_every_pair_is_a_game():
    after = rate_match(_seats("a", "b", "c"), Outcome((0,)), {})
    assert after["a"].rating > 1500 > after["b"].rating
    assert after["b"] == after["c"]  # both lost to a, and drew with each other


def test_a_draw_between_unequal_players_narrows_the_gap():
    before = {"a": Skill(1700, 80), "b": Skill(1400, 80)}
    after = rate_match(_seats("a", "b"), Outcome((), draw=True), before)
    assert after["a"].rating < 1700 and after["b"].rating > 1400


def test_bots_are_fixed_opponents_and_never_rated():
    after = rate_match(_seats("a", "", ""), Outcome((0,)), {})
    assert set(after) == {"a"}
    assert after["a"] == update(Skill(), [(FIXED_OPPONENT, 1.0)] * 2)


def test_cooperative_players_face_the_scenario_not_each_other():
    before = {"a": Skill(1800, 60), "b": Skill(1300, 200)}
    after = rate_match(_seats("a", "b", ""), Outcome((0, 1, 2)), before)
    assert after["a"] == update(before["a"], [(FIXED_OPPONENT, 1.0)])
    assert after["b"] == update(before["b"], [(FIXED_OPPONENT, 1.0)])
    lost = rate_match(_seats("a", "b"), Outcome(()), before)
    assert lost["a"] == update(before["a"], [(FIXED_OPPONENT, 0.0)])


def test_a_player_in_two_seats_does_not_play_themselves():
    after = rate_match(_seats("a", "a", "b"), Outcome((0, 1)), {})
    assert after["a"] == update(Skill(), [(Skill(), 1.0), (Skill(), 1.0)])


def test_team_mates_who_share_a_result_are_not_opponents():
    """Two seats dealt one side (Dynamit Joe's posse against the gang, 2 seats each) that
    win or lose together played no game against each other: before seats carried their
    sides, each such pair was rated as a draw, pulling team-mates' ratings together."""
    before = {"a": Skill(1800, 60), "b": Skill(1300, 200), "c": Skill(), "d": Skill()}
    seats = _seats("a", "b", "c", "d", sides=("law", "thieves", "law", "thieves"))
    after = rate_match(seats, Outcome((0, 2)), before)
    assert after["a"] == update(before["a"], [(before["b"], 1.0), (before["d"], 1.0)])
    assert after["b"] == update(before["b"], [(before["a"], 0.0), (before["c"], 0.0)])


def test_a_seat_moved_to_the_other_side_is_still_an_opponent():
    """Dynamit Joe 8.1 may give a seat a character of the other side: seats dealt one side
    whose results differ at the end were opponents, and play their game."""
    seats = _seats("a", "b", "c", sides=("law", "law", "thieves"))
    after = rate_match(seats, Outcome((0, 2)), {})  # b ended playing for the losers
    assert after["a"] == update(Skill(), [(Skill(), 1.0), (Skill(), 0.5)])
