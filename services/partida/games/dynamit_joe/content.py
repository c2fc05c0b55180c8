"""Dynamit Joe content (board, objects, characters, decks, scenarios) loaded from content/*.json
and validated. The board and the card faces are reconstructions (see RULES.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_DIR = Path(__file__).parent / "content"

Point = tuple[float, float]
Segment = tuple[Point, Point]
Result = Literal["miss", "jam", "wound1", "wound2", "panic", "panic_wound1"]
Weapon = Literal["colt", "shotgun", "rifle", "hunting_rifle", "dynamite", "knife"]
LEVELS = ("easy", "average", "hard")
PANIC_CARDS = ("no_effect", "shuffle_all", "courage", "ap_minus_1", "ap_minus_2", "luck_minus",
               "luck_plus", "flight_1", "flight_2", "flight_3", "total_panic", "blind_panic",
               "clumsiness")
JOKERS = ("adrenaline", "weaponsmith", "luck", "rapid_loading", "diversion", "energy", "ambush",
          "initiative", "mortal_fear", "weak_spot", "precision", "quick_pickup", "speed",
          "resistance", "cold_blooded", "sharpshooter", "instinctive_shot")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Zone(_Model):
    id: str
    name: str
    space: str                      # "outside" or the building the zone lies in
    centre: Point
    places: tuple[str, ...] = ()    # the names chapter 9 uses for it
    edge: bool = False              # on the board edge: characters may leave from here


class Link(_Model):
    a: str
    b: str
    kind: Literal["open", "door", "window", "fence"]
    at: Point | None = None         # the centre of the door or window
    lock: str | None = None         # a lock or bars a scenario may close

    @model_validator(mode="after")
    def _opening(self) -> Link:
        if (self.kind in ("door", "window")) != (self.at is not None):
            raise ValueError(f"{self.a}-{self.b}: doors and windows, and only they, have 'at'")
        return self


class Board(_Model):
    source: str
    version: int
    width: float
    height: float
    zones: tuple[Zone, ...]
    links: tuple[Link, ...]
    walls: tuple[Segment, ...]
    fences: tuple[Segment, ...]
    trees: tuple[Segment, ...]
    centre_radius: float = Field(gt=0)
    opening_gap: float = Field(gt=0)

    @model_validator(mode="after")
    def _consistent(self) -> Board:
        ids = [z.id for z in self.zones]
        if len(set(ids)) != len(ids):
            raise ValueError("zone ids repeat")
        pairs = set()
        for link in self.links:
            if link.a not in ids or link.b not in ids or link.a == link.b:
                raise ValueError(f"bad link {link.a}-{link.b}")
            pair = frozenset((link.a, link.b))
            if pair in pairs:
                raise ValueError(f"two links between {link.a} and {link.b}")
            pairs.add(pair)
            if link.kind in ("door", "window"):
                spaces = {self.zone(link.a).space, self.zone(link.b).space}
                if len(spaces) != 2:
                    raise ValueError(f"{link.a}-{link.b}: an opening joins two spaces")
            elif self.zone(link.a).space != self.zone(link.b).space:
                raise ValueError(f"{link.a}-{link.b}: spaces meet only at doors and windows")
        for z in self.zones:
            x, y = z.centre
            if not (0 <= x <= self.width and 0 <= y <= self.height):
                raise ValueError(f"{z.id}: centre off the board")
        return self

    def zone(self, zone_id: str) -> Zone:
        for z in self.zones:
            if z.id == zone_id:
                return z
        raise KeyError(zone_id)


class ObjectKind(_Model):
    kind: Literal["colt", "shotgun", "rifle", "hunting_rifle", "dynamite", "knife", "whisky",
                  "rock", "nugget"]
    name: str
    gun: bool
    capacity: int = 0
    range: int = 0
    price: int | None = None


class Objects(_Model):
    source: str
    version: int
    objects: tuple[ObjectKind, ...]
    max_guns: int
    max_objects: int

    def kind(self, kind: str) -> ObjectKind:
        return next(o for o in self.objects if o.kind == kind)


class CharacterCard(_Model):
    name: str
    gun: str
    objects: tuple[str, ...] = Field(max_length=2)
    reconstructed: bool


class Characters(_Model):
    source: str
    version: int
    characters: tuple[CharacterCard, ...]


class Face(_Model):
    count: int = Field(ge=1)
    results: dict[Weapon, Result]


class PanicSpec(_Model):
    card: str
    count: int = Field(ge=1)


class Decks(_Model):
    source: str
    version: int
    marksmen: dict[Literal["easy", "average", "hard"], tuple[Face, ...]]
    panic: tuple[PanicSpec, ...]
    jokers: tuple[str, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Decks:
        if set(self.marksmen) != set(LEVELS):
            raise ValueError("three marksmen piles: easy, average, hard")
        if {p.card for p in self.panic} != set(PANIC_CARDS):
            raise ValueError("the panic deck holds every panic card of the book")
        if sorted(self.jokers) != sorted(JOKERS):
            raise ValueError("one of each joker")
        return self


class Aim(_Model):
    kind: Literal["eliminate", "gold"]
    targets: tuple[str, ...] = ()      # character names, or "opponents"
    free: str | None = None            # a captive the side must free
    gold_to_win: int = 0


class Side(_Model):
    id: str
    characters: tuple[str, ...]
    aim: Aim
    can_leave: bool = False


class Placed(_Model):
    kind: str
    value: int = 0
    zone: str | None = None


class FaceDown(_Model):
    zones: tuple[str, ...]
    known_to: str
    markers: tuple[Placed, ...]


class Choice(_Model):
    """Characters whose starting zone their players choose among `zones` (9.7, 9.8)."""
    characters: tuple[str, ...]
    zones: tuple[str, ...]
    out_of_sight: bool = False   # out of every opponent's line of sight (9.7)


class GroundChoice(_Model):
    """A character's gear of `kinds` laid on the ground in one zone of `zones`, chosen by the
    side `by` (9.6)."""
    by: str
    kinds: tuple[str, ...]
    zones: tuple[str, ...]


class ScenarioSpec(_Model):
    id: str
    title: str
    section: str
    min_seats: int
    max_seats: int
    round_limit: int = Field(ge=1)
    sides: tuple[Side, ...]
    positions: dict[str, str]
    ambush: tuple[str, ...] = ()
    dormant: dict[str, str] = {}
    first_round_only: tuple[str, ...] = ()
    objects: tuple[Placed, ...] = ()
    locks: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()
    locked_up: tuple[str, ...] = ()
    equipment_on_ground: dict[str, dict[str, str]] = {}
    face_down: FaceDown | None = None
    choose: tuple[Choice, ...] = ()
    ground_choice: dict[str, GroundChoice] = {}

    @property
    def characters(self) -> list[str]:
        return [c for s in self.sides for c in s.characters]


class Scenarios(_Model):
    source: str
    version: int
    scenarios: tuple[ScenarioSpec, ...]


class Content(_Model):
    board: Board
    objects: Objects
    characters: Characters
    decks: Decks
    scenarios: Scenarios

    @model_validator(mode="after")
    def _consistent(self) -> Content:
        names = {c.name for c in self.characters.characters}
        zones = {z.id for z in self.board.zones}
        locks = {link.lock for link in self.board.links if link.lock}
        kinds = {o.kind for o in self.objects.objects}
        for c in self.characters.characters:
            if not self.objects.kind(c.gun).gun or any(o not in kinds for o in c.objects):
                raise ValueError(f"{c.name}: unknown equipment")
        for sc in self.scenarios.scenarios:
            chars = sc.characters
            if len(set(chars)) != len(chars) or not set(chars) <= names:
                raise ValueError(f"{sc.id}: characters must be distinct and known")
            if set(sc.positions) != set(chars) or not set(sc.positions.values()) <= zones:
                raise ValueError(f"{sc.id}: every character starts in a known zone")
            if not set(sc.locks) <= locks:
                raise ValueError(f"{sc.id}: unknown lock")
            if not sc.min_seats >= len(sc.sides) or sc.max_seats > len(chars):
                raise ValueError(f"{sc.id}: seats must allow one side each, one character each")
            for trigger in sc.dormant.values():
                if trigger != "noise" and not trigger.startswith("sight:"):
                    raise ValueError(f"{sc.id}: unknown trigger {trigger}")
            for o in sc.objects:
                if o.zone not in zones:
                    raise ValueError(f"{sc.id}: object off the board")
            sides = {side.id for side in sc.sides}
            for ch in sc.choose:
                if not set(ch.characters) <= set(chars) or not ch.zones \
                        or not set(ch.zones) <= zones:
                    raise ValueError(f"{sc.id}: a choice of zone names unknown things")
            for name, g in sc.ground_choice.items():
                if name not in chars or g.by not in sides or not g.zones \
                        or not set(g.zones) <= zones:
                    raise ValueError(f"{sc.id}: a choice of zone for gear names unknown things")
        return self

    def scenario(self, scenario_id: str) -> ScenarioSpec:
        for s in self.scenarios.scenarios:
            if s.id == scenario_id:
                return s
        raise KeyError(scenario_id)

    def character(self, name: str) -> CharacterCard:
        return next(c for c in self.characters.characters if c.name == name)

    def marksmen_cards(self, level: str) -> list[dict[str, str]]:
        """The pile expanded to one entry per card; a card's id is its index here."""
        pile = self.decks.marksmen[level]  # type: ignore[index]  # a level checked by callers
        return [{str(k): str(v) for k, v in f.results.items()} for f in pile
                for _ in range(f.count)]

    def panic_cards(self) -> list[str]:
        return [p.card for p in self.decks.panic for _ in range(p.count)]


def _read(name: str) -> dict:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


@cache
def load() -> Content:
    return Content(
        board=Board.model_validate(_read("board.json")),
        objects=Objects.model_validate(_read("objects.json")),
        characters=Characters.model_validate(_read("characters.json")),
        decks=Decks.model_validate(_read("decks.json")),
        scenarios=Scenarios.model_validate(_read("scenarios.json")),
    )
