"""Fallback rendering for any game: the view as pretty JSON, events as `kind: key=value`."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import RenderableType
from rich.json import JSON

from partida.engine import Outcome


def render(view: Mapping[str, Any]) -> RenderableType:
    return JSON(json.dumps(view, default=str, ensure_ascii=False))


def summary(view: Mapping[str, Any], outcome: Outcome) -> str:
    if outcome.draw:
        return f"Outcome: draw: {outcome.reason}."
    winners = ", ".join(f"seat {s}" for s in outcome.winners) or "nobody"
    return f"Outcome: won by {winners}: {outcome.reason}."


def describe_event(kind: str, data: Mapping[str, Any]) -> str:
    fields = ", ".join(f"{k}={json.dumps(v, default=str, ensure_ascii=False)}"
                       for k, v in data.items())
    return f"{kind}: {fields}" if fields else kind


class TableNarrator:
    """A narrator with a sentence per event kind in `LINES` (kind -> say(narrator, data)); a
    kind it has no sentence for, or an event shaped otherwise than its sentence expects, is
    shown raw; `action` is left to the caller (None)."""

    LINES: Mapping[str, Callable[[Any, Mapping[str, Any]], str]] = {}

    def learn(self, view: Mapping[str, Any]) -> None:
        pass

    def line(self, kind: str, data: Mapping[str, Any]) -> str | None:
        if kind == "action":
            return None
        say = self.LINES.get(kind)
        try:
            return say(self, data) if say else describe_event(kind, data)
        except (KeyError, TypeError, ValueError, IndexError):
            return describe_event(kind, data)


class Narrator:
    """Knows nothing about the game: every event but `action` is shown raw."""

    def learn(self, view: Mapping[str, Any]) -> None:
        pass

    def line(self, kind: str, data: Mapping[str, Any]) -> str | None:
        return None if kind == "action" else describe_event(kind, data)
