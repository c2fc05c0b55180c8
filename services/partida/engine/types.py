"""Plain value types shared by every game: info, actions, events, outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Seat = int
"""A seat is its index, 0-based, in the order seats were given to `new_state`."""

Json = Any


def copy_plain(value: Json) -> Json:
    """A deep copy of JSON-plain containers (dicts and lists), scalars shared: what game
    states' clone, to_dict and from_dict need, much faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    return value
"""JSON-plain data: dicts with str keys, lists, str, int, float, bool, None."""


@dataclass(frozen=True)
class Scenario:
    """One way to start a game: its id, seat range and sides."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    sides: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class GameInfo:
    """What services read about a game instead of special-casing it."""

    id: str
    title: str
    scenarios: tuple[Scenario, ...]
    hidden_information: bool
    options: Mapping[str, str] = field(default_factory=dict)  # option name -> help text
    # Which edition of the engine's rules this is: raised by every change that would
    # adjudicate a logged action otherwise. A match records the revision it began under, so
    # its audit can say why an old log no longer replays (rules.audit).
    rules_revision: int = 1

    def scenario(self, scenario_id: str) -> Scenario:
        for s in self.scenarios:
            if s.id == scenario_id:
                return s
        raise KeyError(scenario_id)


@dataclass(frozen=True)
class Action:
    """A legal choice: a stable id that `apply` accepts and a sentence for people."""

    id: str
    description: str


@dataclass(frozen=True)
class Event:
    """Something that happened, with who may see it.

    `visible_to` None means public. Otherwise only those seats see `data`; everyone
    else sees `public` (a redacted form of the data) or, when `public` is None, nothing.
    """

    kind: str
    data: Mapping[str, Json]
    visible_to: frozenset[Seat] | None = None
    public: Mapping[str, Json] | None = None

    def for_seat(self, seat: Seat | None) -> Event | None:
        """The event as `seat` (None: a spectator) may see it, or None if hidden."""
        if self.visible_to is None or (seat is not None and seat in self.visible_to):
            return Event(self.kind, self.data)
        if self.public is None:
            return None
        return Event(self.kind, self.public)

    def to_dict(self) -> dict[str, Json]:
        out: dict[str, Json] = {"kind": self.kind, "data": dict(self.data)}
        if self.visible_to is not None:
            out["visible_to"] = sorted(self.visible_to)
            out["public"] = None if self.public is None else dict(self.public)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Json]) -> Event:
        vis = d.get("visible_to")
        return cls(d["kind"], d["data"], None if vis is None else frozenset(vis), d.get("public"))


@dataclass(frozen=True)
class Outcome:
    """How a match ended: winners (empty on a draw or a shared loss), scores and why."""

    winners: tuple[Seat, ...]
    reason: str
    draw: bool = False
    scores: Mapping[Seat, float] = field(default_factory=dict)
