"""Batallitas content (boards, arsenal, squads, events, scenarios): loaded and validated.

Boards are text grids (see content/boards/FORMAT.md); everything else is JSON. Loading fails
loudly on any inconsistency: an unknown character, a weapon no squad table knows, a scenario that
names a missing board feature.
"""

from __future__ import annotations

import json
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_DIR = Path(__file__).parent / "content"

Terrain = Literal["clear", "obstacle", "minor", "major"]
Side = Literal["papal", "rebel"]
Edge = Literal["north", "east", "south", "west"]
WeaponType = Literal["close", "short", "long", "heavy"]
Knack = Literal["command", "strategy", "leadership", "mastery", "precision"]
Flaw = Literal["antipathy", "atrophy", "inept", "hate", "clumsy"]
Family = Literal["macute", "fanhunter", "fan", "lethal_fan"]
Timing = Literal["pre_game", "turn_start", "activation", "own_action_phase", "before_roll",
                 "after_roll", "on_jam", "on_pupae", "any_time"]
Pos = tuple[int, int]
# A grid edge: ("v", x, y) is the edge west of cell (x, y); ("h", x, y) the edge north of it.
EdgeKey = tuple[str, int, int]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- boards -------------------------------------------------------------------------------

class CellSpec(_Model):
    terrain: Terrain
    indoor: bool
    name: str
    feature: str | None = None
    raised: bool = False  # stepping between raised and level cells costs like an obstacle
    flap: bool = False  # a door inside a cell: its terrain while closed, clear while open

    @model_validator(mode="after")
    def _flap_is_minor(self) -> CellSpec:
        if self.flap and self.terrain != "minor":
            raise ValueError("a flap is a minor obstruction while closed")
        return self


class EdgeSpec(_Model):
    kind: Literal["wall", "door"]
    name: str
    automatic: bool = False
    feature: str | None = None
    # None: either side; "indoor": only from an indoor cell; "outside:<feature>": only from a
    # cell without that feature.
    opens_from: str | None = None


class Legend(_Model):
    source: str
    version: int
    cells: dict[str, CellSpec]
    edges: dict[str, EdgeSpec]


class Door(_Model):
    """One door: one or more consecutive edges with the same letter along one grid line."""

    id: int
    spec: EdgeSpec
    edges: tuple[EdgeKey, ...]


class BoardFile(_Model):
    number: int = Field(ge=1, le=8)
    title: str
    version: int
    reconstruction: bool
    reconstructs: tuple[str, ...]
    width: int = Field(ge=1)
    height: int = Field(ge=1)
    legend: dict[str, CellSpec]
    edge_legend: dict[str, EdgeSpec]
    notes: tuple[str, ...]
    grid: tuple[str, ...]


class Board(_Model):
    """A parsed board: cells by (x, y), walls and doors by edge."""

    number: int
    title: str
    width: int
    height: int
    reconstruction: bool
    cells: tuple[tuple[CellSpec, ...], ...]  # [y][x]
    walls: frozenset[EdgeKey]
    doors: tuple[Door, ...]

    def cell(self, p: Pos) -> CellSpec:
        return self.cells[p[1]][p[0]]

    def positions(self) -> list[Pos]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def with_feature(self, feature: str) -> list[Pos]:
        return [p for p in self.positions() if self.cell(p).feature == feature]


def _cell_legend(shared: Legend, own: BoardFile) -> dict[str, CellSpec]:
    clash = set(shared.cells) & set(own.legend)
    if clash:
        raise ValueError(f"board {own.number} redefines shared cell characters {sorted(clash)}")
    return {**shared.cells, **own.legend}


def _edge_char(ch: str, vertical: bool, legend: dict[str, EdgeSpec], where: str) -> EdgeSpec | None:
    if ch == " ":
        return None
    wall = "|" if vertical else "-"
    if ch in "|-" and ch != wall:
        raise ValueError(f"{where}: {ch!r} is the wall of the other direction")
    if ch not in legend:
        raise ValueError(f"{where}: unknown edge character {ch!r}")
    return legend[ch]


