"""What the active unit may do (Rulebook, Acciones; Movimiento; Disparos; Cuerpo a cuerpo;
Acciones de abordaje; Mecánico; Drogas para todos) and doing it.

Action ids: `activate:<unit>`, `end`, `stand`, `move:<x>,<y>`, `drive:<x>,<y>` (centimetres
with one decimal), `shoot:<target>:<weapon>` (target a model or a vehicle), `fight:<target>:
<weapon>`, `board:<vehicle>`, `repair:<vehicle>`, `wheel:<vehicle>` (take the wheel),
`drugs:<ws|pericia|move>`. `problem` says why an id is refused; `options` lists the legal
ones (a lattice of destinations).
"""

from __future__ import annotations

import math
import re

from shapely.geometry import Point

from partida.engine import Event, Rng
from partida.games.bandas import attacks as K
from partida.games.bandas import combat as C
from partida.games.bandas import geometry as G
from partida.games.bandas import vehicles as V
from partida.games.bandas import world as W
from partida.games.bandas.state import DOWN, OUT, PRONE, STANDING, STUNNED, BandasState

PTS = C.PTS
_NUM = re.compile(r"-?\d{1,4}\.\d")
DRUGS = ("ws", "pericia", "move")


def units(state: BandasState, seat: int) -> list[str]:
    """Units of a seat still to activate this turn: its models in action (drivers go with
    their vehicle) and its vehicles that have a driver."""
    if seat in state.routed:
        return []
    out = [mid for mid, m in state.models.items() if m["seat"] == seat and state.in_play(mid)
           and not m["activated"] and m["role"] != "driver"]
    out += [vid for vid, v in state.vehicles.items() if v["seat"] == seat and not v["activated"]
            and not v["wrecked"] and state.driver(vid) is not None]
    return out


def finished(state: BandasState) -> bool:
    """The active unit can do nothing more: its actions are spent, it ended, or it fell."""
    a = state.tally()
    if a.get("over") or a["actions"] <= 0:
        return True
    if a["kind"] == "model":
        return state.models[a["unit"]]["status"] in (DOWN, STUNNED, OUT) or \
            not state.in_play(a["unit"])
    driver = state.driver(a["unit"])
    return state.vehicles[a["unit"]]["wrecked"] or driver is None or \
        state.models[driver]["status"] != STANDING


# ----- ids -----------------------------------------------------------------------------------

def point_id(verb: str, p: tuple[float, float]) -> str:
    return f"{verb}:{round(p[0], 1) + 0.0:.1f},{round(p[1], 1) + 0.0:.1f}"


def _xy(arg: str) -> tuple[float, float]:
    """A point id's coordinates, already known to be well formed."""
    p = _point(arg)
    assert p is not None
    return p


def _point(arg: str) -> tuple[float, float] | None:
    parts = arg.split(",")
    if len(parts) != 2 or not all(_NUM.fullmatch(x) for x in parts):
        return None
    return (float(parts[0]), float(parts[1]))


# ----- checks ----------------------------------------------------------------------------------

def problem(state: BandasState, seat: int, aid: str) -> str | None:
    """Why `aid` is not legal for `seat` now (None: it is)."""
    verb, _, arg = aid.partition(":")
    a = state.active
    if a is None:
        if verb == "activate" and arg in units(state, seat):
            return None
        return "choose a unit to activate (activate:<unit>)"
    if verb == "activate":
        return f"{a['unit']} is being activated"
    if aid == "end":
        return None
    if a["kind"] == "vehicle":
        if verb != "drive" or _point(arg) is None:
            return "a vehicle drives (drive:<x>,<y>) or ends"
        if a["no_move"]:
            return "the vehicle cannot move this activation"
        return V.drive_problem(state, a["unit"], _xy(arg))
    return _model_problem(state, a["unit"], verb, arg)


def _model_problem(state: BandasState, mid: str, verb: str, arg: str) -> str | None:
    m = state.models[mid]
    if m["status"] == PRONE and verb != "stand":
        return "a prone model spends an action standing up first"
    if verb == "stand":
        return None if m["status"] == PRONE else "only a prone model stands up"
    if verb == "move":
        p = _point(arg)
        return "move:<x>,<y> with one decimal" if p is None else move_problem(state, mid, p)
    target, _, weapon = arg.partition(":")
    if verb == "shoot":
        return shoot_problem(state, mid, target, weapon)
    if verb == "fight":
        return fight_problem(state, mid, target, weapon)
    if verb == "board":
        if arg not in state.vehicles:
            return f"no vehicle {arg!r}"
        if state.tally()["no_move"]:
            return "it cannot move this activation"
        return V.board_problem(state, mid, arg, allowance(state, mid))
    if verb == "repair":
        return repair_problem(state, mid, arg)
    if verb == "wheel":
        return wheel_problem(state, mid, arg)
    if verb == "drugs":
        return drugs_problem(state, mid, arg)
    return f"unknown action {verb!r}"


