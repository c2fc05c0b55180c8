"""Vehicles (Rulebook, Vehículos; Acciones de abordaje; Disparo a vehículos; Tabla de blindajes;
Tabla de impactos en vehículos; Atropellos de vehículos; Mecánico)."""

from __future__ import annotations

import math

from shapely.geometry import LineString, box
from shapely.geometry.base import BaseGeometry

from partida.engine import Event, Rng
from partida.games.bandas import combat as C
from partida.games.bandas import geometry as G
from partida.games.bandas import world as W
from partida.games.bandas.content import VehicleKind
from partida.games.bandas.state import OUT, STANDING, BandasState

PTS = C.PTS


def kind(state: BandasState, vid: str) -> VehicleKind:
    return PTS.vehicles[state.vehicles[vid]["kind"]]


def _corridor(state: BandasState, vid: str,
              dest: tuple[float, float]) -> tuple[BaseGeometry, float]:
    v, k = state.vehicles[vid], kind(state, vid)
    start = (v["x"], v["y"])
    heading = _heading(start, dest, v["heading"])
    end = G.footprint(dest[0], dest[1], heading, k.length, k.width)
    if start == dest:
        return end, heading
    return LineString([start, dest]).buffer(k.width / 2).union(end), heading


def _heading(a: tuple[float, float], b: tuple[float, float], current: float) -> float:
    if a == b:
        return current
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360


def in_path(state: BandasState, vid: str, corridor: BaseGeometry) -> list[str]:
    """Models on the ground (not riding, not on a roof) whose bases the vehicle's path meets."""
    return [mid for mid, m in state.models.items()
            if state.in_play(mid) and not m["vehicle"] and not m["roof"]
            and corridor.intersects(G.base((m["x"], m["y"])))]


def drive_problem(state: BandasState, vid: str, dest: tuple[float, float],
                  others: list[G.Block] | None = None) -> str | None:
    """Why the vehicle may not drive straight to `dest` now (None: it may). It moves up to its
    movement per action, turning to face its way, never through terrain, other vehicles or off
    the table; a motorbike cannot run models over, so it must go round them."""
    v, k = state.vehicles[vid], kind(state, vid)
    d = G.distance((v["x"], v["y"]), dest)
    if d < 0.5:
        return "a drive must cover at least 0.5 cm"
    if d > k.move + 1e-6:
        return f"a {v['kind']} drives at most {k.move:g} cm per action, not {d:.1f}"
    t = W.table(state)
    heading = _heading((v["x"], v["y"]), dest, v["heading"])
    if not box(0, 0, t.width, t.height).contains(
            G.footprint(dest[0], dest[1], heading, k.length, k.width)):
        return "the vehicle would leave the table"
    corridor, heading = _corridor(state, vid, dest)
    for b in W.blocks(state, frozenset({vid})) if others is None else others:
        if corridor.intersection(b.shape).area > 1e-6:
            return f"{b.id} is in the way"
    if not k.run_over and in_path(state, vid, corridor):
        return "motorbikes cannot run models over (Atropellos)"
    return None


def drive(state: BandasState, vid: str, dest: tuple[float, float], rng: Rng,
          ev: list[Event]) -> None:
    v = state.vehicles[vid]
    corridor, heading = _corridor(state, vid, dest)
    victims = in_path(state, vid, corridor)
    start = (v["x"], v["y"])
    v.update(x=dest[0], y=dest[1], heading=heading, moving=True)
    ev.append(Event("drove", {"vehicle": vid, "from": list(start), "to": list(dest),
                              "heading": heading}))
    for mid in victims:
        run_over(state, vid, mid, start, dest, rng, ev)


def run_over(state: BandasState, vid: str, mid: str, start: tuple[float, float],
             dest: tuple[float, float], rng: Rng, ev: list[Event]) -> None:
    """Rulebook, Atropellos: the driver's weapon skill against the model's pericia; a hit is
    a normal hit, a miss means it jumped clear. Either way it ends beside the vehicle's path."""
    driver = state.driver(vid)
    ws = C.weapon_skill(state, driver) if driver else 0
    if C.opposed(rng, ws, C.pericia(state, mid), ev, vid, mid):
        C.hit(state, mid, rng, ev)
    m = state.models[mid]
    if m["status"] != OUT:
        m["x"], m["y"] = _aside(state, vid, (m["x"], m["y"]), start, dest)


def _aside(state: BandasState, vid: str, p: tuple[float, float], a: tuple[float, float],
           b: tuple[float, float]) -> tuple[float, float]:
    """The point just beside the path a-b, on the side of p (the other side when its base
    would not fit there). The vehicle's half-extent across the path counts: a drift slides
    it sideways, so its length may lie across its way."""
    seg = LineString([a, b])
    near = seg.interpolate(seg.project(G.Point(p)))
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    nx, ny = -dy / n, dx / n
    k, h = kind(state, vid), math.radians(state.vehicles[vid]["heading"])
    across = abs(k.length / 2 * (math.cos(h) * nx + math.sin(h) * ny)) + \
        abs(k.width / 2 * (-math.sin(h) * nx + math.cos(h) * ny))
    off = across + G.RADIUS + 0.1
    first = 1 if (p[0] - near.x) * nx + (p[1] - near.y) * ny >= 0 else -1
    return _fitting(state, [(near.x + side * nx * off, near.y + side * ny * off)
                            for side in (first, -first)])


