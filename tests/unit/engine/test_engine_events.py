"""Event: what each seat sees (for_seat) and the to_dict/from_dict round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partida.engine import Event

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)
DATA = st.dictionaries(st.text(max_size=8), JSON, max_size=5)
SEATS = st.frozensets(st.integers(0, 7), max_size=4)

PRIVATE = {"card": 17, "hand": [1, 2, 3]}
REDACTED = {"seat": 2, "cards": 1}


def test_public_event_is_seen_whole_by_everyone() -> None:
    e = Event("monster_enters", {"monster": 3, "alley": 5})
    for seat in [None, 0, 1, 7]:
        seen = e.for_seat(seat)
        assert seen == Event("monster_enters", {"monster": 3, "alley": 5})
        assert seen is not None and seen.visible_to is None and seen.public is None


def test_private_event_with_public_form() -> None:
    e = Event("card_drawn", PRIVATE, frozenset({2, 4}), REDACTED)
    for seat in (2, 4):
        assert e.for_seat(seat) == Event("card_drawn", PRIVATE)
    for seat in (None, 0, 1, 3, 5, -1):
        seen = e.for_seat(seat)
        assert seen == Event("card_drawn", REDACTED), seat
        assert seen is not None and seen.data != PRIVATE


def test_private_event_without_public_form_is_hidden() -> None:
    e = Event("secret", PRIVATE, frozenset({0}))
    assert e.for_seat(0) == Event("secret", PRIVATE)
    assert all(e.for_seat(s) is None for s in (None, 1, 2))


def test_event_visible_to_nobody() -> None:
    e = Event("sealed", PRIVATE, frozenset(), REDACTED)
    assert all(e.for_seat(s) == Event("sealed", REDACTED) for s in (None, 0, 1))


def test_spectator_never_sees_private_data() -> None:
    """None (a spectator) is never a member, even of an event naming every seat."""
    e = Event("deal", PRIVATE, frozenset(range(10)))
    assert e.for_seat(None) is None


@pytest.mark.parametrize("event", [
    Event("public", {"a": 1}),
    Event("private", PRIVATE, frozenset({3, 1}), REDACTED),
    Event("hidden", PRIVATE, frozenset({0})),
    Event("empty", {}),
])
def test_to_dict_shape_and_round_trip(event: Event) -> None:
    d = event.to_dict()
    assert d["kind"] == event.kind and d["data"] == dict(event.data)
    if event.visible_to is None:
        assert "visible_to" not in d and "public" not in d
    else:
        assert d["visible_to"] == sorted(event.visible_to)
        assert d["public"] == (None if event.public is None else dict(event.public))
    back = Event.from_dict(json.loads(json.dumps(d)))
    assert back == event
    assert back.to_dict() == d


@given(kind=st.text(max_size=10), data=DATA, vis=st.none() | SEATS, public=st.none() | DATA)
def test_round_trip_through_json_text(kind: str, data: dict[str, Any],
                                      vis: frozenset[int] | None,
                                      public: dict[str, Any] | None) -> None:
    e = Event(kind, data, vis, public if vis is not None else None)
    back = Event.from_dict(json.loads(json.dumps(e.to_dict())))
    assert back == e


@given(data=DATA, vis=SEATS, public=st.none() | DATA, seat=st.none() | st.integers(-2, 9))
def test_for_seat_never_shows_private_data_to_unlisted_seats(
        data: dict[str, Any], vis: frozenset[int], public: dict[str, Any] | None,
        seat: int | None) -> None:
    e = Event("k", data, vis, public)
    seen = e.for_seat(seat)
    if seat is not None and seat in vis:
        assert seen == Event("k", data)
    elif public is None:
        assert seen is None
    else:
        assert seen == Event("k", public)
    # A projection is final: it carries no visibility of its own.
    assert seen is None or (seen.visible_to is None and seen.public is None)


def test_to_dict_does_not_share_the_top_level_data() -> None:
    data = {"a": 1}
    d = Event("k", data).to_dict()
    d["data"]["b"] = 2
    assert data == {"a": 1}
