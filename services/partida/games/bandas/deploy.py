"""Setting up a gang sheet submitted as data (match option `gangs`): its vehicles, then its
models, at the first free spots of the side's deployment zone (ours: the book has no
deployment rule). Ready-made gangs keep their table's placements."""

from __future__ import annotations

import math

from shapely.geometry.base import BaseGeometry

from partida.engine import BadSetup
from partida.games.bandas import geometry as G
from partida.games.bandas import world as W
from partida.games.bandas.content import GangSheet, Placement, Side, Table, load

STEP = 3.0      # cm between candidate spots


def _spots(zone: BaseGeometry, step: float = STEP) -> list[tuple[float, float]]:
    minx, miny, maxx, maxy = zone.bounds
    out = []
    y = miny + step / 2
    while y < maxy:
        x = minx + step / 2
        while x < maxx:
            out.append((round(x, 1), round(y, 1)))
            x += step
        y += step
    return out


def place_gang(table: Table, side: Side, gang: GangSheet,
               taken: list[BaseGeometry],
               ) -> tuple[dict[str, tuple[float, float]], list[Placement]]:
    """Positions of the models on foot and placements of the vehicles with their crews.
    `taken` holds shapes already on the table (other gangs' vehicles and bases); it grows."""
    zone = G.polygon(side.deploy)
    centre = zone.centroid
    heading = math.degrees(math.atan2(table.height / 2 - centre.y, table.width / 2 - centre.x))
    blocks = [b.shape for b in W.terrain(table.id)]
    spots = _spots(zone)
    pts = load().points

    def free(shape: BaseGeometry) -> bool:
        return zone.contains(shape) and not any(
            shape.intersection(s).area > 1e-6 for s in [*blocks, *taken])

    placements = []
    for v in gang.vehicles:
        if not v.driver:
            raise BadSetup(f"{gang.id}: vehicle {v.id} needs a driver to be deployed")
        k = pts.vehicles[v.kind]
        at = next((p for p in spots
                   if free(G.footprint(p[0], p[1], heading, k.length, k.width))), None)
        if at is None:
            raise BadSetup(f"{gang.id}: no room for {v.id} in {side.id}'s deployment zone")
        taken.append(G.footprint(at[0], at[1], heading, k.length, k.width))
        placements.append(Placement(vehicle=v.id, at=at, heading=heading, driver=v.driver,
                                    gunner=v.gunner, riders=v.riders))
    crews = {c for v in gang.vehicles for c in v.crew()}
    positions = {}
    for m in gang.models:
        if m.id in crews:
            continue
        at = next((p for p in spots if free(G.Point(p).buffer(G.RADIUS + 0.2))), None)
        if at is None:
            raise BadSetup(f"{gang.id}: no room for {m.id} in {side.id}'s deployment zone")
        taken.append(G.Point(at).buffer(G.RADIUS + 0.2))
        positions[m.id] = at
    return positions, placements
