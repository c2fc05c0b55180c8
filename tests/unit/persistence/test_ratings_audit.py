"""Ratings audit: Glicko-2 kept within bounds when one match is many games with one result,
and a player's seats in a cooperative match."""

import math

import pytest

from partida.persistence.glicko2 import FIXED_OPPONENT, Skill, rate_match, update
from partida.persistence.records import Outcome, Seat

NEWCOMER = Skill()


def _assert_sane(skill: Skill) -> None:
    assert all(math.isfinite(x) for x in (skill.rating, skill.deviation, skill.volatility))
    assert 0 < skill.deviation <= NEWCOMER.deviation  # never less certain than a newcomer
    assert 0 < skill.rating < 3000


def test_team_matches_with_alternating_winners_keep_ratings_bounded():
    """Dynamit Joe 4 against 4, the same eight players, each side winning in turn: each
    match is four games with one result for every player, a surprise every time. The
    volatility fed on itself: after about 700 matches ratings were at -36,000 and the next
    finish raised ZeroDivisionError, so that match could never be finished."""
    seats = [Seat(j, f"p{j}", side="law" if j % 2 == 0 else "thieves") for j in range(8)]
    ratings: dict[str, Skill] = {}
    for i in range(1500):
        ratings.update(rate_match(seats, Outcome(tuple(range(i % 2, 8, 2))), ratings))
        _assert_sane(ratings["p0"])


def test_a_player_against_four_bots_winning_every_other_match_stays_bounded():
    """One player against four bot opponents: four games of one result against the same
    fixed 1500/100 player each match (before: exploded after about 900 matches)."""
    seats = [Seat(0, "a", side="law"),
             *(Seat(j, "", "bot", "heuristic", "thieves") for j in range(1, 5))]
    ratings: dict[str, Skill] = {}
    for i in range(1500):
        ratings.update(rate_match(seats, Outcome((0,) if i % 2 else (1, 2, 3, 4)), ratings))
        _assert_sane(ratings["a"])
    assert 1300 < ratings["a"].rating < 1700  # half won against 1500: about 1500


def test_a_player_who_always_beats_bots_is_never_less_certain_than_a_newcomer():
    """Wins that were expected carry almost no information, so the deviation grew past
    the newcomer's 350 (after some 3,200 matches against one bot, and on)."""
    skill = NEWCOMER
    for _ in range(3500):
        skill = update(skill, [(FIXED_OPPONENT, 1.0)])
        assert skill.deviation <= NEWCOMER.deviation
    assert skill.rating > 2500  # still rising with every win


def test_a_period_without_games_does_not_widen_past_a_newcomers_deviation():
    assert update(Skill(1500, 350, 0.06), []).deviation == pytest.approx(350)


def test_a_player_in_two_cooperative_seats_plays_the_scenario_once():
    """Las Montañas won by the table: the player holding two seats played one game against
    the scenario, as the one holding one seat did (before: two wins, 1736 against 1675)."""
    seats = [Seat(0, "a", side="defenders"), Seat(1, "a", side="defenders"),
             Seat(2, "b", side="defenders")]
    after = rate_match(seats, Outcome((0, 1, 2)), {})
    assert after["a"] == after["b"] == update(NEWCOMER, [(FIXED_OPPONENT, 1.0)])
    lost = rate_match(seats, Outcome(()), {})
    assert lost["a"] == update(NEWCOMER, [(FIXED_OPPONENT, 0.0)])


def test_a_player_holding_every_seat_of_a_competitive_match_is_not_rated():
    """Nobody to play against: no game, so no rating period (before: rated with no games,
    which widened the deviation, and the match counted)."""
    seats = [Seat(0, "solo", side="law"), Seat(1, "solo", side="thieves")]
    assert rate_match(seats, Outcome((0,)), {}) == {}
