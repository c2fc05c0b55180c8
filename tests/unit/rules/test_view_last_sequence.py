"""GetView tells `last_sequence`, the sequence of the match's last event at the version of
the view it sends: a client that shows the view, then opens StreamMatch after it, gets
exactly the events that follow the view, without the server reading and sending the match's
whole history (a rejoin used to follow from the start). Sequences count events, not
actions, so the version alone cannot tell it. A delayed spectator is never told a sequence
past what it may see."""

from __future__ import annotations

from typing import Any

from partida.rules.matches import Matches, project
from partida.rules.session import SeatMeta
from partida.v1 import rules_pb2
from tests.unit.rules.conftest import new_match, play_defaults, served, step

FEED_SECONDS = 30  # bounds every feed read: a broken feed fails the test, never hangs it


def _logged(matches: Matches, match_id: str) -> list[dict[str, Any]]:
    """Every event in the match's log, unredacted, in order."""
    return [e for entry in matches.ledger.load_entries(match_id, -1, None)
            for e in entry.events]


def _last_at(events: list[dict[str, Any]], version: int) -> int:
    return max((e["seq"] for e in events if e["version"] <= version), default=0)


def _view(stub: Any, metadata: Any, match_id: str, seat: int | None
          ) -> rules_pb2.GetViewResponse:
    request = rules_pb2.GetViewRequest(match_id=match_id)
    if seat is not None:
        request.seat = seat
    return stub.GetView(request, metadata=metadata)


def _feed_until(stub: Any, metadata: Any, match_id: str, seat: int | None, after: int,
                version: int) -> list[rules_pb2.Event]:
    """The events a feed opened after event `after` sends up to its view of `version`."""
    request = rules_pb2.StreamMatchRequest(match_id=match_id, after_sequence=after)
    if seat is not None:
        request.seat = seat
    feed = stub.StreamMatch(request, metadata=metadata, timeout=FEED_SECONDS)
    events = []
    try:
        for item in feed:
            if item.HasField("event"):
                events.append(item.event)
            elif item.view.version == version:
                return events
    finally:
        feed.cancel()
    raise AssertionError(f"the feed ended before its view of version {version}")


def test_a_feed_opened_at_the_views_last_sequence_brings_exactly_what_follows(matches):
    match_id = new_match(matches).match_id
    for _ in range(6):
        step(matches, match_id)
    with served(matches, "alice") as (stub, alice):
        got = _view(stub, alice, match_id, 0)
        logged = _logged(matches, match_id)
        assert got.last_sequence == _last_at(logged, got.view.version) == logged[-1]["seq"] > 0
        for _ in range(4):
            step(matches, match_id)
        live = matches.session(match_id).version
        streamed = _feed_until(stub, alice, match_id, 0, got.last_sequence, live)
    after_view = [e for e in _logged(matches, match_id) if e["version"] > got.view.version]
    assert [e.sequence for e in streamed] == [e["seq"] for e in project(after_view, 0)] != []
    assert streamed[0].sequence == got.last_sequence + 1


def test_a_spectator_of_a_match_without_delay_is_told_the_live_sequence(matches):
    match_id = new_match(matches).match_id
    for _ in range(5):
        step(matches, match_id)
    with served(matches, "eve") as (stub, eve):  # eve holds no seat
        got = _view(stub, eve, match_id, None)
    assert got.last_sequence == matches.session(match_id).event_seq > 0


def test_an_action_without_events_leaves_the_last_sequence_where_it_was(matches):
    """In ¿Pasarán? about half the actions make no event: the version moves on, the last
    sequence does not."""
    s = matches.create("pasaran", "campaign", [SeatMeta("alice"), SeatMeta("bob")], {})
    for _ in range(3000):
        _, _, result = step(matches, s.match_id)
        if not result.events and matches.session(s.match_id).event_seq > 0:
            break
    else:
        raise AssertionError("no action without events")
    with served(matches, "alice") as (stub, alice):
        got = _view(stub, alice, s.match_id, 0)
    logged = _logged(matches, s.match_id)
    assert got.view.version == result.version > logged[-1]["version"]
    assert got.last_sequence == logged[-1]["seq"]


def test_a_delayed_spectator_is_never_told_a_sequence_past_what_it_may_see(matches):
    """While the match is on, the value belongs to the delayed version or is 0 (follow from
    the start); once it is over, the spectator sees it all, and the value is exact."""
    match_id = new_match(matches, spectator_delay=3).match_id
    for _ in range(6):
        step(matches, match_id)
    with served(matches, "eve") as (stub, eve):
        lagging = _view(stub, eve, match_id, None)
        logged = _logged(matches, match_id)
        assert lagging.view.version == matches.session(match_id).version - 3
        assert _last_at(logged, lagging.view.version) < logged[-1]["seq"]
        assert lagging.last_sequence == _last_at(logged, lagging.view.version)
        play_defaults(matches, match_id)
        over = _view(stub, eve, match_id, None)
        final = matches.session(match_id)
        assert over.last_sequence == final.event_seq == _logged(matches, match_id)[-1]["seq"]
        assert _feed_until(stub, eve, match_id, None, over.last_sequence, final.version) == []


def test_a_delayed_spectators_sequence_is_exact_as_the_delay_moves_and_after_a_rebuild(
        matches):
    """The delayed position counts the events of each action it passes, and a session
    rebuilt from the log counts them again: at every step a feed opened at the value brings
    exactly the events after the delayed version, no further."""
    match_id = new_match(matches, spectator_delay=2).match_id
    with served(matches, "eve") as (stub, eve):
        for n in range(8):
            step(matches, match_id)
            if n == 4:  # the session lost (a flush, an expiry): rebuilt from the log
                matches.sessions.invalidate(match_id)
            view = _view(stub, eve, match_id, None)
            assert view.last_sequence == _last_at(_logged(matches, match_id), view.view.version)


def test_a_delayed_position_kept_before_events_were_counted_says_not_known(matches):
    """A session written by an older server has no count in its delayed position: 0 (follow
    from the start) until the match ends, never a guess."""
    match_id = new_match(matches, spectator_delay=2).match_id
    for _ in range(4):
        step(matches, match_id)
    s = matches.session(match_id)
    del s.spectator["event_seq"]
    for entry in s.spectator["pending"]:
        del entry["events"]
    assert matches.sessions.commit(s, s.version, [], "", "")
    step(matches, match_id)  # the delay passes an entry kept without its count
    with served(matches, "eve") as (stub, eve):
        assert _view(stub, eve, match_id, None).last_sequence == 0