def parse_board(shared: Legend, f: BoardFile) -> Board:
    """Read a board's grid picture (format: content/boards/FORMAT.md)."""
    w, h = f.width, f.height
    if len(f.grid) != 2 * h + 1 or any(len(line) != 2 * w + 1 for line in f.grid):
        raise ValueError(f"board {f.number}: the grid must be {2 * h + 1} lines of {2 * w + 1}")
    cells_legend = _cell_legend(shared, f)
    edges_legend = {**shared.edges, **f.edge_legend}
    if set(cells_legend) & set(edges_legend):
        raise ValueError(f"board {f.number}: a character is both a cell and an edge")
    g = f.grid
    for r in range(0, 2 * h + 1, 2):
        for c in range(0, 2 * w + 1, 2):
            if g[r][c] not in "+ ":
                raise ValueError(f"board {f.number}: corner at line {r} column {c} is {g[r][c]!r}")
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            ch = g[2 * y + 1][2 * x + 1]
            if ch not in cells_legend:
                raise ValueError(f"board {f.number}: unknown cell character {ch!r} at {(x, y)}")
            row.append(cells_legend[ch])
        rows.append(tuple(row))
    walls: set[EdgeKey] = set()
    door_chars: dict[EdgeKey, str] = {}
    for y in range(h + 1):
        for x in range(w + 1):
            for key, line, col, vertical in ((("v", x, y), 2 * y + 1, 2 * x, True),
                                             (("h", x, y), 2 * y, 2 * x + 1, False)):
                if line > 2 * h or col > 2 * w:
                    continue
                spec = _edge_char(g[line][col], vertical, edges_legend,
                                  f"board {f.number} edge {key}")
                if spec is None:
                    continue
                if spec.kind == "wall":
                    walls.add(key)
                else:
                    door_chars[key] = g[line][col]
    return Board(number=f.number, title=f.title, width=w, height=h,
                 reconstruction=f.reconstruction, cells=tuple(rows), walls=frozenset(walls),
                 doors=_group_doors(door_chars, edges_legend))


def _group_doors(door_chars: dict[EdgeKey, str], legend: dict[str, EdgeSpec]) -> tuple[Door, ...]:
    """Consecutive same-letter door edges along one grid line make one door."""
    doors: list[Door] = []
    seen: set[EdgeKey] = set()
    for key in sorted(door_chars):
        if key in seen:
            continue
        kind, x, y = key
        run = [key]
        step = (0, 1) if kind == "v" else (1, 0)
        nxt = (kind, x + step[0], y + step[1])
        while door_chars.get(nxt) == door_chars[key]:
            run.append(nxt)
            nxt = (kind, nxt[1] + step[0], nxt[2] + step[1])
        seen.update(run)
        doors.append(Door(id=len(doors), spec=legend[door_chars[key]], edges=tuple(run)))
    return tuple(doors)


# --- arsenal and squads ------------------------------------------------------------------------

class PupaeValue(_Model):
    dice: int = Field(ge=0)
    muscles: bool = False  # "Mu+n": the wielder's Muscles plus `dice`
    contusion: bool = False  # "*": pájaras instead of pupae


class Weapon(_Model):
    id: str
    name: str
    type: WeaponType
    range: int | None = Field(default=None, ge=1)
    rof: int | None = Field(default=None, ge=1)
    pupae: PupaeValue
    carried_by_all: bool = False
    sweep: bool = False
    dual: bool = False  # may be carried as a pair: listed twice in a nose's weapons
    area: bool = False
    grenade: bool = False
    alert: bool = False  # a heavy weapon that may still fire on alert
    lingers: Literal["blocks", "slows"] | None = None
    magazine: int | None = Field(default=None, ge=1)
    spare_magazines: int = 0
    screw_up: Literal["jam", "hits_self", "overheats"] | None = None
    reconstructed: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Weapon:
        ranged = self.type != "close"
        if ranged != (self.range is not None and self.rof is not None):
            raise ValueError(f"{self.id}: range and rate of fire exactly for firearms")
        if self.muscles_based != (self.type == "close"):
            raise ValueError(f"{self.id}: close-combat weapons and only they use Muscles")
        if self.type == "heavy" and self.magazine is None and not self.grenade:
            raise ValueError(f"{self.id}: heavy weapons have limited ammunition")
        if self.area and self.type != "heavy":
            raise ValueError(f"{self.id}: area weapons are heavy")
        return self

    @property
    def muscles_based(self) -> bool:
        return self.pupae.muscles


class Armour(_Model):
    id: str
    name: str
    cancels_surprise: bool = False
    pupae_minus_against: tuple[WeaponType, ...] = ()


class Arsenal(_Model):
    source: str
    version: int
    weapons: tuple[Weapon, ...]
    armour: tuple[Armour, ...]

    def weapon(self, wid: str) -> Weapon:
        return next(w for w in self.weapons if w.id == wid)


