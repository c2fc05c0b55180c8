"""From a state to the playing field: the scenario's map (cached) and the `Field` of the moment,
with doors as cells see them ("Walls and doors", "Doors", "Double doors", the automatic doors of
the Board 2 and Board 7 notes)."""

from __future__ import annotations

from functools import cache

from partida.games.batallitas.content import Content, Door, EdgeKey, Placement, Pos, load
from partida.games.batallitas.grid import Field, Map
from partida.games.batallitas.state import BatallitasState

_VEC = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@cache
def scenario_map(scenario: str) -> Map:
    c: Content = load()
    return Map.assemble(c.boards, c.scenario(scenario).boards)


_EXTRA_MAPS: dict[str, Map] = {}


def register_map(name: str, m: Map) -> None:
    """Make a hand-built map available to states whose option "map" names it (rule tests build
    small positions this way)."""
    _EXTRA_MAPS[name] = m


@cache
def placed_map(boards: tuple[tuple[int, int, int], ...]) -> Map:
    """A map the players laid out (scenario 6)."""
    return Map.assemble(load().boards, [Placement(board=b, col=c, row=r) for b, c, r in boards])


def state_map(state: BatallitasState) -> Map:
    name = state.options.get("map")
    if name:
        return _EXTRA_MAPS[name]
    placing = load().scenario(state.scenario).placement
    if placing is not None and len(state.boards) < placing.boards:
        raise ValueError("scenario 6 has no map until its four boards are placed")
    if state.boards:
        return placed_map(tuple((b, c, r) for b, c, r in state.boards))
    return scenario_map(state.scenario)


def edge_cells(key: EdgeKey) -> tuple[Pos, Pos]:
    """The two cells an edge separates (west/north one first)."""
    kind, x, y = key
    return ((x - 1, y), (x, y)) if kind == "v" else ((x, y - 1), (x, y))


def door_cells(door: Door) -> list[Pos]:
    """The cells directly in front of a door, on either side (two per leaf)."""
    return [c for key in door.edges for c in edge_cells(key)]


def ahead(p: Pos, facing: str) -> Pos:
    dx, dy = _VEC[facing]
    return (p[0] + dx, p[1] + dy)


def facing_door(m: Map, p: Pos, facing: str, door: Door) -> bool:
    """Standing in front of one of the door's leaves and looking through it."""
    q = ahead(p, facing)
    return any(set(edge_cells(k)) == {p, q} for k in door.edges)


def field_of(state: BatallitasState) -> Field:
    """The field now: noses, open doors (automatic ones open while a nose stands in front),
    lingering explosion templates, abandoned trolleys (obstacles)."""
    m = state_map(state)
    noses = frozenset(n.cell for n in state.in_play() if n.cell is not None)
    opened = set(state.open_doors)
    for door in m.doors:
        if door.spec.automatic and any(c in noses for c in door_cells(door)):
            opened.add(door.id)
    blasts = {(b["pos"][0], b["pos"][1]): b["kind"] for b in state.blasts}
    clutter = frozenset((k["pos"][0], k["pos"][1]) for k in state.markers
                        if k["kind"] == "trolley" and k.get("pos") is not None)
    leaves = frozenset(m.doors[d].edges[leaf] for d, leaf in state.open_leaves)
    flaps = frozenset((x, y) for x, y in state.open_flaps)
    return Field(m, noses=noses, open_doors=frozenset(opened), blasts=blasts, clutter=clutter,
                 open_edges=leaves, open_flaps=flaps)
