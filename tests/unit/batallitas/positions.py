"""Positions built directly from small text grids (content/boards/FORMAT.md), for rule tests."""

from partida.engine.rng import Rng
from partida.games.batallitas.content import BoardFile, Legend, Placement, _read, parse_board
from partida.games.batallitas.grid import Field, Map

SHARED = Legend.model_validate(_read("boards/legend.json"))


def open_grid(rows: list[str]) -> list[str]:
    """A framed grid with no inner walls from rows of cell characters."""
    w = len(rows[0])
    frame = "+" + "-+" * w
    lines = [frame]
    for i, row in enumerate(rows):
        lines.append("|" + " ".join(row) + "|")
        lines.append(frame if i == len(rows) - 1 else "+" + "  " * (w - 1) + " +")
    return lines


def field(grid: list[str], *, noses=(), open_doors=(), flaps=(), blasts=None) -> Field:
    """A one-board field from a full grid picture (or from bare cell rows)."""
    if "+" not in grid[0]:
        grid = open_grid(grid)
    h, w = (len(grid) - 1) // 2, (len(grid[0]) - 1) // 2
    board = parse_board(SHARED, BoardFile(
        number=1, title="test", version=1, reconstruction=False, reconstructs=("test",),
        width=w, height=h, legend={}, edge_legend={}, notes=(), grid=tuple(grid)))
    m = Map.assemble({1: board}, [Placement(board=1, col=0, row=0)])
    return Field(m, noses=frozenset(noses), open_doors=frozenset(open_doors),
                 open_flaps=frozenset(flaps), blasts=dict(blasts or {}))


class ScriptedRng(Rng):
    """Hands out the given d6 faces in order (and fails loudly when they run out)."""

    def __init__(self, *faces: int) -> None:
        super().__init__()
        self._faces = list(faces)

    def next_u64(self) -> int:
        return self._faces.pop(0) - 1
