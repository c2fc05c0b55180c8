"""Table geometry with shapely: bases, vehicle footprints, straight moves, sight and cover.

Models are 2.5 cm discs (`RADIUS`), 3 cm tall, eyes at 2.5 cm. Heights: a model on a roof
stands at the building's height, a rider at its vehicle's height.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import LinearRing, LineString, MultiPoint, Point, Polygon

RADIUS = 1.25
FIGURE = 3.0
EYE = 2.5
CONTACT = 2 * RADIUS + 0.5      # centres this close are in base contact (melee)
EDGE = 2.0                      # Caídas: a hit this close to a roof edge pushes the model
SAMPLES = 9                     # points of a target sampled for sight (3 across x 3 up)
COVERED = 5                     # blocked samples from which a target is 50% covered


@dataclass(frozen=True)
class Block:
    """Something that stops movement and (above its height) sight: wall, solid, building,
    vehicle. `id` is the piece or vehicle id."""

    id: str
    shape: Polygon
    height: float
    building: bool = False

    # Terrain blocks live as long as their table (world.terrain is cached), so what is derived
    # from their shape alone is computed once; listing a model's moves asks for it at every
    # candidate point.
    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """minx, miny, maxx, maxy."""
        return self.shape.bounds

    @cached_property
    def roof_room(self) -> Polygon:
        """Where the centre of a base may stand on the roof (empty when none fits)."""
        return self.shape.buffer(-RADIUS)

    @cached_property
    def foot(self) -> LinearRing:
        """The ring just outside the block where a base stands against it (in cover)."""
        return self.shape.buffer(RADIUS + 0.2).exterior

    def near(self, a: tuple[float, float], b: tuple[float, float], margin: float = 0.0) -> bool:
        """Whether the box spanned by points a and b, grown by `margin`, meets the block's box:
        when it does not, no shapely call is needed to know that they stay apart."""
        x0, y0, x1, y1 = self.box
        return not (max(a[0], b[0]) + margin < x0 or min(a[0], b[0]) - margin > x1
                    or max(a[1], b[1]) + margin < y0 or min(a[1], b[1]) - margin > y1)


def polygon(points: Iterable[tuple[float, float]]) -> Polygon:
    return Polygon([tuple(p) for p in points])


def footprint(x: float, y: float, heading: float, length: float, width: float) -> Polygon:
    """A vehicle's rectangle centred on (x, y), its length along `heading` (degrees)."""
    c, s = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    corners = ((-length / 2, -width / 2), (length / 2, -width / 2), (length / 2, width / 2),
               (-length / 2, width / 2))
    return Polygon([(x + a * c - b * s, y + a * s + b * c) for a, b in corners])


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def base(p: tuple[float, float]) -> Polygon:
    return Point(p).buffer(RADIUS)


def base_overlaps(p: tuple[float, float], blocks: Iterable[Block]) -> bool:
    """A base standing at p overlaps one of the blocks (touching is not)."""
    near = [b for b in blocks if b.near(p, p, RADIUS)]
    if not near:
        return False
    here = base(p)
    return any(here.intersection(b.shape).area > 1e-6 for b in near)


def crosses(block: Block, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """The straight segment a-b runs through the block's inside (touching its edge is not)."""
    if not block.near(a, b):
        return False
    if a == b:
        return block.shape.contains(Point(a))
    return block.shape.intersection(LineString([a, b])).length > 1e-9


def roof_at(blocks: Iterable[Block], p: tuple[float, float]) -> Block | None:
    """The building whose roof holds the point, if any."""
    pt = Point(p)
    return next((b for b in blocks if b.building and b.shape.contains(pt)), None)


def near_edge(block: Block, p: tuple[float, float]) -> bool:
    return block.shape.exterior.distance(Point(p)) <= EDGE


Point3 = tuple[float, float, float]


def _ray_blocked(block: Block, a: Point3, b: Point3) -> bool:
    """The 3-D ray a-b passes through the block below its height somewhere."""
    seg = LineString([a[:2], b[:2]])
    inside = block.shape.intersection(seg)
    if inside.is_empty or seg.length == 0:
        return False
    for c in _coords(inside):
        t = seg.project(Point(c)) / seg.length
        if a[2] + t * (b[2] - a[2]) < block.height - 1e-9:
            return True
    return False


def blocked_samples(eye: Point3, target: Point3,
                    blocks: Iterable[Block]) -> int:
    """How many of the target's nine sample points the blocks hide from the eye (Rulebook,
    Línea de visión y coberturas). `target` is the target's feet (x, y, z)."""
    dx, dy = target[0] - eye[0], target[1] - eye[1]
    n = math.hypot(dx, dy) or 1.0
    px, py = -dy / n * RADIUS, dx / n * RADIUS      # across the target's base
    return hidden_points(eye, [(target[0] + k * px, target[1] + k * py, target[2] + h)
                               for k in (-1, 0, 1) for h in (0.5, 1.5, FIGURE - 0.5)], blocks)


def hidden_points(eye: Point3, points: list[Point3], blocks: Iterable[Block]) -> int:
    """How many of the points the blocks hide from the eye."""
    corridor = MultiPoint([eye[:2], *(p[:2] for p in points)]).convex_hull.buffer(0.01)
    near = [b for b in blocks if b.shape.intersects(corridor)]
    return sum(1 for p in points if any(_ray_blocked(b, eye, p) for b in near))


def vehicle_samples(shape: Polygon, height: float) -> list[Point3]:
    """Nine sample points of a vehicle for sight: its centre and, a fifth of the way in, two
    opposite corners, each at three heights."""
    corners = list(shape.exterior.coords)[:4]
    c = shape.centroid
    spots = [(c.x, c.y), (corners[0][0] * 0.8 + c.x * 0.2, corners[0][1] * 0.8 + c.y * 0.2),
             (corners[2][0] * 0.8 + c.x * 0.2, corners[2][1] * 0.8 + c.y * 0.2)]
    return [(x, y, z) for x, y in spots for z in (0.5, height / 2, height - 0.5)]


def pushed(start: tuple[float, float], angle: float, dist: float,
           blocks: Iterable[Block], width: float, height: float) -> tuple[float, float]:
    """Where a push or a drift of `dist` cm at `angle` (degrees) stops: at the first block met
    (a little short of it) or at the table edge."""
    end = (start[0] + dist * math.cos(math.radians(angle)),
           start[1] + dist * math.sin(math.radians(angle)))
    seg = LineString([start, end])
    stop = dist
    for b in blocks:
        if b.shape.contains(Point(start)):
            continue                                # leaving the roof or vehicle it is on
        hit = b.shape.intersection(seg)
        if not hit.is_empty:
            stop = min(stop, max(0.0, min(seg.project(Point(c)) for c in _coords(hit)) - 0.1))
    x = start[0] + stop * math.cos(math.radians(angle))
    y = start[1] + stop * math.sin(math.radians(angle))
    return (min(max(x, 0.0), width), min(max(y, 0.0), height))


def _coords(geom) -> list[tuple[float, float]]:
    """Every vertex of a (multi-part) intersection result."""
    return [c for g in getattr(geom, "geoms", [geom]) for c in g.coords]


def scatter_angle(direction: int) -> float:
    """The scatter die's 8 directions, 0 north and clockwise, as an angle (0 east, ccw)."""
    return (90 - 45 * direction) % 360