class NoseSpec(_Model):
    id: str
    name: str
    count: int = Field(ge=1)
    leader: bool = False
    actions: int = Field(ge=1)
    shooting: int = Field(ge=0)
    combat: int = Field(ge=0)
    muscles: int = Field(ge=0)
    pupae: int = Field(ge=1)
    knacks: tuple[Knack, ...] = ()
    flaws: tuple[Flaw, ...] = ()
    hates: Family | None = None
    weapons: tuple[str, ...]
    grenades: int = 0
    armour: str | None = None
    reconstructed: str | None = None

    @model_validator(mode="after")
    def _hate_names_a_target(self) -> NoseSpec:
        if ("hate" in self.flaws) != (self.hates is not None):
            raise ValueError(f"{self.id}: the hate flaw and its target go together")
        if "inept" in self.flaws and not self.leader:
            raise ValueError(f"{self.id}: only an original leader can be inept")
        return self


class SquadSpec(_Model):
    id: str
    name: str
    side: Side
    family: Family
    noses: tuple[NoseSpec, ...]
    leader_from: str | None = None  # the leader is one of another squad's nose types
    leader_chosen: bool = False  # the owner names the leader among noses with leadership

    @model_validator(mode="after")
    def _one_way_to_lead(self) -> SquadSpec:
        fixed = sum(n.count for n in self.noses if n.leader)
        ways = (fixed == 1) + (self.leader_from is not None) + self.leader_chosen
        if ways != 1:
            raise ValueError(f"{self.id}: exactly one way to get an original leader")
        if self.leader_chosen and not all("leadership" in n.knacks for n in self.noses):
            raise ValueError(f"{self.id}: a chosen leader needs leadership on every nose")
        return self

    @property
    def size(self) -> int:
        return sum(n.count for n in self.noses) + (1 if self.leader_from else 0)


class Squads(_Model):
    source: str
    version: int
    squads: tuple[SquadSpec, ...]


# --- events -----------------------------------------------------------------------------------

class EventCard(_Model):
    id: str
    deck: Side
    title: str
    timing: Timing
    effect: str
    squad_family: Family | None = None
    reconstructed: str | None = None


class Events(_Model):
    source: str
    version: int
    timings: dict[Timing, str]
    cards: tuple[EventCard, ...]

    @model_validator(mode="after")
    def _twelve_each(self) -> Events:
        for deck in ("papal", "rebel"):
            if sum(c.deck == deck for c in self.cards) != 12:
                raise ValueError(f"the {deck} deck has twelve cards")
        if len({c.id for c in self.cards}) != len(self.cards):
            raise ValueError("card ids are unique")
        return self

    def deck(self, side: Side) -> list[EventCard]:
        return [c for c in self.cards if c.deck == side]


# --- rules constants and markers ------------------------------------------------------------

class RulesTable(_Model):
    source: str
    version: int
    success_on: int
    infernal: dict[Literal["critical", "screw_up"], int]
    command_distance: int
    costs: dict[str, int]
    groups: dict[Literal["movement", "brawling", "misc"], tuple[str, ...]]
    cards_per_squad: int


class Markers(_Model):
    source: str
    version: int
    markers: dict[str, int]
    note: str


# --- scenarios --------------------------------------------------------------------------------

class Placement(_Model):
    board: int = Field(ge=1, le=8)
    col: int = Field(ge=0)
    row: int = Field(ge=0)


class AlternatePlacement(_Model):
    kind: Literal["alternate"]
    boards: int = Field(ge=1, le=8)
    first: Side


class Role(_Model):
    role: str
    count: int = Field(ge=1)
    where: Literal["free", "feature", "next_to_feature", "next_to_curtain"]
    feature: str | None = None
    unfilled: str | None = None  # why the role goes without a nose (RULES.md decision)
    leader: bool = False  # the squad's original leader takes this role


class LeaderStart(_Model):
    feature: str
    door_closed: bool = False


