"""The state of a Dynamit Joe match: JSON-plain dicts and lists, cheap to clone, lossless to
serialize. Characters and objects are dicts keyed by name and object id."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from partida.engine import copy_plain


@dataclass
class JoeState:
    scenario: str
    seats: int
    options: dict[str, Any]
    chars: dict[str, dict[str, Any]]        # name -> character card (see rules.new_character)
    objects: dict[str, dict[str, Any]]      # id -> object marker (holder or zone)
    order: list[str]                        # characters in scenario order
    locks: dict[str, bool]                  # lock id -> still holds
    piles: dict[str, list[int]]             # easy/average/hard/panic draw piles, top first (hidden)
    discards: dict[str, list[int]]
    jokers_left: list[str]                  # jokers nobody was dealt (hidden)
    round: int = 0                          # 0 until the first chip is drawn
    pool: list[str] = field(default_factory=list)   # chips still in the bag this round
    active: str | None = None
    ap: int = 0
    queue: list[dict[str, Any]] = field(default_factory=list)   # resolution tasks, front first
    prompt: dict[str, Any] | None = None    # a pending decision outside the active turn
    asked: list[str] = field(default_factory=list)  # asked about initiative before this draw
    noise: bool = False                     # a shot or an explosion has been heard
    gold_off: dict[str, int] = field(default_factory=dict)  # side -> gold carried off the board
    allegiance: dict[str, str] = field(default_factory=dict)  # seat -> side given by 8.1
    result: dict[str, Any] | None = None

    def clone(self) -> JoeState:
        # Hand-written per field: the conformance suite clones at every step, and a generic deep
        # copy was the bulk of its time. Characters and objects are flat dicts (lists inside a
        # character are copied); tasks may hold lists, so they take the generic copy.
        return JoeState(
            scenario=self.scenario, seats=self.seats, options=dict(self.options),
            chars={n: {**c, "guns": list(c["guns"]), "objects": list(c["objects"]),
                       "jokers_played": list(c["jokers_played"])}
                   for n, c in self.chars.items()},
            objects={o: dict(v) for o, v in self.objects.items()},
            order=list(self.order), locks=dict(self.locks),
            piles={k: list(v) for k, v in self.piles.items()},
            discards={k: list(v) for k, v in self.discards.items()},
            jokers_left=list(self.jokers_left), round=self.round, pool=list(self.pool),
            active=self.active, ap=self.ap, queue=copy_plain(self.queue),
            prompt=copy_plain(self.prompt),
            asked=list(self.asked), noise=self.noise, gold_off=dict(self.gold_off),
            allegiance=dict(self.allegiance),
            result=copy_plain(self.result))

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.clone().__dict__)
        if not out["allegiance"]:
            # Written only once 8.1 has changed a seat's side: every other state keeps the
            # form (and digest) it had before the field existed.
            del out["allegiance"]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> JoeState:
        unknown = set(data) - _FIELDS
        if unknown:
            raise ValueError(f"unknown state fields: {sorted(unknown)}")
        return cls(**dict(data)).clone()  # the clone detaches it from `data`

    # ----- small derived facts ----------------------------------------------------------------
    def standing(self, name: str) -> bool:
        """On the board, alive, free and not arrested: a character who still takes part."""
        c = self.chars[name]
        return not (c["dead"] or c["captured"] or c["left"] or c["tied"] or c["locked"])

    def enemies(self, a: str, b: str) -> bool:
        return self.chars[a]["side"] != self.chars[b]["side"]

    def held(self, name: str) -> list[str]:
        c = self.chars[name]
        return [*c["guns"], *c["objects"]]

    def occupied(self) -> set[str]:
        """Zones holding a living character on the board (they block line of sight, 6.1)."""
        return {c["zone"] for c in self.chars.values()
                if not c["dead"] and not c["left"] and not c["captured"] and c["zone"]}

    def in_zone(self, zone: str) -> list[str]:
        return [n for n in self.order if self.chars[n]["zone"] == zone
                and not self.chars[n]["dead"] and not self.chars[n]["left"]
                and not self.chars[n]["captured"]]


_FIELDS = {f.name for f in fields(JoeState)}
