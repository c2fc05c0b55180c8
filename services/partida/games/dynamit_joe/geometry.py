"""The village as geometry: distances on the zone graph and line of sight between zone centres
(rulebook 2.3 Zones, 6 Line of sight, 7.3 blast radius), with shapely doing the segment tests."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from shapely.geometry import LineString, MultiLineString, Point

from partida.games.dynamit_joe.content import Board, Link, load

OUTSIDE = "outside"


@dataclass(frozen=True)
class Sight:
    """Whether a line of sight exists and whether the target counts as behind a door/window."""

    visible: bool
    behind_opening: bool = False


class Geometry:
    """Static facts of one board, computed once; the dynamic ones (who stands where, which locks
    still hold) are passed in by the caller."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.zones = {z.id: z for z in board.zones}
        self.ids = [z.id for z in board.zones]
        self.links: dict[str, list[tuple[str, Link]]] = {z: [] for z in self.ids}
        for link in board.links:
            self.links[link.a].append((link.b, link))
            self.links[link.b].append((link.a, link))
        self._solid = MultiLineString([list(s) for s in (*board.walls, *board.trees)])
        self._fences = MultiLineString([list(s) for s in board.fences])
        self._centres = {z.id: Point(z.centre) for z in board.zones}
        self.distance = {z: self._bfs(z) for z in self.ids}
        self._lines: dict[tuple[tuple[float, float], tuple[float, float], bool],
                          tuple[bool, tuple[str, ...]]] = {}

    def _bfs(self, start: str) -> dict[str, int]:
        out = {start: 0}
        todo = deque([start])
        while todo:
            z = todo.popleft()
            for other, _ in self.links[z]:
                if other not in out:
                    out[other] = out[z] + 1
                    todo.append(other)
        return out

    def link(self, a: str, b: str) -> Link | None:
        for other, link in self.links[a]:
            if other == b:
                return link
        return None

    def moves(self, zone: str, open_locks: Collection[str]) -> list[tuple[str, Link]]:
        """Adjacent zones a character may walk into (5.1): not over fences, not through a lock
        or bars that still hold (`open_locks` lists the locks that do not hold)."""
        return [(o, link) for o, link in self.links[zone]
                if link.kind != "fence" and (link.lock is None or link.lock in open_locks)]

    def line(self, p: tuple[float, float], q: tuple[float, float],
             over_fences: bool) -> tuple[bool, tuple[str, ...]]:
        """(blocked by a wall, tree or fence, zones whose centre circle the line crosses)."""
        key = (p, q, over_fences)
        hit = self._lines.get(key)
        if hit is None:
            seg = LineString([p, q])
            blocked = seg.intersects(self._solid) or (
                not over_fences and seg.intersects(self._fences))
            r = self.board.centre_radius
            crossed = tuple(z for z, c in self._centres.items()
                            if seg.distance(c) <= r and c.distance(Point(p)) > r
                            and c.distance(Point(q)) > r)
            hit = self._lines[key] = (blocked, crossed)
        return hit

    def _clear(self, p: tuple[float, float], q: tuple[float, float], ends: tuple[str, str],
               occupied: Collection[str], over_fences: bool) -> bool:
        blocked, crossed = self.line(p, q, over_fences)
        return not blocked and not any(z in occupied and z not in ends for z in crossed)

    def sight(self, a: str, t: str, occupied: Collection[str] = (), fired_outside: bool = False,
              over_fences: bool = False) -> Sight:
        """Line of sight from zone `a` to zone `t` (6.1, 6.2).

        Within one space (the outside, or one building) the centres are joined. Across spaces
        the line runs from or to the centre of a door or window: from one in the attacker's
        zone (case A), or to one in the target's zone, which needs the attacker right across
        it or the target to have fired outside (case B). A target reached through an opening
        of its own zone, or right across an opening from the attacker, is behind it (7.1).
        """
        if a == t:
            return Sight(True)
        za, zt = self.zones[a], self.zones[t]
        ends = (a, t)
        if za.space == zt.space:
            return Sight(self._clear(za.centre, zt.centre, ends, occupied, over_fences))
        eyes: list[tuple[tuple[float, float], str, Link | None]] = [(za.centre, za.space, None)]
        eyes += [(link.at, self.zones[o].space, link) for o, link in self.links[a]
                 if link.at is not None and self.zones[o].space != za.space]
        marks: list[tuple[tuple[float, float], str, Link | None, bool]] = [
            (zt.centre, zt.space, None, True)]
        marks += [(link.at, self.zones[o].space, link, o == a or fired_outside)
                  for o, link in self.links[t]
                  if link.at is not None and self.zones[o].space != zt.space]
        across = self.link(a, t) is not None and self.link(a, t).at is not None  # type: ignore[union-attr]
        for p, seen, eye_link in eyes:
            for q, from_space, mark_link, allowed in marks:
                if seen != from_space or not allowed or (eye_link is None and mark_link is None):
                    continue
                if eye_link is not None and eye_link is mark_link:
                    continue
                if p == q or self._clear(p, q, ends, occupied, over_fences):
                    return Sight(True, mark_link is not None or across)
        return Sight(False)

    def blast_zones(self, zone: str) -> list[str]:
        """Zones next to `zone` that a blast reaches (7.3): over open ground only, never
        through a wall (doors and windows included), a fence (6.1 counts fences as walls; 6.3
        lets only the throw itself over one) nor past a tree."""
        out = []
        for other, link in self.links[zone]:
            if link.kind in ("door", "window", "fence"):
                continue
            seg = LineString([self.zones[zone].centre, self.zones[other].centre])
            if not seg.intersects(self._solid) and not seg.intersects(self._fences):
                out.append(other)
        return sorted(out)


@cache
def geometry() -> Geometry:
    return Geometry(load().board)