def allowance(state: BandasState, mid: str) -> float:
    """Centimetres per move action: the grade's, +5 mechanised legs, −3 huge, +5 drugs."""
    m = state.models[mid]
    cm = PTS.grades[m["grade"]].move
    cm += 5 if C.has(state, mid, "mechanised_legs") else 0
    cm -= 3 if C.has(state, mid, "huge") else 0
    return cm + (5 if state.active and state.active.get("drug") == "move" else 0)


def move_problem(state: BandasState, mid: str, dest: tuple[float, float],
                 blocks: list[G.Block] | None = None) -> str | None:
    """Rulebook, Movimiento (see RULES.md, movement and heights): a straight move of at most
    the allowance, heights climbed counted, never through walls, solid pieces, buildings or
    vehicles except the roofs it leaves or reaches; its base must fit where it ends."""
    m = state.models[mid]
    if state.tally()["no_move"]:
        return "it cannot move this activation (got up from down, or netted)"
    t = W.table(state)
    if not (0 <= dest[0] <= t.width and 0 <= dest[1] <= t.height):
        return "off the table"
    start = state.place(mid)
    roof_from = None if m["vehicle"] else m["roof"]
    roof_to = G.roof_at(W.terrain(state.table), dest)
    cost = G.distance(start, dest) + abs((roof_to.height if roof_to else 0.0)
                                         - W.height(state, mid))
    if cost < 0.1:
        return "a move must go somewhere"
    if cost > allowance(state, mid) + 1e-6:
        return f"{cost:.1f} cm is more than the {allowance(state, mid):g} cm of one move"
    blocks = W.blocks(state) if blocks is None else blocks
    for b in blocks:
        if b.id in (roof_from, roof_to.id if roof_to else None, m["vehicle"]):
            continue
        if G.crosses(b, start, dest):
            return f"{b.id} is in the way"
    if roof_to is None and G.base_overlaps(dest, blocks):
        return "no room for its base there"
    level = roof_to.id if roof_to else None
    for oid, o in state.models.items():
        if oid != mid and state.in_play(oid) and not o["vehicle"] and o["roof"] == level and \
                G.distance((o["x"], o["y"]), dest) < 2 * G.RADIUS - 1e-6:
            return f"{oid} stands there"
    return None


def ranged_weapons(state: BandasState, mid: str) -> list[str]:
    m = state.models[mid]
    out = list(dict.fromkeys(w for w in m["weapons"] if PTS.weapons[w].kind == "ranged"))
    if m["role"] == "gunner":
        v = state.vehicles[m["vehicle"]]
        if v["weapon"] and not v["weapon_broken"]:
            out.append(v["weapon"])
    return out


def melee_weapons(state: BandasState, mid: str) -> list[str]:
    m = state.models[mid]
    out = list(dict.fromkeys(w for w in m["weapons"]
                             if PTS.weapons[w].kind == "melee" or PTS.weapons[w].melee_usable))
    if C.has(state, mid, "net_launcher") and m["net"] == "":
        out.append("net")
    return out or ["unarmed"]


def shoot_problem(state: BandasState, mid: str, target: str, weapon: str) -> str | None:
    """Rulebook, Disparos / Línea de visión / Armamento de distancia / Capa de invisibilidad."""
    a, m = state.tally(), state.models[mid]
    if a["no_shoot"]:
        return "reloading: it cannot shoot this activation"
    if a["ammo_out"]:
        return "out of ammunition until it reloads"
    if weapon not in ranged_weapons(state, mid):
        return f"{mid} has no ranged weapon {weapon!r}"
    reach = PTS.weapons[weapon].range or 0
    if target in state.vehicles:
        v = state.vehicles[target]
        if v["seat"] == m["seat"] or v["wrecked"]:
            return "only enemy vehicles that still run are targets"
        if W.range_to_vehicle(state, mid, target) > reach:
            return f"{target} is out of range ({reach:g} cm)"
        if W.hidden_vehicle(state, mid, target) >= G.SAMPLES:
            return f"{target} is out of sight"
        return None
    if target not in state.models:
        return f"no target {target!r}"
    t = state.models[target]
    if t["seat"] == m["seat"] or not state.in_play(target):
        return "only enemy models in action are targets"
    d = G.distance(state.place(mid), state.place(target))
    if d > reach:
        return f"{target} is out of range ({d:.1f} > {reach:g} cm)"
    if C.has(state, target, "invisibility_cloak") and d < 20:
        return f"{target}'s cloak hides it from under 20 cm"
    if W.hidden(state, mid, target) >= G.SAMPLES:
        return f"{target} is out of sight"
    return None


