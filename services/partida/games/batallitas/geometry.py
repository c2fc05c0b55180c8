"""Facing, the frontal arc, distance, line of sight and cover ("Line of Sight", "Diagonal line of
sight", "Range", "Cover", "Rule number 2: Command distance").

Lines of sight are shapely segments from cell centre to cell centre; the cells and edges they
meet are found by shapely intersections, never by hand-written geometry. Which cells, corners and
edges a segment meets depends on its two ends only, so each segment's answer is computed once and
remembered: listing a seat's actions asks for hundreds of sight lines, and the shapely calls were
most of a Batallitas action's cost.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import shapely
from shapely.geometry import LineString

from partida.games.batallitas.content import EdgeKey, Pos
from partida.games.batallitas.grid import Field

FACINGS = ("N", "E", "S", "W")  # clockwise; one step is a 90° turn
_VEC = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_EPS = 1e-9


def turned(facing: str, quarters: int) -> str:
    """The facing after `quarters` 90° turns clockwise (negative: anticlockwise)."""
    return FACINGS[(FACINGS.index(facing) + quarters) % 4]


def quarter_turns(a: str, b: str) -> int:
    """The fewest 90° turns from facing `a` to facing `b`."""
    d = (FACINGS.index(b) - FACINGS.index(a)) % 4
    return min(d, 4 - d)


def _ahead_and_aside(origin: Pos, facing: str, target: Pos) -> tuple[int, int]:
    fx, fy = _VEC[facing]
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    return dx * fx + dy * fy, abs(dx * fy - dy * fx)


def in_arc(origin: Pos, facing: str, target: Pos) -> bool:
    """In the frontal arc: 3 cells in the first rank, 5 in the second, 7 in the third..."""
    ahead, aside = _ahead_and_aside(origin, facing, target)
    return ahead > 0 and aside <= ahead


def front_cells(origin: Pos, facing: str) -> list[Pos]:
    """The three cells of the arc's first rank (straight ahead and both forward diagonals)."""
    fx, fy = _VEC[facing]
    ahead = (origin[0] + fx, origin[1] + fy)
    return [(ahead[0] + fy * s, ahead[1] - fx * s) for s in (-1, 0, 1)]


def distance(a: Pos, b: Pos) -> int:
    """Cells from `a` (not counted) to `b` (counted), diagonal steps counting one."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def range_band(d: int, weapon_range: int) -> str:
    """"short" up to the range, "long" up to twice it, else "impossible"."""
    return "short" if d <= weapon_range else "long" if d <= 2 * weapon_range else "impossible"


def corner_open(f: Field, a: Pos, c: Pos, blocks: Callable[[Pos], bool]) -> bool:
    """Whether something can pass diagonally from `a` to `c`: at least one side route is open,
    a side route through cell s being open when s does not block and no shut edge lies between
    s and `a` or `c`. Used for diagonal steps and for sight through a grid corner."""
    for s in ((c[0], a[1]), (a[0], c[1])):
        if f.map.inside(s) and not blocks(s) and not f.shut_between(a, s) \
                and not f.shut_between(s, c):
            return True
    return False


def _segment(a: Pos, b: Pos) -> LineString:
    return LineString([(a[0] + 0.5, a[1] + 0.5), (b[0] + 0.5, b[1] + 0.5)])


def _window(a: Pos, b: Pos) -> list[Pos]:
    return [(x, y) for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
            for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)]


# Segments remembered; about the number of cell pairs within sight range on the largest map.
_SEGMENTS_KEPT = 1 << 15


@lru_cache(maxsize=_SEGMENTS_KEPT)
def traversal(a: Pos, b: Pos) -> tuple[tuple[Pos, ...], tuple[tuple[int, int], ...]]:
    """The cells whose inside the centre-to-centre segment crosses (ends excluded), and the grid
    corners it passes exactly through."""
    seg = _segment(a, b)
    cells = _window(a, b)
    boxes = shapely.box([x for x, _ in cells], [y for _, y in cells],
                        [x + 1 for x, _ in cells], [y + 1 for _, y in cells])
    hits = shapely.intersection(seg, boxes)
    lengths = shapely.length(hits)
    crossed = tuple(p for p, n in zip(cells, lengths, strict=True)
                    if n > _EPS and p not in (a, b))
    corners = {(round(g.x), round(g.y)) for g, n in zip(hits, lengths, strict=True)
               if not g.is_empty and n <= _EPS and g.geom_type == "Point"}
    return crossed, tuple(sorted(corners))


def _edge_line(key: EdgeKey) -> LineString:
    kind, x, y = key
    return LineString([(x, y), (x, y + 1)] if kind == "v" else [(x, y), (x + 1, y)])


@lru_cache(maxsize=_SEGMENTS_KEPT)
def _cut_edges(a: Pos, b: Pos) -> tuple[EdgeKey, ...]:
    """The cell edges the segment cuts away from their ends (an edge's ends are corners)."""
    seg = _segment(a, b)
    keys = [(k, x, y) for x, y in _window(a, b) for k in ("v", "h")]
    keys += [("v", max(a[0], b[0]) + 1, y) for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)]
    keys += [("h", x, max(a[1], b[1]) + 1) for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)]
    cut = []
    for key in keys:
        hit = seg.intersection(_edge_line(key))
        if hit.is_empty:
            continue
        if not (abs(hit.x - round(hit.x)) < _EPS and abs(hit.y - round(hit.y)) < _EPS):
            cut.append(key)
    return tuple(cut)


def _crosses_shut_edge(f: Field, a: Pos, b: Pos) -> bool:
    """A wall or closed door cut by the segment away from its ends."""
    return any(f.shut(key) for key in _cut_edges(a, b))


def line_of_sight(f: Field, a: Pos, b: Pos) -> bool:
    """Centre-to-centre sight from `a` to `b` (facing is checked apart, by `in_arc`)."""
    if a == b:
        return True
    crossed, corners = traversal(a, b)
    if any(f.blocks_sight(p) for p in crossed) or _crosses_shut_edge(f, a, b):
        return False
    sx = 1 if b[0] > a[0] else -1
    sy = 1 if b[1] > a[1] else -1
    for vx, vy in corners:
        before = (vx - (1 if sx > 0 else 0), vy - (1 if sy > 0 else 0))
        after = (before[0] + sx, before[1] + sy)
        if not corner_open(f, before, after, f.blocks_sight):
            return False
    return True


def has_cover(f: Field, shooter: Pos, target: Pos) -> bool:
    """The sight line crosses a minor obstruction next to the target."""
    crossed, _ = traversal(shooter, target)
    return any(f.terrain(p) == "minor" and distance(p, target) == 1 for p in crossed)
