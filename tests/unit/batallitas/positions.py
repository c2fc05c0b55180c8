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


def unframed(rows: list[str]) -> list[str]:
    """Like open_grid, but the board's outer edges are open too (noses may come on anywhere)."""
    lines = open_grid(rows)
    lines = [line.replace("-", " ") for line in lines]
    return [line[0].replace("|", " ") + line[1:-1] + line[-1].replace("|", " ")
            for line in lines]


SECRET_DOOR = {"s": {"kind": "door", "name": "secret door", "feature": "secret_door"}}
FLAP = {"f": {"terrain": "minor", "indoor": True, "name": "counter flap", "feature": "flap",
              "flap": True}}


def field(grid: list[str], *, noses=(), open_doors=(), flaps=(), blasts=None,
          edge_legend=None, legend=None) -> Field:
    """A one-board field from a full grid picture (or from bare cell rows)."""
    if "+" not in grid[0]:
        grid = open_grid(grid)
    h, w = (len(grid) - 1) // 2, (len(grid[0]) - 1) // 2
    board = parse_board(SHARED, BoardFile(
        number=1, title="test", version=1, reconstruction=False, reconstructs=("test",),
        width=w, height=h, legend=legend or {}, edge_legend=edge_legend or {}, notes=(),
        grid=tuple(grid)))
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


# --- whole-game positions ------------------------------------------------------------------

def game_position(rows: list[str], placed: dict, *, turn: int = 3, name: str | None = None,
                  hands: tuple = ((), ()), scenario: str = "last_game"):
    """A scenario 1 state (or `scenario`'s) on a hand-built board: `placed` maps nose ids of
    scenario 1 ("s0.1" is a Macute gunner of squad 0, "s2.0" the Fans' leader...) to (cell,
    facing); every other nose is out of the game. Set-up choices are skipped (no atrophy). Each
    seat holds the event cards `hands` names (none by default), the rest of its deck stays in
    the deck."""
    from partida.engine.rng import LocalRng
    from partida.games.batallitas.rules import Batallitas
    from partida.games.batallitas.state import GONE, IN_PLAY, SQUAD
    from partida.games.batallitas.world import register_map

    game = Batallitas()
    state = game.new_state(scenario, 2, {}, LocalRng(0))
    key = name or "|".join(rows)
    register_map(key, field(rows, edge_legend=SECRET_DOOR, legend=FLAP).map)
    state.options["map"] = key
    state.setup, state.phase, state.turn = [], SQUAD, turn
    for seat, hand in enumerate(hands):
        deck = state.decks[seat] + state.hands[seat]
        state.hands[seat] = [c for c in hand if c in deck]
        state.decks[seat] = [c for c in deck if c not in hand]
        assert len(state.hands[seat]) == len(hand), "a card from the other deck"
    for n in state.noses:
        if n.id in placed:
            cell, facing = placed[n.id]
            n.status, n.pos, n.facing = IN_PLAY, list(cell), facing
        else:
            n.status = GONE
    return game, state


def scenario_position(scenario: str, placed: dict, *, turn: int = 3, boards=None):
    """A state of `scenario` on its own boards (scenario 6: `boards`, [board, col, row]):
    `placed` maps nose ids to (cell, facing); the rest are out of the game; no cards in hand;
    the first placed nose's squad is activated (no card windows) and that nose is acting."""
    from partida.engine.rng import LocalRng
    from partida.games.batallitas import turn as T
    from partida.games.batallitas.rules import Batallitas
    from partida.games.batallitas.state import GONE, IN_PLAY, NOSE

    game = Batallitas()
    s = game.new_state(scenario, 2, {}, LocalRng(0))
    s.setup, s.prompts, s.turn = [], [], turn
    if boards is not None:  # scenario 6: the boards as the players laid them
        s.boards = [list(b) for b in boards]
    s.decks = [d + h for d, h in zip(s.decks, s.hands, strict=True)]
    s.hands = [[], []]
    for n in s.noses:
        if n.id in placed:
            n.status, n.pos, n.facing = IN_PLAY, list(placed[n.id][0]), placed[n.id][1]
        else:
            n.status = GONE
    first = s.nose(next(iter(placed)))
    T.activate(s, s.squads[first.squad], [])
    s.prompts = []
    s.phase, s.active_nose = NOSE, first.id
    return game, s


def acting(state, nose_id: str):
    """Activate the nose's squad (turn start effects included) and start its action phase; the
    enemy's activation card window, if any, is taken as passed."""
    from partida.games.batallitas.state import NOSE
    from partida.games.batallitas.turn import activate

    n = state.nose(nose_id)
    events: list = []
    activate(state, state.squads[n.squad], events)
    state.prompts = [p for p in state.prompts if p.get("timing") != "activation"]
    state.phase, state.active_nose = NOSE, nose_id
    return events


def ids(game, state, seat=None) -> list[str]:
    seat = game.to_act(state)[0] if seat is None else seat
    return [a.id for a in game.legal_actions(state, seat)]
