"""Las Montañas content (board, tiles, cards, set-up) loaded from content/*.json and validated."""

from __future__ import annotations

import json
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_DIR = Path(__file__).parent / "content"

Terrain = Literal["water", "snow", "ice"]
Band = Literal["long", "medium", "short"]
Die = Literal["red", "blue", "white"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Alley(_Model):
    number: int = Field(ge=1, le=6)
    terrain: Terrain


class BandSpec(_Model):
    id: Band
    colour: str
    squares: int = Field(ge=1, le=20)
    reconstructed: bool = False


class Board(_Model):
    source: str
    version: int
    alleys: tuple[Alley, ...]
    bands: tuple[BandSpec, ...]  # from the monster access (far) side towards the ship
    ship_sections: int

    @model_validator(mode="after")
    def _consistent(self) -> Board:
        if [a.number for a in self.alleys] != list(range(1, self.ship_sections + 1)):
            raise ValueError("one alley per ship section, numbered from 1")
        if [b.id for b in self.bands] != ["long", "medium", "short"]:
            raise ValueError("bands run long, medium, short")
        return self


class MonsterKind(_Model):
    kind: str
    name: str
    count: int = Field(ge=1)
    die: Die
    life: int = Field(ge=1)


class SpecialKind(_Model):
    kind: str
    name: str
    effect: Literal["advance", "sanity_loss", "lateral", "immobilize", "none"]
    terrain: Terrain | None = None
    band: Band | None = None
    squares: int = 0
    shift: int = 0
    reconstructed: bool = False


class Tiles(_Model):
    source: str
    version: int
    monsters: tuple[MonsterKind, ...]
    specials: tuple[SpecialKind, ...]
    starters: dict[str, int]

    @model_validator(mode="after")
    def _consistent(self) -> Tiles:
        kinds = {m.kind: m for m in self.monsters}
        for kind, n in self.starters.items():
            if kind not in kinds or kinds[kind].count < n:
                raise ValueError(f"starter {kind} is not in the monster mix")
        return self


CardKind = Literal[
    "range", "combined", "sniper", "barricade", "arsenal", "head_to_head", "bombs", "redeploy"
]


class CardSpec(_Model):
    kind: CardKind
    band: Band | None = None
    terrain: Terrain | None = None
    count: int = Field(ge=1)


class Cards(_Model):
    source: str
    version: int
    cards: tuple[CardSpec, ...]


class Setup(_Model):
    source: str
    version: int
    teams: tuple[str, ...]
    explorers_per_team: int
    hand_limit: int
    solo_hand_limit: int
    barricades: int         # placed at set-up
    barricade_tokens: int   # in the box: the most that can stand at once
    new_tiles_per_turn: int
    max_discard: int
    max_exchange: int

    @model_validator(mode="after")
    def _consistent(self) -> Setup:
        if not 0 <= self.barricades <= self.barricade_tokens:
            raise ValueError("set-up cannot place more barricades than there are tokens")
        return self


class Card(_Model):
    """One physical card: its id is its index in the expanded deck."""

    id: int
    kind: CardKind
    band: Band | None = None
    terrain: Terrain | None = None

    # Cached (the models are frozen): legal actions read these for every card in every hand.
    @cached_property
    def type_key(self) -> tuple[str, str | None, str | None]:
        return (self.kind, self.band, self.terrain)

    @cached_property
    def name(self) -> str:
        words = {"range": f"{self.band}-range", "combined": "Combined attack",
                 "sniper": "Sniper", "barricade": "Barricade", "arsenal": "Search the arsenal",
                 "head_to_head": "Head-to-head", "bombs": "Bombs", "redeploy": "Move explorers"}
        base = words[self.kind]
        return f"{base} ({self.terrain})" if self.terrain else base


class Content(_Model):
    board: Board
    tiles: Tiles
    cards: tuple[Card, ...]
    setup: Setup

    # Board lookups, cached (the models are frozen): the legal actions ask them for every
    # monster and card on each call.
    @cached_property
    def alley_squares(self) -> int:
        return sum(b.squares for b in self.board.bands)

    @cached_property
    def band_by_square(self) -> tuple[Band, ...]:
        return tuple(b.id for b in self.board.bands for _ in range(b.squares))

    def band_of(self, square: int) -> Band:
        """The band of a square counted from the access edge (0) towards the ship."""
        if not 0 <= square < self.alley_squares:
            raise ValueError("square is inside the ship")
        return self.band_by_square[square]

    def terrain_of(self, alley: int) -> Terrain:
        return self.board.alleys[alley - 1].terrain

    @cached_property
    def monster_kinds(self) -> dict[str, MonsterKind]:
        return {m.kind: m for m in self.tiles.monsters}

    def monster_kind(self, kind: str) -> MonsterKind:
        return self.monster_kinds[kind]

    def special(self, kind: str) -> SpecialKind | None:
        return next((s for s in self.tiles.specials if s.kind == kind), None)

    @property
    def monster_total(self) -> int:
        return sum(m.count for m in self.tiles.monsters)


def _read(name: str) -> dict:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


@cache
def load() -> Content:
    cards_spec = Cards.model_validate(_read("cards.json"))
    cards: list[Card] = []
    for spec in cards_spec.cards:
        for _ in range(spec.count):
            cards.append(Card(id=len(cards), kind=spec.kind, band=spec.band, terrain=spec.terrain))
    return Content(
        board=Board.model_validate(_read("board.json")),
        tiles=Tiles.model_validate(_read("tiles.json")),
        cards=tuple(cards),
        setup=Setup.model_validate(_read("setup.json")),
    )