def in_contact(state: BandasState, a: str, b: str) -> bool:
    """Base contact on the same footing: the same roof or the ground, or aboard the same
    vehicle (a vehicle's crew is fought from aboard it)."""
    ma, mb = state.models[a], state.models[b]
    if ma["vehicle"] or mb["vehicle"]:
        return ma["vehicle"] == mb["vehicle"]
    return ma["roof"] == mb["roof"] and \
        G.distance(state.place(a), state.place(b)) <= G.CONTACT + 1e-6


def fight_problem(state: BandasState, mid: str, target: str, weapon: str) -> str | None:
    if weapon not in melee_weapons(state, mid):
        return f"{mid} has no melee weapon {weapon!r}"
    if target not in state.models or state.models[target]["seat"] == state.models[mid]["seat"] \
            or not state.in_play(target):
        return "only enemy models in action can be fought"
    if not in_contact(state, mid, target):
        return f"{target} is not in base contact"
    return None


def repair_problem(state: BandasState, mid: str, vid: str) -> str | None:
    m = state.models[mid]
    if not C.has(state, mid, "mechanic"):
        return "only a mechanic repairs"
    if m["repaired"] == state.turn:
        return "a mechanic tries once per turn"
    if vid not in state.vehicles or state.vehicles[vid]["seat"] != m["seat"] or \
            not V.damaged(state, vid):
        return "only a damaged vehicle of its own gang"
    if m["vehicle"] != vid and W.range_to_vehicle(state, mid, vid) > 1.0:
        return "the mechanic must be aboard or touching the vehicle"
    return None


def wheel_problem(state: BandasState, mid: str, vid: str) -> str | None:
    """RULES.md: a rider of its own gang's vehicle takes the wheel when it has no driver."""
    m = state.models[mid]
    if vid not in state.vehicles or m["vehicle"] != vid or \
            state.vehicles[vid]["seat"] != m["seat"]:
        return "only aboard a vehicle of its own gang"
    if state.vehicles[vid]["wrecked"] or state.driver(vid) is not None:
        return "the vehicle has a driver (or is a wreck)"
    return None


def drugs_problem(state: BandasState, mid: str, what: str) -> str | None:
    if not C.has(state, mid, "drugs"):
        return "it has no drugs"
    if state.models[mid]["drugs"] == state.turn:
        return "drugs once per turn"
    return None if what in DRUGS else f"drugs:{'|'.join(DRUGS)}"


# ----- the legal list --------------------------------------------------------------------------

def options(state: BandasState, seat: int) -> list[tuple[str, str]]:
    a = state.active
    if a is None:
        return [(f"activate:{u}", f"Activate {u}") for u in units(state, seat)]
    if a["kind"] == "vehicle":
        return [*_drives(state, a["unit"]), ("end", f"{a['unit']} ends its activation")]
    mid = a["unit"]
    out: list[tuple[str, str]] = []
    if state.models[mid]["status"] == PRONE:
        return [("stand", f"{mid} stands up"), ("end", f"{mid} ends its activation")]
    out += _moves(state, mid)
    for target in [*state.models, *state.vehicles]:
        for w in ranged_weapons(state, mid):
            if shoot_problem(state, mid, target, w) is None:
                out.append((f"shoot:{target}:{w}", f"{mid} shoots {target} with {w}"))
        if target in state.models:
            for w in melee_weapons(state, mid):
                if fight_problem(state, mid, target, w) is None:
                    out.append((f"fight:{target}:{w}", f"{mid} fights {target} with {w}"))
    for vid in state.vehicles:
        for verb in ("board", "repair", "wheel"):
            if _model_problem(state, mid, verb, vid) is None:
                out.append((f"{verb}:{vid}", f"{mid}: {verb} {vid}"))
    out += [(f"drugs:{d}", f"{mid} takes drugs for {d}") for d in DRUGS
            if drugs_problem(state, mid, d) is None and state.tally()["drug"] is None]
    return [*out, ("end", f"{mid} ends its activation")]


