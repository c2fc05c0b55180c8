"""`partida client rejoin` follows the live feed from the last event of the view it starts
from (GetView's last_sequence), not from the match's first event: the server reads and
sends only what follows the view, and every event the seat may see after it is printed
once. Real embedded server in this process; the command through the typer app."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from partida.cli.main import app
from partida.cli.remote import Remote
from partida.cli.render import renderer_for
from partida.devstack.stack import API_KEY, Stack
from partida.engine import Event
from tests.e2e.play import as_service, play_one, player, seat_in_match, wait_for_turn
from tests.support.serving import embedded
from tests.unit.cli.test_audit_reconnect import _printed_events


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    with embedded(tmp_path_factory.mktemp("resume"), metrics_port=0) as s:
        yield s


class _Noted:
    """A live feed as the server sends it, noting the sequence of each event it brings."""

    def __init__(self, call: Any, sequences: list[int]) -> None:
        self.call, self.sequences = call, sequences

    def __iter__(self) -> _Noted:
        return self

    def __next__(self) -> Any:
        item = next(self.call)
        if item.HasField("event"):
            self.sequences.append(item.event.sequence)
        return item

    def cancel(self) -> None:
        self.call.cancel()


@pytest.fixture
def feeds(monkeypatch) -> tuple[list[int], list[int]]:
    """The after_sequence each StreamMatch of the client asked, and the events sent to it:
    the real call, looked at on its way."""
    asked: list[int] = []
    sent: list[int] = []
    real = Remote.stream

    def stream(self: Remote, match_id: str, seat: int | None, after: int = 0) -> Any:
        asked.append(after)
        return _Noted(real(self, match_id, seat, after), sent)

    monkeypatch.setattr(Remote, "stream", stream)
    return asked, sent


def _logged(stack: Stack, match_id: str) -> list[dict[str, Any]]:
    """Every event of the match's log (a service may read it while the match is on)."""
    log = as_service(stack).match_log(match_id)
    return [e for record in log.records for e in json.loads(record.events_json)]


def _narrated(events: list[dict[str, Any]], seat: int) -> list[str]:
    """What the client prints of `events` for `seat`, in the words _printed_events keeps."""
    narrator = renderer_for("montanas").narrator()
    lines = []
    for e in events:
        seen = Event.from_dict(e).for_seat(seat)
        line = None if seen is None else narrator.line(seen.kind, seen.data)
        if line and line.startswith("Seat "):
            lines.append(" ".join(line.split()[:3]))
    return lines


def test_a_rejoin_follows_the_feed_from_the_view_it_shows(stack, feeds):
    asked, sent = feeds
    name = f"resumer-{uuid.uuid4().hex[:6]}"
    remote = player(stack, name)
    match_id, seat = seat_in_match(remote, seats=2)
    for _ in range(3):
        play_one(remote, match_id, seat)
    wait_for_turn(remote, match_id, seat)  # the other seat waits for this one: all quiet
    start = _logged(stack, match_id)[-1]["seq"]
    result = CliRunner().invoke(app, ["client", "rejoin", match_id, "--auto", "heuristic",
                                      "--server", stack.address, "--api-key", API_KEY,
                                      "--player", name], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Match over:" in result.output
    assert asked[0] == start > 0
    assert sent and min(sent) == start + 1  # nothing of what the view told was sent again
    after_view = [e for e in _logged(stack, match_id) if e["seq"] > start]
    assert _printed_events(result.output) == _narrated(after_view, seat) != []
