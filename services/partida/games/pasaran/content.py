"""¿Pasarán? content (map, counters, tables, cards) loaded from content/*.json and validated.
The map, counter mix, charts and most card figures are reconstructions (see RULES.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

_DIR = Path(__file__).parent / "content"

Side = Literal["rep", "nat"]
SIDES: tuple[Side, Side] = ("rep", "nat")
Kind = Literal["inf", "tank", "hq", "air"]


_INDEX: dict[int, dict[str, dict]] = {}
"""Look-up tables per loaded Content (by identity: plain dicts, as pydantic attribute access
is slow in the engine's inner loops)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Area(_Model):
    id: str
    name: str
    kind: Literal["land", "sea", "mountain", "neutral"]
    terrain: str
    city: str | None
    bp: int
    coast: bool
    control: Side | None
    city_control: Side | None
    adjacent: tuple[str, ...]


class MapData(_Model):
    source: str
    version: int
    airbase_only: tuple[str, ...]
    andalusia: tuple[str, ...]
    madrid: str
    island_coasts: dict[str, tuple[str, ...]]   # island -> the coastal areas facing it
    not_invadable: tuple[str, ...]
    areas: tuple[Area, ...]
    rail: tuple[tuple[str, str], ...]

    @model_validator(mode="after")
    def _consistent(self) -> MapData:
        by = {a.id: a for a in self.areas}
        if len(by) != len(self.areas):
            raise ValueError("area ids repeat")
        for a in self.areas:
            for b in a.adjacent:
                if b not in by or a.id not in by[b].adjacent:
                    raise ValueError(f"adjacency {a.id}-{b} is not symmetric or names no area")
            if (a.kind == "land") != (a.control is not None):
                raise ValueError(f"{a.id}: only land areas have a controller")
            if (a.city is None) != (a.city_control is None):
                raise ValueError(f"{a.id}: a city and its controller go together")
        for x, y in self.rail:
            if y not in by.get(x, Area.model_construct(adjacent=())).adjacent:
                raise ValueError(f"rail link {x}-{y} joins no adjacent areas")
        facing = [a for coasts in self.island_coasts.values() for a in coasts]
        for ref in (*self.airbase_only, *self.andalusia, self.madrid, *self.island_coasts,
                    *facing, *self.not_invadable):
            if ref not in by:
                raise ValueError(f"{ref} names no area")
        return self


class Unit(_Model):
    id: str
    side: Side
    kind: Kind
    front: int
    back: int | None
    tag: Literal["militia", "regular", "int", "african", "italian", "lc"]
    name: str | None = None
    command: tuple[int, int] | None = None
    star: str | None = None
    start: str | None = None
    in_city: bool = False
    arrive: int | None = None

    @model_validator(mode="after")
    def _shape(self) -> Unit:
        if (self.kind == "hq") != (self.command is not None):
            raise ValueError(f"{self.id}: HQs, and only they, have a command rating")
        if sum(x is not None for x in (self.start, self.arrive, self.star)) > 1:
            raise ValueError(f"{self.id}: a unit starts on the map, arrives or enters by card")
        if self.back is not None and self.back > self.front and self.kind != "hq":
            raise ValueError(f"{self.id}: a back is weaker than the front (2.1)")
        return self


class Counters(_Model):
    source: str
    version: int
    rail_moves: dict[str, int]
    coastal_moves: dict[str, int]
    trenches: dict[str, int]
    units: tuple[Unit, ...]


class Card(_Model):
    id: str
    name: str
    side: Literal["rep", "nat", "both"]
    cost: int
    after: Literal["discard", "bottom", "permanent"]
    source: Literal["appendix", "reconstruction"]
    earliest: int | None = None
    latest: int | None = None
    requires_permanent: str | None = None
    requires_french_border: bool = False
    requires_city: str | None = None
    needs_chits: bool = False
    effect: dict[str, Any] | None = None


class Cards(_Model):
    source: str
    version: int
    start_in_hand: dict[str, tuple[str, ...]]
    cards: tuple[Card, ...]


class Tables(_Model):
    source: str
    version: int
    quarters: tuple[str, ...]
    battle_chart: tuple[int, ...]
    weather_bad_up_to: dict[str, int]
    terrain: dict[str, dict[str, int | str]]
    range: dict[Kind, int]
    rebase_range: int
    air_mission_return: int
    anti_aircraft: int
    build_delay: dict[Kind, int]
    cost_factor: dict[Kind, int]
    hq_rebuild_cost: int
    city_stack: int
    city_attackers: int
    victory_bp: int
    chits: dict[str, dict[str, int]]       # 9.4: chit kind -> count per side and its effect
    fog_stack: int                          # 9.2: the largest stack under fog of war


class Content(_Model):
    map: MapData
    counters: Counters
    cards: Cards
    tables: Tables

    @model_validator(mode="after")
    def _references(self) -> Content:
        areas = {a.id: a for a in self.map.areas}
        card_ids = {c.id for c in self.cards.cards}
        for u in self.counters.units:
            if u.start is not None:
                a = areas.get(u.start)
                if a is None or a.kind != "land" or a.control is None:
                    raise ValueError(f"{u.id} starts in {u.start}, not a land area")
                owner = a.city_control if u.in_city else a.control
                if owner != u.side:
                    raise ValueError(f"{u.id} starts in a place its side does not hold")
            if u.star is not None and u.star not in card_ids:
                raise ValueError(f"{u.id}: no card {u.star}")
        for a in self.map.areas:
            if a.kind == "land" and a.terrain not in self.tables.terrain:
                raise ValueError(f"{a.id}: unknown terrain {a.terrain}")
        for c in self.cards.cards:
            if c.requires_permanent is not None and c.requires_permanent not in card_ids:
                raise ValueError(f"{c.id}: requires an unknown card")
        return self

    # ----- look-ups (built once, after validation) --------------------------------------------
    def model_post_init(self, _context: object) -> None:
        rail: dict[str, list[str]] = {}
        for x, y in self.map.rail:
            rail.setdefault(x, []).append(y)
            rail.setdefault(y, []).append(x)
        _INDEX[id(self)] = {"area": {a.id: a for a in self.map.areas},
                       "unit": {u.id: u for u in self.counters.units},
                       "card": {c.id: c for c in self.cards.cards},
                       "rail": {k: sorted(v) for k, v in rail.items()}}

    def area(self, area_id: str) -> Area:
        return _INDEX[id(self)]["area"][area_id]

    def unit(self, unit_id: str) -> Unit:
        return _INDEX[id(self)]["unit"][unit_id]

    def card(self, card_id: str) -> Card:
        return _INDEX[id(self)]["card"][card_id]

    def rail_neighbours(self, area_id: str) -> list[str]:
        return _INDEX[id(self)]["rail"].get(area_id, [])


@cache
def load() -> Content:
    """Read and validate every content file (once per process)."""

    def read(name: str) -> object:
        return json.loads((_DIR / f"{name}.json").read_text(encoding="utf-8"))

    return Content.model_validate({"map": read("map"), "counters": read("counters"),
                                   "cards": read("cards"), "tables": read("tables")})