class Deploy(_Model):
    kind: Literal["edge", "cells", "roles", "opposite_edges"]
    edges: tuple[Edge, ...] = ()
    one_edge_per_squad: bool = False
    where: Literal["indoor"] | None = None
    board: int | None = None
    any_facing: bool = False
    leader: LeaderStart | None = None
    roles: tuple[Role, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> Deploy:
        if (self.kind == "edge") != bool(self.edges):
            raise ValueError("edge deployment names its edges, and only it")
        if (self.kind == "roles") != bool(self.roles):
            raise ValueError("role deployment lists its roles, and only it")
        return self


class Force(_Model):
    side: Side
    squad: str
    count: int = Field(ge=1)
    deploy: Deploy
    from_turn: int = 1
    command_distance: int | None = None
    exit_edge: Edge | None = None
    reconstructed: str | None = None


class Victory(_Model):
    side: Side | None  # None: a draw
    when: str
    text: str
    count: int | None = None


class HiddenMarkers(_Model):
    owner: Side
    board: int | Literal["chosen"]
    markers: tuple[Literal["decoy", "secret_passage", "teddy_bear"], ...]
    revealed_by: Literal["rebel_steps_on", "papal_generic_action"]
    barred_families: tuple[Family, ...] = ()


class Slider(_Model):
    """Scenario 5's getaway vehicle on board 8."""

    families: tuple[Family, ...]
    capacity: int = Field(ge=1)
    entry_cost: int = Field(ge=1)


class Scenario(_Model):
    id: str
    number: int = Field(ge=1, le=6)
    title: str
    boards: tuple[Placement, ...] = ()
    placement: AlternatePlacement | None = None
    forces: tuple[Force, ...]
    turn_limit: int | None = None  # the book's own limit
    turn_limit_option: int | None = None  # our default limit where the book has none
    special_rules: tuple[str, ...] = ()
    victory: tuple[Victory, ...]
    leader_busy_turns: int | None = None
    secret_door: dict[str, object] | None = None
    trolleys_in_play: int | None = None
    goal: dict[str, int] | None = None
    band_arms_at: str | None = None
    hidden_markers: HiddenMarkers | None = None
    slider: Slider | None = None

    @model_validator(mode="after")
    def _boards_or_placement(self) -> Scenario:
        if bool(self.boards) == (self.placement is not None):
            raise ValueError(f"{self.id}: fixed boards or player placement, not both")
        if (self.turn_limit is None) == (self.turn_limit_option is None):
            raise ValueError(f"{self.id}: either the book's turn limit or an option's default")
        spots = {(p.col, p.row) for p in self.boards}
        if len(spots) != len(self.boards):
            raise ValueError(f"{self.id}: two boards on one spot")
        return self

    def sides(self) -> set[Side]:
        return {f.side for f in self.forces}


class Content(_Model):
    legend: Legend
    boards: dict[int, Board]
    arsenal: Arsenal
    squads: dict[str, SquadSpec]
    events: Events
    scenarios: tuple[Scenario, ...]
    rules: RulesTable
    markers: Markers

    @model_validator(mode="after")
    def _cross_references(self) -> Content:
        known = {w.id for w in self.arsenal.weapons}
        armour = {a.id for a in self.arsenal.armour}
        for sq in self.squads.values():
            if sq.leader_from and sq.leader_from not in self.squads:
                raise ValueError(f"{sq.id}: leader from unknown squad {sq.leader_from}")
            for n in sq.noses:
                if not set(n.weapons) <= known or (n.armour and n.armour not in armour):
                    raise ValueError(f"{sq.id}/{n.id}: unknown weapon or armour")
                for w in self.arsenal.weapons:  # a pair: a `dual` weapon listed twice
                    if n.weapons.count(w.id) > (2 if w.dual else 1):
                        raise ValueError(f"{sq.id}/{n.id}: too many {w.id}")
        for sc in self.scenarios:
            for f in sc.forces:
                if f.squad not in self.squads or self.squads[f.squad].side != f.side:
                    raise ValueError(f"{sc.id}: force {f.squad} is not a {f.side} squad")
            for p in sc.boards:
                if p.board not in self.boards:
                    raise ValueError(f"{sc.id}: unknown board {p.board}")
        return self

    def scenario(self, sid: str) -> Scenario:
        return self._scenario_by_id[sid]

    @cached_property
    def _scenario_by_id(self) -> dict[str, Scenario]:  # asked for at almost every step
        return {s.id: s for s in self.scenarios}


def _read(name: str) -> dict:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


def load_board(number: int, legend: Legend | None = None) -> Board:
    shared = legend or Legend.model_validate(_read("boards/legend.json"))
    return parse_board(shared, BoardFile.model_validate(_read(f"boards/board-{number}.json")))


@cache
def load() -> Content:
    legend = Legend.model_validate(_read("boards/legend.json"))
    return Content(
        legend=legend,
        boards={n: load_board(n, legend) for n in range(1, 9)},
        arsenal=Arsenal.model_validate(_read("arsenal.json")),
        squads={s.id: s for s in Squads.model_validate(_read("squads.json")).squads},
        events=Events.model_validate(_read("events.json")),
        scenarios=tuple(Scenario.model_validate(s) for s in _read("scenarios.json")["scenarios"]),
        rules=RulesTable.model_validate(_read("rules.json")),
        markers=Markers.model_validate(_read("markers.json")),
    )
