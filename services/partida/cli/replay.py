"""`partida replay`: load a saved MatchRecord, check it, and play it again on the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from partida.cli.match import LocalMatch, describe, outcome_dict
from partida.cli.render import renderer_for
from partida.cli.terminal import Terminal
from partida.engine import BadSetup, Game, IllegalAction, UnknownGame, get
from partida.engine.bots import MatchRecord


class RecordError(Exception):
    """The file is not a valid match record, or the engine refuses what it holds."""


_FIELDS: dict[str, type] = {"game": str, "scenario": str, "seats": int, "options": dict,
                            "seed": str, "match_id": str, "actions": list}


def load_record(path: Path) -> tuple[MatchRecord, dict[str, Any] | None]:
    """The record in `path` and the outcome it claims (None for an unfinished match)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON: {e.msg} at line {e.lineno}, "
                          f"column {e.colno}") from None
    return parse_record(data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_record(data: Any) -> tuple[MatchRecord, dict[str, Any] | None]:
    if not isinstance(data, dict):
        raise RecordError("not a match record: expected a JSON object")
    for key, kind in _FIELDS.items():
        if key not in data:
            raise RecordError(f"not a match record: the field {key!r} is missing")
        if not isinstance(data[key], kind) or (kind is int and not _is_int(data[key])):
            raise RecordError(f"not a match record: {key!r} must be of type {kind.__name__}")
    try:
        if len(bytes.fromhex(data["seed"])) == 0:
            raise ValueError
    except ValueError:
        raise RecordError("not a match record: 'seed' must be hexadecimal bytes") from None
    for i, entry in enumerate(data["actions"], 1):
        if not (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0])
                and isinstance(entry[1], str)):
            raise RecordError(f"not a match record: action #{i} must be [seat, action id], "
                              f"not {json.dumps(entry)}")
    outcome = data.get("outcome")
    if outcome is not None and not (isinstance(outcome, dict)
                                    and {"winners", "reason", "draw"} <= outcome.keys()):
        raise RecordError("not a match record: 'outcome' must be null or hold "
                          "winners, reason and draw")
    return MatchRecord.from_dict(data), outcome


class Replay:
    def __init__(self, term: Terminal, record: MatchRecord,
                 recorded: dict[str, Any] | None) -> None:
        self.term, self.record, self.recorded = term, record, recorded
        try:
            self.game: Game[Any] = get(record.game)
        except UnknownGame:
            raise RecordError(f"the record is of an unknown game {record.game!r}") from None
        self.renderer = renderer_for(record.game)
        self.narrator = self.renderer.narrator()
        try:
            self.match = LocalMatch.start(self.game, record)
        except BadSetup as e:
            raise RecordError(f"the record's set-up is refused: {e}") from None

    def run(self, step: bool) -> bool:
        """Replay every action; True once the outcome is checked, False if the user stopped.

        With `step`, wait before each action: Enter for the next, 'c' to run to the end.
        """
        r = self.record
        self.term.say(f"Replaying {r.game} ({r.scenario}), {r.seats} seats, match "
                      f"{r.match_id}, {len(r.actions)} actions", style="bold")
        self.show()
        for i, (seat, action_id) in enumerate(r.actions, 1):
            if step:
                answer = self.term.read_line(f"[{i}/{len(r.actions)}] Enter: next, "
                                             "c: run to the end, q: stop > ")
                word = None if answer is None else answer.strip().lower()
                if word in (None, "q"):
                    self.term.say(f"Replay stopped before action #{i} of {len(r.actions)}; "
                                  "the outcome was not checked.")
                    return False
                step = word != "c"
            self.apply(i, seat, action_id)
            self.show()
        self.check_outcome()
        return True

    def apply(self, i: int, seat: int, action_id: str) -> None:
        actions = self.match.legal_actions(seat)
        self.narrator.learn(self.match.view())
        try:
            events = self.match.apply(seat, action_id)
        except IllegalAction as e:
            raise RecordError(f"action #{i} (seat {seat}: {action_id!r}) is refused by the "
                              f"rules: {e.reason}") from None
        self.term.say(f"#{i} seat {seat}: {describe(actions, action_id)}", style="bold")
        self.narrator.learn(self.match.view())
        for event in events:
            line = self.narrator.line(event.kind, event.data)
            if line:
                self.term.say(f"  {line}")

    def show(self) -> None:
        self.term.show(self.renderer.render(self.match.view()))

    def check_outcome(self) -> None:
        outcome = self.match.outcome()
        got = outcome_dict(outcome)
        if got != self.recorded:
            raise RecordError(f"the replay does not reproduce the record: it ends with "
                              f"{json.dumps(got)}, the record says {json.dumps(self.recorded)}")
        if outcome is None:
            self.term.say(f"Replay verified: the record is of an unfinished match and the "
                          f"replay stops at the same point ({len(self.record.actions)} "
                          "actions).", style="bold green")
            return
        self.term.say(self.renderer.summary(self.match.view(), outcome), style="bold")
        self.term.say("Replay verified: the outcome equals the recorded one.",
                      style="bold green")
