"""Scenario 6, Streets of Fire: the players place four boards in turn, the papal player first,
each joined by a whole side to one already placed, never turned (Scenario 6: "Boards").

**Decision** (RULES.md): the four boards must make a rectangle (a row, a column or a square of
two by two), since the map is a rectangle of whole boards and the sides the squads enter by
must be whole sides of it. A placement is offered only where that is still possible.
Action id `board:<number>:<col>,<row>`, columns and rows counted from the first board (they
may be negative); `state.boards` keeps [board, col, row] shifted so the least are 0.
"""

from __future__ import annotations

from partida.engine import Action, Event
from partida.games.batallitas.content import load
from partida.games.batallitas.state import BatallitasState

SHAPES = {(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1), (2, 2)}


def spots(state: BatallitasState) -> list[tuple[int, int]]:
    placed = {(c, r) for _, c, r in state.boards}
    if not placed:
        return [(0, 0)]
    out = set()
    for c, r in placed:
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            p = (c + dc, r + dr)
            if p not in placed and _shape(placed | {p}) in SHAPES:
                out.add(p)
    return sorted(out)


def _shape(cells: set[tuple[int, int]]) -> tuple[int, int]:
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    return (max(cols) - min(cols) + 1, max(rows) - min(rows) + 1)


def actions(state: BatallitasState) -> list[Action]:
    used = {b for b, _, _ in state.boards}
    return [Action(f"board:{b}:{c},{r}", f"place board {b} at column {c}, row {r}")
            for b in range(1, 9) if b not in used for c, r in spots(state)
            if not clashes([*state.boards, [b, c, r]])]


def clashes(boards: list[list[int]]) -> bool:
    """A wall of one board lies on the very edge where a board beside it has a door (board 4's
    east doors against a walled side): such a map cannot be joined (`grid.Map.assemble`), so
    the placement is not offered (RULES.md decision)."""
    content = load()
    walls: set[tuple[str, int, int]] = set()
    doors: set[tuple[str, int, int]] = set()
    for number, col, row in boards:
        b = content.boards[number]
        ox, oy = col * b.width, row * b.height
        walls.update((k, x + ox, y + oy) for k, x, y in b.walls)
        doors.update((k, x + ox, y + oy) for d in b.doors for k, x, y in d.edges)
    return bool(walls & doors)


def place(state: BatallitasState, board: int, col: int, row: int, ev: list[Event]) -> None:
    placed = [*state.boards, [board, col, row]]
    c0 = min(c for _, c, _ in placed)
    r0 = min(r for _, _, r in placed)
    state.boards = [[b, c - c0, r - r0] for b, c, r in placed]
    ev.append(Event("board_placed", {"board": board, "boards": [list(b) for b in state.boards]}))
