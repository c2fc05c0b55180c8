"""Dynamit Joe 8.1: a seat given a character of another side plays, wins and scores with
that side from then on. Its match is rated with the sides the seats played for at the end
(FinishMatch's final_sides), while the record keeps the sides dealt. Before, every match was
rated by the dealt sides: the seat that changed sides was rated as its new team-mates'
opponent, and its old side's team-mate."""

from __future__ import annotations

import pytest

from partida.persistence import records
from partida.persistence.glicko2 import Skill, rate_match
from partida.persistence.store import PersistenceStore
from partida.platform.errors import InvalidArgument
from tests.unit.persistence.support import COMMITMENT, SEED

DEALT = ("law", "thieves", "thieves")
FINAL = ("law", "thieves", "law")  # seat 2 was given a lawman's character (8.1)
LAW_WON = records.Outcome((0, 2))


def _match(store: PersistenceStore, match_id: str) -> records.Match:
    seats = tuple(records.Seat(i, f"p{i}", side=side) for i, side in enumerate(DEALT))
    match = records.Match(match_id, "dynamit_joe", "arrest", seats, COMMITMENT)
    store.record_match(match)
    return match


def _expected(sides: tuple[str, ...]) -> dict[str, Skill]:
    seats = [records.Seat(i, f"p{i}", side=side) for i, side in enumerate(sides)]
    return rate_match(seats, LAW_WON, {})


@pytest.fixture
def store(engine) -> PersistenceStore:
    return PersistenceStore(engine)


def test_a_match_is_rated_with_the_sides_played_at_the_end(store):
    assert _expected(FINAL) != _expected(DEALT)  # the sides make a difference here
    _match(store, "m1")
    rated = {r.player_id: Skill(r.rating, r.deviation, r.volatility)
             for r in store.finish_match("m1", LAW_WON, SEED, FINAL)}
    assert rated == _expected(FINAL)
    assert [s.side for s in store.get_match("m1").seats] == list(DEALT)  # kept as dealt


def test_without_final_sides_a_match_is_rated_as_dealt(store):
    _match(store, "m1")
    rated = {r.player_id: Skill(r.rating, r.deviation, r.volatility)
             for r in store.finish_match("m1", LAW_WON, SEED)}
    assert rated == _expected(DEALT)


def test_final_sides_must_name_every_seat(store):
    _match(store, "m1")
    with pytest.raises(InvalidArgument):
        store.finish_match("m1", LAW_WON, SEED, ("law", "law"))
    assert store.get_match("m1").status != "finished"  # nothing written