def drift(state: BandasState, vid: str, rng: Rng, ev: list[Event]) -> None:
    """Tabla de impactos 1: a vehicle with a wheel hit whose driver fails his check drifts
    2d6 cm in a scatter direction; meeting a piece or a vehicle on the way it crashes and
    takes another roll on the hit table. Models in its way are run over as by a drive
    (Atropellos); a motorbike, which cannot run over, stops short of them (RULES.md)."""
    v, k = state.vehicles[vid], kind(state, vid)
    direction = rng.scatter()
    dist = rng.d6() + rng.d6()
    angle = math.radians(G.scatter_angle(direction))
    t = W.table(state)
    table = box(0, 0, t.width, t.height)
    start = (v["x"], v["y"])
    here = G.footprint(v["x"], v["y"], v["heading"], k.length, k.width)
    others = W.blocks(state, frozenset({vid}))
    end, crashed = start, False
    for i in range(1, 2 * dist + 1):            # half-centimetre steps, sliding sideways
        p = (v["x"] + i / 2 * math.cos(angle), v["y"] + i / 2 * math.sin(angle))
        swept = here.union(G.footprint(p[0], p[1], v["heading"], k.length, k.width)).convex_hull
        if not table.contains(swept) or any(swept.intersection(b.shape).area > 1e-6
                                             for b in others):
            crashed = True
            break
        if not k.run_over and in_path(state, vid, swept):
            break                               # not scenery: no crash
        end = p
    path = here.union(G.footprint(end[0], end[1], v["heading"], k.length, k.width)).convex_hull
    victims = in_path(state, vid, path) if end != start else []
    v.update(x=end[0], y=end[1], moving=True)
    ev.append(Event("drifted", {"vehicle": vid, "scatter": direction, "cm": dist,
                                "to": list(end), "crashed": crashed}))
    for mid in victims:
        run_over(state, vid, mid, start, end, rng, ev)
    if crashed:
        hit_table(state, vid, rng, ev)


def armour_saves(state: BandasState, vid: str, save_mod: int, rng: Rng, ev: list[Event]) -> bool:
    """Tabla de blindajes: light 6+, medium 5+, heavy 4+; no armour, no save."""
    armour = state.vehicles[vid]["armour"]
    if not armour:
        return False
    need = PTS.vehicle_armour[armour].save + save_mod
    if need > 6:
        return False
    roll = rng.d6()
    ev.append(Event("vehicle_save", {"vehicle": vid, "roll": roll, "needed": need,
                                     "saved": roll >= need}))
    return roll >= need


def hit_table(state: BandasState, vid: str, rng: Rng, ev: list[Event]) -> None:
    """Tabla de impactos en vehículos, 1d6: wheels, weapons, crew, cargo, near miss, engine."""
    v = state.vehicles[vid]
    loc = rng.d6()
    ev.append(Event("vehicle_hit", {"vehicle": vid, "roll": loc}))
    if loc == 1:
        v["wheels"] = min(2, v["wheels"] + 1)     # the second wheel result immobilises it
    elif loc == 2:
        if v["weapon"]:
            v["weapon_broken"] = True
    elif loc == 3:
        crew = state.crew(vid)
        gunner = next((m for m in crew if state.models[m]["role"] == "gunner"), None)
        driver = state.driver(vid)
        pick = rng.d6()
        who = gunner if pick >= 4 and gunner else driver
        ev.append(Event("crew_hit", {"vehicle": vid, "roll": pick, "model": who}))
        if who:
            C.hit(state, who, rng, ev)
    elif loc == 4:
        cargo = [m for m in state.crew(vid) if state.models[m]["role"] == "rider"]
        if cargo:
            who = rng.choice(cargo)
            ev.append(Event("cargo_hit", {"vehicle": vid, "model": who}))
            C.hit(state, who, rng, ev)
    elif loc == 6:
        need = max(2, 6 - v["engine"])
        roll = rng.d6()
        v["engine"] += 1
        ev.append(Event("engine_roll", {"vehicle": vid, "roll": roll, "needed": need}))
        if roll >= need:
            explode(state, vid, rng, ev)


