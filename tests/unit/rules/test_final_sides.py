"""The rules service tells persistence the sides seats played for at a match's end when any
changed (Dynamit Joe 8.1), so the match is rated with them (see
tests/unit/persistence/test_final_sides_rating.py); none when every seat kept its dealt side."""

from __future__ import annotations

from partida.games.dynamit_joe import GAME
from partida.rules.matches import _changed_sides
from partida.rules.session import SeatMeta, Session
from tests.unit.dynamit_joe.positions import make


def _session(state) -> Session:  # type: ignore[no-untyped-def]
    seats = [SeatMeta(f"p{i}", side=GAME.seat_side(state, i)) for i in range(state.seats)]
    return Session(match_id="m", game_id="dynamit_joe", scenario_id="showdown", seats=seats,
                   options={}, commitment="", created_at=0.0, decision_timeout=0,
                   spectator_delay=0)


def test_a_seat_that_changed_sides_is_reported_with_its_new_side():
    state = make("showdown", 3, reassign_characters=True)
    s = _session(state)  # the sides as dealt
    billy = state.chars["Billy"]["seat"]
    state.allegiance[str(billy)] = "law"  # 8.1: Billy's seat given a lawman
    sides = _changed_sides(GAME, state, s)
    assert sides[billy] == "law" != s.seats[billy].side
    assert [x for i, x in enumerate(sides) if i != billy] == [
        m.side for i, m in enumerate(s.seats) if i != billy]


def test_no_sides_are_sent_when_every_seat_kept_its_own():
    state = make("showdown", 3, reassign_characters=True)
    assert _changed_sides(GAME, state, _session(state)) == []
