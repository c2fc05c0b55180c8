"""Bandas content from content/*.json: the points lists (the book's), tables and ready-made gangs
(ours), validated when loaded. `check_gang` validates a gang sheet submitted as data."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError, model_validator
from shapely.geometry import Point as SPoint
from shapely.geometry import Polygon

_DIR = Path(__file__).parent / "content"

Point = tuple[float, float]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ----- points lists (Rulebook, Tipos de tropas ... Tabla de blindajes) ------------------------

class Grade(_Model):
    actions: int
    points: int
    move: float
    ws: int
    pericia: int
    skills: int
    families: tuple[str, ...]
    melee_slots: int
    ranged_slots: int
    melee_for_ranged: bool = False  # Animales: an unused ranged slot may take a melee weapon


class Weapon(_Model):
    kind: Literal["ranged", "melee", "mounted"]
    points: int
    range: float | None = None
    ammo_modes: tuple[str, ...] = ()
    save_mod: int = 0               # taken off the defender's save roll
    free_multishot: bool = False    # heavy automatic: no cumulative -1, no ammunition check
    ammo_each_shot: bool = False    # the entry adds an ammunition check to every shot
    harpoon: bool = False
    close_bonus: int = 0
    close_range: float = 0
    area: float = 0
    reload: bool = False            # always reloads after firing
    melee_usable: bool = False
    pair: bool = False              # two may be carried in the one ranged slot
    push: bool = False
    strikes_last: bool = False
    strikes_first: bool = False
    reroll_boarding: bool = False
    blows: int = 1
    parry: int | None = None
    ws_bonus: int = 0


class ShotgunMode(_Model):
    save_mod: int = 0
    area: float = 0
    pericia_bonus: int = 0
    ammo_each_shot: bool = False


class Armour(_Model):
    points: int
    save: int


class Skill(_Model):
    family: Literal["mechanical", "mutation", "mystic"]
    points: int


class VehicleKind(_Model):
    points: int
    move: float
    actions: int
    riders: int                     # the driver included
    gunner: bool
    run_over: bool
    armours: tuple[str, ...]
    length: float
    width: float
    height: float
    mounts: bool


class PointsList(_Model):
    source: str
    version: int
    notes: tuple[str, ...] = ()
    grades: dict[str, Grade]
    weapons: dict[str, Weapon]
    shotgun_modes: dict[str, ShotgunMode]
    armour: dict[str, Armour]
    skills: dict[str, Skill]
    vehicles: dict[str, VehicleKind]
    vehicle_armour: dict[str, Armour]


# ----- gang sheets -----------------------------------------------------------------------------

# Model and vehicle ids: lower-case words, so they fit in action ids (`shoot:<id>:<weapon>`).
UNIT_ID = r"[a-z][a-z0-9_]{0,39}"
UnitId = Annotated[str, StringConstraints(pattern=f"^{UNIT_ID}$")]


class ModelSheet(_Model):
    id: UnitId
    name: str
    grade: str
    weapons: tuple[str, ...] = ()
    shotgun_ammo: str | None = None
    armour: str | None = None
    skills: tuple[str, ...] = ()


class VehicleSheet(_Model):
    id: UnitId
    name: str
    kind: str
    armour: str | None = None
    weapon: str | None = None
    # The crew, for a gang set up by the deployment rule (a table's placements name it instead).
    driver: str | None = None
    gunner: str | None = None
    riders: tuple[str, ...] = ()

    def crew(self) -> list[str]:
        return [c for c in (self.driver, self.gunner, *self.riders) if c]


class GangSheet(_Model):
    id: str
    name: str
    points_limit: int
    models: tuple[ModelSheet, ...]
    vehicles: tuple[VehicleSheet, ...] = ()


class GangError(ValueError):
    """An illegal gang sheet; `errors` names every illegal choice."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


def model_cost(pts: PointsList, m: ModelSheet) -> int:
    cost = pts.grades[m.grade].points if m.grade in pts.grades else 0
    cost += sum(pts.weapons[w].points for w in m.weapons if w in pts.weapons)
    cost += pts.armour[m.armour].points if m.armour in pts.armour else 0
    return cost + sum(pts.skills[s].points for s in m.skills if s in pts.skills)


def vehicle_cost(pts: PointsList, v: VehicleSheet) -> int:
    cost = pts.vehicles[v.kind].points if v.kind in pts.vehicles else 0
    cost += pts.vehicle_armour[v.armour].points if v.armour in pts.vehicle_armour else 0
    return cost + (pts.weapons[v.weapon].points if v.weapon in pts.weapons else 0)


