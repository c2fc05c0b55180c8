"""The state of a ¿Pasarán? match: JSON-plain dicts and lists, cheap to clone, lossless to
serialize. Places are area ids, or "<area>.c" for the city inside an area."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from partida.engine import copy_plain


@dataclass
class PasaranState:
    seats: int
    options: dict[str, Any]
    units: dict[str, dict[str, Any]]       # id -> at, face, status, arrive, moved, reacted, rebased
    control: dict[str, str]                # land area -> side holding it
    city_control: dict[str, str]           # area with a city -> side holding the city
    deck: list[str]                        # top first (hidden from both sides)
    hands: dict[str, list[dict[str, Any]]]  # side -> [{card, turn acquired}] (secret)
    turn: int = 1                          # 1 = Q3 1936 ... 12 = Q2 1939
    phase: str = "reinforce"               # reinforce, segment, cards, production, over
    step: str = ""                         # inside a segment: rail, move, react, combat, ...
    initiative: str | None = None          # side that won the initiative this turn
    last_initiative: str | None = None
    active: str = ""                       # side whose action segment runs ("" between them)
    segment: int = 0                       # 0: the initiative side's segment, 1: the other's
    exploiting: bool = False               # the segment is in its exploitation part (6.5)
    weather: str = "good"
    bp: dict[str, int] = field(default_factory=lambda: {"rep": 0, "nat": 0})
    rail_left: int = 0
    coast_left: int = 0
    airlift_left: int = 0
    sea_left: int = 0                      # infantry that may still attack by sea (Invasion)
    attacks: list[str] = field(default_factory=list)     # places attacked in this step
    sieged: list[str] = field(default_factory=list)      # areas whose city was besieged
    # or attacked this segment (6.4.5: a siege is instead of an attack)
    command_used: dict[str, int] = field(default_factory=dict)  # hq -> units sent this step
    combat: dict[str, Any] | None = None
    discard: list[str] = field(default_factory=list)
    permanent: list[str] = field(default_factory=list)
    offer: dict[str, Any] | None = None    # {side, cards}: the two cards drawn (secret)
    bought: list[str] = field(default_factory=list)      # sides done with cards this turn
    done: list[str] = field(default_factory=list)        # sides done with this phase
    flags: list[str] = field(default_factory=list)       # card effects lasting this turn
    trenches: list[dict[str, Any]] = field(default_factory=list)  # 9.5: side, place, turn, done
    chits: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # 9.4: side -> cup, hand
    result: dict[str, Any] | None = None

    def clone(self) -> PasaranState:
        return PasaranState(**{f: copy_plain(getattr(self, f)) for f in _FIELDS})

    def to_dict(self) -> dict[str, Any]:
        return {f: copy_plain(getattr(self, f)) for f in _FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PasaranState:
        unknown = set(data) - set(_FIELDS)
        if unknown:
            raise ValueError(f"unknown state fields: {sorted(unknown)}")
        return cls(**{k: copy_plain(v) for k, v in data.items()})

    # ----- small derived facts ----------------------------------------------------------------
    def on_map(self, side: str | None = None) -> list[str]:
        return sorted(u for u, r in self.units.items() if r["status"] == "map"
                      and (side is None or _side(u, self) == side))


def _side(uid: str, state: PasaranState) -> str:
    return state.units[uid]["side"]


_FIELDS = tuple(f.name for f in fields(PasaranState))