def _ring(centre: tuple[float, float], radii: list[float], n: int) -> list[tuple[float, float]]:
    return [(centre[0] + r * math.cos(2 * math.pi * k / n),
             centre[1] + r * math.sin(2 * math.pi * k / n)) for r in radii for k in range(n)]


def _moves(state: BandasState, mid: str) -> list[tuple[str, str]]:
    """The lattice: twelve directions at half and full reach, base contact with each enemy in
    reach, the nearest roof point of each building and the nearest spot at the foot of each
    building, wall and solid piece, the loot."""
    if state.tally()["no_move"]:
        return []
    start, reach = state.place(mid), allowance(state, mid)
    points = _ring(start, [reach / 2, reach - 0.05], 12)
    for oid, o in state.models.items():
        if o["seat"] != state.models[mid]["seat"] and state.in_play(oid) and not o["vehicle"]:
            p = (o["x"], o["y"])
            d = G.distance(start, p) or 1.0
            gap = 2 * G.RADIUS + 0.2
            points.append((p[0] + (start[0] - p[0]) / d * gap, p[1] + (start[1] - p[1]) / d * gap))
    for b in W.terrain(state.table):
        if b.building:
            inner = b.roof_room
            if not inner.is_empty:
                near = inner.exterior.interpolate(inner.exterior.project(Point(start)))
                points.append((near.x, near.y))
        outer = b.foot     # the foot of a wall: cover
        near = outer.interpolate(outer.project(Point(start)))
        points.append((near.x, near.y))
    points += [(p[0], p[1]) for p in state.loot]
    blocks = W.blocks(state)
    ids = dict.fromkeys(point_id("move", p) for p in points)
    return [(i, f"{mid} moves to {i[5:]}") for i in ids
            if move_problem(state, mid, _xy(i[5:]), blocks) is None]


def _drives(state: BandasState, vid: str) -> list[tuple[str, str]]:
    if state.tally()["no_move"]:
        return []
    v, k = state.vehicles[vid], V.kind(state, vid)
    points = _ring((v["x"], v["y"]), [k.move / 3, 2 * k.move / 3, k.move - 0.05], 16)
    ids = dict.fromkeys(point_id("drive", p) for p in points)
    others = W.blocks(state, frozenset({vid}))
    return [(i, f"{vid} drives to {i[6:]}") for i in ids
            if V.drive_problem(state, vid, _xy(i[6:]), others) is None]


# ----- doing it --------------------------------------------------------------------------------

def perform(state: BandasState, aid: str, rng: Rng, ev: list[Event]) -> None:
    a = state.tally()
    assert a is not None
    verb, _, arg = aid.partition(":")
    unit = a["unit"]
    if verb == "end":
        a["over"] = True
        return
    if verb == "drugs":                     # a free action (Drogas para todos)
        K.drugs(state, unit, arg, rng, ev)
        return
    a["actions"] -= 1
    if verb == "drive":
        V.drive(state, unit, _xy(arg), rng, ev)
    elif verb == "stand":
        state.models[unit]["status"] = STANDING
        ev.append(Event("stood_up", {"model": unit}))
    elif verb == "move":
        _move(state, unit, _xy(arg), ev)
    elif verb == "shoot":
        target, _, weapon = arg.partition(":")
        K.shoot(state, unit, target, weapon, rng, ev)
    elif verb == "fight":
        target, _, weapon = arg.partition(":")
        K.fight(state, unit, target, weapon, rng, ev)
    elif verb == "board":
        V.board(state, unit, arg, rng, ev)
    elif verb == "repair":
        V.repair(state, unit, arg, rng, ev)
    elif verb == "wheel":
        state.models[unit]["role"] = "driver"
        ev.append(Event("took_the_wheel", {"model": unit, "vehicle": arg}))


def _move(state: BandasState, mid: str, dest: tuple[float, float], ev: list[Event]) -> None:
    m = state.models[mid]
    roof = G.roof_at(W.terrain(state.table), dest)
    start = state.place(mid)
    m.update(x=dest[0], y=dest[1], roof=roof.id if roof else None, vehicle=None, role=None)
    ev.append(Event("moved", {"model": mid, "from": list(start), "to": list(dest),
                              "roof": m["roof"]}))
    obj = W.table(state).objective
    if obj.kind == "loot" and not m["roof"]:
        near = [p for p in state.loot if G.distance((p[0], p[1]), dest) <= obj.pick_distance]
        for p in near:
            state.loot.remove(p)
            m["loot"] += 1
            ev.append(Event("loot_taken", {"model": mid, "at": p}))
