"""The state of a Bandas match: JSON-plain dicts keyed by model and vehicle id."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from partida.engine import copy_plain

# Model statuses (Rulebook, Heridas; "prone" is the state after a survived fall, Caídas).
STANDING, PRONE, DOWN, STUNNED, OUT = "standing", "prone", "down", "stunned", "out"


@dataclass
class BandasState:
    table: str
    seats: int
    options: dict[str, Any]
    sides: list[str]                                # side id by seat
    models: dict[str, dict[str, Any]]               # id -> model (see rules.new_model)
    vehicles: dict[str, dict[str, Any]]             # id -> vehicle (see rules.new_vehicle)
    loot: list[list[float]] = field(default_factory=list)   # crates lying on the table
    turn: int = 0
    order: list[int] = field(default_factory=list)  # seats by initiative this turn
    cursor: int = 0                                 # index in `order` of the seat to activate
    active: dict[str, Any] | None = None            # the unit being activated and its tally
    routed: list[int] = field(default_factory=list)
    hold: int | None = None                         # seat asked to go on after a resignation
    result: dict[str, Any] | None = None

    def clone(self) -> BandasState:
        return BandasState(**{f.name: copy_plain(getattr(self, f.name)) for f in fields(self)})

    def to_dict(self) -> dict[str, Any]:
        return dict(self.clone().__dict__)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BandasState:
        unknown = set(data) - _FIELDS
        if unknown:
            raise ValueError(f"unknown state fields: {sorted(unknown)}")
        return cls(**dict(data)).clone()

    # ----- small derived facts ----------------------------------------------------------------
    def tally(self) -> dict[str, Any]:
        """The activation under way (there must be one)."""
        assert self.active is not None, "no unit is being activated"
        return self.active

    def in_play(self, mid: str) -> bool:
        return self.models[mid]["status"] != OUT and self.models[mid]["seat"] not in self.routed

    def place(self, mid: str) -> tuple[float, float]:
        """Where a model is on the table: a rider is at its vehicle's centre."""
        m = self.models[mid]
        if m["vehicle"]:
            v = self.vehicles[m["vehicle"]]
            return (v["x"], v["y"])
        return (m["x"], m["y"])

    def crew(self, vid: str) -> list[str]:
        return [mid for mid, m in self.models.items() if m["vehicle"] == vid and self.in_play(mid)]

    def driver(self, vid: str) -> str | None:
        return next((mid for mid in self.crew(vid) if self.models[mid]["role"] == "driver"), None)


_FIELDS = {f.name for f in fields(BandasState)}
