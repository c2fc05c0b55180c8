"""The table of a match as shapely shapes: terrain pieces and vehicles as blocks, where models
stand and what they see (Rulebook, Línea de visión y coberturas)."""

from __future__ import annotations

from functools import cache

from partida.games.bandas import geometry as G
from partida.games.bandas.content import Table, load
from partida.games.bandas.state import BandasState


@cache
def terrain(table_id: str) -> tuple[G.Block, ...]:
    """Walls, solid pieces and buildings of a table (light scenery is neither obstacle nor
    cover: Rulebook, Línea de visión y coberturas)."""
    return tuple(G.Block(p.id, G.polygon(p.polygon), p.height, p.kind == "building")
                 for p in load().table(table_id).pieces if p.kind != "light")


def table(state: BandasState) -> Table:
    return load().table(state.table)


def vehicle_shape(state: BandasState, vid: str) -> G.Block:
    v = state.vehicles[vid]
    kind = load().points.vehicles[v["kind"]]
    return G.Block(vid, G.footprint(v["x"], v["y"], v["heading"], kind.length, kind.width),
                   kind.height)


def blocks(state: BandasState, skip: frozenset[str] = frozenset()) -> list[G.Block]:
    """Everything that stops movement and sight now: terrain and vehicles (wrecks included)."""
    out = [b for b in terrain(state.table) if b.id not in skip]
    out += [vehicle_shape(state, vid) for vid in state.vehicles if vid not in skip]
    return out


def height(state: BandasState, mid: str) -> float:
    """Height of a model's feet: its roof's height, its vehicle's, or the ground."""
    m = state.models[mid]
    if m["vehicle"]:
        return load().points.vehicles[state.vehicles[m["vehicle"]]["kind"]].height
    if m["roof"]:
        return next(b.height for b in terrain(state.table) if b.id == m["roof"])
    return 0.0


def roof_block(state: BandasState, mid: str) -> G.Block | None:
    roof = state.models[mid]["roof"]
    return next((b for b in terrain(state.table) if b.id == roof), None) if roof else None


def hidden(state: BandasState, shooter: str, target: str) -> int:
    """Samples of the target hidden from the shooter (0 clear ... 9 out of sight). The
    vehicles either of them rides do not hide them."""
    skip = frozenset(v for v in (state.models[shooter]["vehicle"], state.models[target]["vehicle"])
                     if v)
    sx, sy = state.place(shooter)
    tx, ty = state.place(target)
    eye = (sx, sy, height(state, shooter) + G.EYE)
    return G.blocked_samples(eye, (tx, ty, height(state, target)), blocks(state, skip))


def hidden_vehicle(state: BandasState, shooter: str, vid: str) -> int:
    """Samples of a vehicle hidden from the shooter (see `geometry.vehicle_samples`)."""
    skip = frozenset({vid, *([state.models[shooter]["vehicle"]]
                             if state.models[shooter]["vehicle"] else [])})
    sx, sy = state.place(shooter)
    eye = (sx, sy, height(state, shooter) + G.EYE)
    target = vehicle_shape(state, vid)
    return G.hidden_points(eye, G.vehicle_samples(target.shape, target.height),
                           blocks(state, skip))


def range_to_vehicle(state: BandasState, mid: str, vid: str) -> float:
    return vehicle_shape(state, vid).shape.distance(G.Point(state.place(mid)))
