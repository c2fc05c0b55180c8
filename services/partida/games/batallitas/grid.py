"""The playing area: placed boards joined into one grid (`Map`), and what stands on it (`Field`).

Pure data and look-ups; geometry and movement rules live in geometry.py and movement.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from partida.games.batallitas.content import Board, CellSpec, Door, EdgeKey, Placement, Pos


def edge_between(a: Pos, b: Pos) -> EdgeKey:
    """The grid edge between two orthogonal neighbours."""
    (ax, ay), (bx, by) = a, b
    if ay == by and abs(ax - bx) == 1:
        return ("v", max(ax, bx), ay)
    if ax == bx and abs(ay - by) == 1:
        return ("h", ax, max(ay, by))
    raise ValueError(f"{a} and {b} are not orthogonal neighbours")


@dataclass(frozen=True)
class Map:
    """Boards placed side by side on a lattice of whole boards (no rotation)."""

    width: int
    height: int
    cells: tuple[tuple[CellSpec, ...], ...]  # [y][x]
    board_at: tuple[tuple[int, ...], ...]  # [y][x]: the board number of each cell
    walls: frozenset[EdgeKey]
    doors: tuple[Door, ...]
    door_of: Mapping[EdgeKey, int]

    @classmethod
    def assemble(cls, boards: Mapping[int, Board], placements: Iterable[Placement]) -> Map:
        given = list(placements)
        c0, r0 = min(p.col for p in given), min(p.row for p in given)
        placed = [Placement(board=p.board, col=p.col - c0, row=p.row - r0) for p in given]
        bw, bh = boards[placed[0].board].width, boards[placed[0].board].height
        if any((boards[p.board].width, boards[p.board].height) != (bw, bh) for p in placed):
            raise ValueError("all boards are the same size")
        cols = max(p.col for p in placed) + 1
        rows = max(p.row for p in placed) + 1
        cells: list[list[CellSpec | None]] = [[None] * (cols * bw) for _ in range(rows * bh)]
        owner = [[0] * (cols * bw) for _ in range(rows * bh)]
        walls: set[EdgeKey] = set()
        doors: list[Door] = []
        door_of: dict[EdgeKey, int] = {}
        for p in placed:
            b, ox, oy = boards[p.board], p.col * bw, p.row * bh
            for x, y in b.positions():
                cells[oy + y][ox + x] = b.cell((x, y))
                owner[oy + y][ox + x] = b.number
            walls.update((k, x + ox, y + oy) for k, x, y in b.walls)
            for d in b.doors:
                keys = tuple((k, x + ox, y + oy) for k, x, y in d.edges)
                if any(k in door_of for k in keys):
                    continue  # the same door seen from the neighbouring board
                doors.append(Door(id=len(doors), spec=d.spec, edges=keys))
                door_of.update((k, len(doors) - 1) for k in keys)
        if any(c is None for row in cells for c in row):
            raise ValueError("the boards must fill a rectangle")
        if walls & set(door_of):
            raise ValueError("an edge is a wall on one board and a door on the other")
        return cls(width=cols * bw, height=rows * bh,
                   cells=tuple(tuple(c for c in row if c is not None) for row in cells),
                   board_at=tuple(tuple(r) for r in owner), walls=frozenset(walls),
                   doors=tuple(doors), door_of=door_of)

    def inside(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def cell(self, p: Pos) -> CellSpec:
        return self.cells[p[1]][p[0]]

    def board(self, p: Pos) -> int:
        return self.board_at[p[1]][p[0]]

    def positions(self) -> list[Pos]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def with_feature(self, feature: str) -> list[Pos]:
        """The cells of one feature, in reading order."""
        return list(self._by_feature.get(feature, ()))

    @cached_property
    def _by_feature(self) -> dict[str | None, tuple[Pos, ...]]:
        # A map never changes once assembled, and scanning every cell for a feature was a
        # tenth of listing a Batallitas seat's actions.
        out: dict[str | None, list[Pos]] = {}
        for p in self.positions():
            out.setdefault(self.cell(p).feature, []).append(p)
        return {name: tuple(cells) for name, cells in out.items()}

    def door_between(self, a: Pos, b: Pos) -> Door | None:
        i = self.door_of.get(edge_between(a, b))
        return None if i is None else self.doors[i]

    def edge_cells(self, side: str) -> list[Pos]:
        """The cells along one side of the whole map, in order."""
        w, h = self.width, self.height
        return {"north": [(x, 0) for x in range(w)], "south": [(x, h - 1) for x in range(w)],
                "west": [(0, y) for y in range(h)], "east": [(w - 1, y) for y in range(h)]}[side]

    def outer_edge(self, p: Pos, side: str) -> EdgeKey:
        """The map-border edge on `side` of a border cell."""
        x, y = p
        return {"north": ("h", x, 0), "south": ("h", x, self.height),
                "west": ("v", 0, y), "east": ("v", self.width, y)}[side]


@dataclass(frozen=True)
class Field:
    """The map with what changes during play: noses, open doors and flaps, lingering blasts."""

    map: Map
    noses: frozenset[Pos] = frozenset()
    open_doors: frozenset[int] = frozenset()
    open_flaps: frozenset[Pos] = frozenset()
    open_edges: frozenset[EdgeKey] = frozenset()  # single open leaves of a partly open door
    # Lingering explosion templates: "blocks" (flamethrower) or "slows" (tear gas).
    blasts: Mapping[Pos, str] = field(default_factory=dict)
    # Cells made obstacles by something lying there (scenario 2's abandoned trolleys).
    clutter: frozenset[Pos] = frozenset()

    def terrain(self, p: Pos) -> str:
        c = self.map.cell(p)
        if c.flap and p in self.open_flaps:
            return "clear"
        return "obstacle" if p in self.clutter and c.terrain == "clear" else c.terrain

    def shut(self, key: EdgeKey) -> bool:
        """A wall, or a door that is closed."""
        if key in self.map.walls:
            return True
        door = self.map.door_of.get(key)
        return door is not None and door not in self.open_doors and key not in self.open_edges

    def shut_between(self, a: Pos, b: Pos) -> bool:
        return self.shut(edge_between(a, b))

    def blocks_step(self, p: Pos) -> bool:
        """A cell no nose may enter: off the map, obstructed, occupied or ablaze."""
        return (not self.map.inside(p) or self.terrain(p) in ("minor", "major")
                or p in self.noses or self.blasts.get(p) == "blocks")

    def blocks_sight(self, p: Pos) -> bool:
        """A cell that stops a line of sight crossing it."""
        return self.terrain(p) == "major" or p in self.noses or p in self.blasts