def gang_cost(pts: PointsList, g: GangSheet) -> int:
    return sum(model_cost(pts, m) for m in g.models) + sum(vehicle_cost(pts, v) for v in g.vehicles)


def _model_errors(pts: PointsList, m: ModelSheet) -> list[str]:
    """Rulebook, Tipos de tropas / Animales y robots / Armamento / Habilidades."""
    who = f"{m.id} ({m.name})"
    grade = pts.grades.get(m.grade)
    if grade is None:
        return [f"{who}: unknown grade {m.grade!r} (one of {sorted(pts.grades)})"]
    errors = [f"{who}: unknown weapon {w!r}" for w in m.weapons if w not in pts.weapons]
    known = [pts.weapons[w] for w in m.weapons if w in pts.weapons]
    errors += [f"{who}: {w} is only mounted on a truck" for w in m.weapons
               if w in pts.weapons and pts.weapons[w].kind == "mounted"]
    extra = 1 if "tentacle" in m.skills else 0     # Tentáculo: one more weapon of either kind
    ranged = [w for w in m.weapons if w in pts.weapons and pts.weapons[w].kind == "ranged"]
    pistols = ranged.count("pistol")
    if pistols > 2:
        errors.append(f"{who}: at most two pistols")
    ranged_slots_used = len(ranged) - (1 if pistols == 2 else 0)  # a pair of pistols is one slot
    melee = sum(1 for w in known if w.kind == "melee")
    ranged_cap, melee_cap = grade.ranged_slots, grade.melee_slots
    if grade.melee_for_ranged and ranged_slots_used < ranged_cap:
        melee_cap, ranged_cap = melee_cap + ranged_cap - ranged_slots_used, ranged_slots_used
    over = max(0, ranged_slots_used - ranged_cap) + max(0, melee - melee_cap)
    if over > extra:
        errors.append(f"{who}: a {m.grade} carries {grade.ranged_slots} ranged and "
                      f"{grade.melee_slots} melee weapon(s)"
                      + (" (or a melee one for the ranged)" if grade.melee_for_ranged else "")
                      + (" plus one for the tentacle" if extra else "")
                      + f", not {ranged_slots_used} and {melee}")
    modes = pts.weapons["shotgun"].ammo_modes
    if "shotgun" in m.weapons and m.shotgun_ammo not in modes:
        errors.append(f"{who}: a shotgun needs its ammunition chosen before the game "
                      f"(shotgun_ammo: one of {list(modes)})")
    if "shotgun" not in m.weapons and m.shotgun_ammo is not None:
        errors.append(f"{who}: shotgun_ammo without a shotgun")
    if m.armour is not None and m.armour not in pts.armour:
        errors.append(f"{who}: unknown armour {m.armour!r} (one of {sorted(pts.armour)})")
    errors += [f"{who}: unknown skill {s!r}" for s in m.skills if s not in pts.skills]
    errors += [f"{who}: skill {s} taken twice" for s, n in Counter(m.skills).items() if n > 1]
    if len(m.skills) > grade.skills:
        errors.append(f"{who}: a {m.grade} may take {grade.skills} skill(s), not {len(m.skills)}")
    errors += [f"{who}: a {m.grade} may not take the {pts.skills[s].family} skill {s}"
               for s in m.skills if s in pts.skills and pts.skills[s].family not in grade.families]
    return errors


def _vehicle_errors(pts: PointsList, v: VehicleSheet) -> list[str]:
    """Rulebook, Vehículos / Tabla de blindajes / Armas automáticas (heavy)."""
    who = f"{v.id} ({v.name})"
    kind = pts.vehicles.get(v.kind)
    if kind is None:
        return [f"{who}: unknown vehicle {v.kind!r} (one of {sorted(pts.vehicles)})"]
    errors = []
    if v.armour is not None and v.armour not in kind.armours:
        errors.append(f"{who}: a {v.kind} may have {' or '.join(kind.armours)} armour, "
                      f"not {v.armour!r}")
    if v.weapon is not None and not (kind.mounts and v.weapon in pts.weapons
                                     and pts.weapons[v.weapon].kind == "mounted"):
        errors.append(f"{who}: a {v.kind} cannot mount {v.weapon!r}")
    if len(v.crew()) > kind.riders:
        errors.append(f"{who}: a {v.kind} carries {kind.riders}, not {len(v.crew())}")
    if v.gunner and not kind.gunner:
        errors.append(f"{who}: a {v.kind} has no gunner's place")
    if v.crew() and not v.driver:
        errors.append(f"{who}: a crewed vehicle needs a driver")
    return errors