def explode(state: BandasState, vid: str, rng: Rng, ev: list[Event]) -> None:
    """The engine blows: every crew member takes two attacks at weapon skill 6; the wreck
    stays on the table as a block and its survivors are set down beside it."""
    v = state.vehicles[vid]
    v.update(wrecked=True, moving=False)
    ev.append(Event("exploded", {"vehicle": vid}))
    for mid in state.crew(vid):
        for _ in range(2):
            if state.models[mid]["status"] != OUT and \
                    C.opposed(rng, 6, C.pericia(state, mid), ev, vid, mid):
                C.hit(state, mid, rng, ev)
    for i, mid in enumerate(state.crew(vid)):
        state.models[mid].update(vehicle=None, role=None,
                                 **dict(zip(("x", "y"), _beside(state, vid, i), strict=True)))


def _beside(state: BandasState, vid: str, i: int) -> tuple[float, float]:
    """The i-th survivor's spot along one side of the wreck (the other side when its base
    would not fit there: inside a building it could never move again)."""
    v, k = state.vehicles[vid], kind(state, vid)
    off = k.width / 2 + G.RADIUS + 0.2
    along = (i - 1.5) * 2 * G.RADIUS
    h = math.radians(v["heading"])
    spots = []
    for side in (90, -90):
        a = math.radians(v["heading"] + side)
        spots.append((v["x"] + off * math.cos(a) + along * math.cos(h),
                      v["y"] + off * math.sin(a) + along * math.sin(h)))
    return _fitting(state, spots)


def _fitting(state: BandasState, spots: list[tuple[float, float]]) -> tuple[float, float]:
    """The first of `spots`, kept on the table, where a model's base fits off the scenery
    and the other pieces; the first one if none does."""
    t = W.table(state)
    on_table = [(min(max(x, 0.0), t.width), min(max(y, 0.0), t.height)) for x, y in spots]
    blocks = W.blocks(state)
    return next((q for q in on_table if not G.base_overlaps(q, blocks)), on_table[0])


def board_problem(state: BandasState, mid: str, vid: str, move: float) -> str | None:
    """Acciones de abordaje: a vehicle within one move action's reach with a free place."""
    v, m = state.vehicles[vid], state.models[mid]
    if v["wrecked"]:
        return "a wreck cannot be boarded"
    if m["vehicle"] == vid:
        return "already aboard"
    if m["roof"]:
        return "boarding is from the ground or from another vehicle"
    if len(state.crew(vid)) >= kind(state, vid).riders:
        return "the vehicle is full"
    harpooned = state.active is not None and state.active.get("harpoon") == vid
    if not harpooned and W.range_to_vehicle(state, mid, vid) > move + 1e-6:
        return f"the vehicle is more than one move ({move:g} cm) away"
    return None


def board(state: BandasState, mid: str, vid: str, rng: Rng, ev: list[Event]) -> bool:
    """The pericia check, −1 from the ground, −2 from a moving vehicle; winged models and a
    harpoon that hit this vehicle this activation skip it; a chain hook re-rolls a failure.
    Getting into a vehicle of one's own gang is no assault: no check (see RULES.md)."""
    m = state.models[mid]
    own = state.vehicles[vid]["seat"] == m["seat"]
    free = own or C.has(state, mid, "winged") or (state.active or {}).get("harpoon") == vid
    ok = True
    if not free:
        from_moving = bool(m["vehicle"]) and state.vehicles[m["vehicle"]]["moving"]
        penalty = 2 if from_moving else 1
        hook = "chain_hook" in m["weapons"]
        ok = _boarding_check(state, mid, penalty, rng, ev)
        if not ok and hook:
            ok = _boarding_check(state, mid, penalty, rng, ev)
    if ok:
        m.update(vehicle=vid, role="rider", roof=None)
    ev.append(Event("boarded" if ok else "boarding_failed", {"model": mid, "vehicle": vid}))
    return ok


def _boarding_check(state: BandasState, mid: str, penalty: int, rng: Rng,
                    ev: list[Event]) -> bool:
    roll, value = rng.d6(), C.pericia(state, mid) - penalty
    ok = roll <= value
    ev.append(Event("pericia_check", {"model": mid, "roll": roll, "pericia": value,
                                      "passed": ok, "why": "boarding"}))
    return ok


def damaged(state: BandasState, vid: str) -> bool:
    v = state.vehicles[vid]
    return not v["wrecked"] and (v["wheels"] > 0 or v["weapon_broken"])


def repair(state: BandasState, mid: str, vid: str, rng: Rng, ev: list[Event]) -> None:
    """Mecánico: a pericia check mends one destroyed part, once per turn: the wheels first
    (they keep it from moving), else the weapon (see RULES.md)."""
    state.models[mid]["repaired"] = state.turn
    if C.check(state, mid, rng, ev, "repair"):
        v = state.vehicles[vid]
        if v["wheels"]:
            v["wheels"] = 0
        else:
            v["weapon_broken"] = False
        ev.append(Event("repaired", {"model": mid, "vehicle": vid}))


def can_drive(state: BandasState, vid: str) -> bool:
    v = state.vehicles[vid]
    driver = state.driver(vid)
    return not v["wrecked"] and driver is not None and \
        state.models[driver]["status"] == STANDING