def check_gang(pts: PointsList, data: Mapping[str, Any]) -> GangSheet:
    """Parse and validate a gang sheet; GangError lists every illegal choice."""
    try:
        gang = GangSheet.model_validate(data)
    except ValidationError as e:
        raise GangError([f"{'.'.join(map(str, err['loc']))}: {err['msg']}"
                         for err in e.errors()]) from None
    errors = [] if gang.models else ["a gang needs at least one model"]
    ids = [m.id for m in gang.models] + [v.id for v in gang.vehicles]
    errors += [f"id {i!r} is used twice" for i, n in Counter(ids).items() if n > 1]
    for m in gang.models:
        errors += _model_errors(pts, m)
    models = {m.id for m in gang.models}
    for v in gang.vehicles:
        errors += _vehicle_errors(pts, v)
        errors += [f"{v.id}: crew member {c!r} is not a model of the gang"
                   for c in v.crew() if c not in models]
    crews = Counter(c for v in gang.vehicles for c in v.crew())
    errors += [f"{c} crews more than one vehicle or place" for c, n in crews.items() if n > 1]
    total = gang_cost(pts, gang)
    if total > gang.points_limit:
        errors.append(f"the gang costs {total} points, over its limit of {gang.points_limit}")
    if errors:
        raise GangError(errors)
    return gang


# ----- tables (ours) ---------------------------------------------------------------------------

class Piece(_Model):
    id: str
    kind: Literal["building", "wall", "solid", "light"]
    height: float
    polygon: tuple[Point, ...]


class Placement(_Model):
    vehicle: str
    at: Point
    heading: float                  # degrees, 0 east, counter-clockwise
    driver: str
    gunner: str | None = None
    riders: tuple[str, ...] = ()


class Side(_Model):
    id: str
    gang: str
    deploy: tuple[Point, ...]
    positions: dict[str, Point]
    vehicles: tuple[Placement, ...] = ()


class Objective(_Model):
    kind: Literal["rout", "convoy_exit", "loot"]
    side: str | None = None
    vehicle: str | None = None
    exit: tuple[Point, ...] = ()
    needed: int = 0
    pick_distance: float = 0


class Table(_Model):
    id: str
    title: str
    width: float
    height: float
    turn_limit: int
    description: str
    pieces: tuple[Piece, ...]
    sides: tuple[Side, ...]
    objective: Objective
    loot: tuple[Point, ...] = ()

    @model_validator(mode="after")
    def _inside(self) -> Table:
        for side in self.sides:
            for mid, (x, y) in side.positions.items():
                if not (0 <= x <= self.width and 0 <= y <= self.height):
                    raise ValueError(f"{self.id}: {mid} stands off the table")
                if not Polygon(side.deploy).buffer(1e-6).contains(SPoint(x, y)):
                    raise ValueError(f"{self.id}: {mid} stands outside its deployment zone")
        return self


class Tables(_Model):
    source: str
    version: int
    notes: tuple[str, ...] = ()
    tables: tuple[Table, ...]


class Content:
    """Everything loaded and cross-checked: every table's gangs are legal and fully placed."""

    def __init__(self, points: PointsList, gangs: dict[str, GangSheet], tables: Tables) -> None:
        self.points, self.gangs = points, gangs
        self.tables = {t.id: t for t in tables.tables}
        for t in tables.tables:
            for side in t.sides:
                self._check_side(t, side)

    def _check_side(self, t: Table, side: Side) -> None:
        gang = self.gangs[side.gang]
        placed = list(side.positions)
        for p in side.vehicles:
            vehicle = next(v for v in gang.vehicles if v.id == p.vehicle)
            kind = self.points.vehicles[vehicle.kind]
            crew = [p.driver, *([p.gunner] if p.gunner else []), *p.riders]
            if len(crew) > kind.riders or (p.gunner and not kind.gunner):
                raise ValueError(f"{t.id}: {p.vehicle} carries too many or has no gunner")
            placed += crew
        wanted = sorted(m.id for m in gang.models)
        if sorted(placed) != wanted:
            raise ValueError(f"{t.id}/{side.id}: models placed {sorted(placed)} != {wanted}")

    def table(self, table_id: str) -> Table:
        return self.tables[table_id]


def _read(name: str) -> Any:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


@cache
def load() -> Content:
    points = PointsList.model_validate(_read("points.json"))
    gangs = {g["id"]: check_gang(points, g) for g in _read("gangs.json")["gangs"]}
    return Content(points, gangs, Tables.model_validate(_read("tables.json")))
