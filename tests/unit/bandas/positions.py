"""Building Bandas positions directly for rule tests."""

from __future__ import annotations

from partida.engine import LocalRng, Rng
from partida.games.bandas.rules import Bandas
from partida.games.bandas.state import BandasState

GAME = Bandas()


class ScriptedRng(Rng):
    """Hands out the given faces in order (d6 faces, scatter directions 1-8 as 1..8) and fails
    loudly when they run out."""

    def __init__(self, *faces: int) -> None:
        super().__init__()
        self._faces = list(faces)

    def next_u64(self) -> int:
        return self._faces.pop(0) - 1

    def left(self) -> int:
        return len(self._faces)


def arena(table: str = "street_fight", seats: int = 2, keep: dict | None = None,
          vehicles: dict | None = None) -> BandasState:
    """A table's match with only the models in `keep` (id -> (x, y)) and the vehicles in
    `vehicles` (id -> (x, y, heading)); the others are taken away, riders of kept vehicles
    stay aboard. Nobody is activated yet; initiative order is seat 0 first."""
    state = GAME.new_state(table, seats, {}, LocalRng(0))
    vehicles = vehicles or {}
    for vid in list(state.vehicles):
        if vid not in vehicles:
            del state.vehicles[vid]
        else:
            x, y, h = vehicles[vid]
            state.vehicles[vid].update(x=float(x), y=float(y), heading=float(h))
    keep = keep or {}
    for mid in list(state.models):
        m = state.models[mid]
        if mid in keep:
            m.update(x=float(keep[mid][0]), y=float(keep[mid][1]), vehicle=None, role=None,
                     roof=None)
        elif not (m["vehicle"] and m["vehicle"] in vehicles):
            del state.models[mid]
    state.order, state.cursor, state.active = list(range(seats)), 0, None
    return state


def activate(state: BandasState, unit: str, *faces: int) -> list:
    """Make `unit`'s seat the one to act and activate it (dice for any start-of-activation
    roll given as `faces`)."""
    owner = (state.vehicles.get(unit) or state.models[unit])["seat"]
    state.cursor = state.order.index(owner)
    state.active = None
    return GAME.apply(state, owner, f"activate:{unit}", ScriptedRng(*faces))


def act(state: BandasState, action: str, *faces: int) -> list:
    """Apply `action` for the seat to act with scripted dice; every face must be used."""
    rng = ScriptedRng(*faces)
    events = GAME.apply(state, GAME.to_act(state)[0], action, rng)
    assert rng.left() == 0, f"{rng.left()} scripted faces were not used"
    return events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of(events, kind: str) -> list[dict]:
    return [dict(e.data) for e in events if e.kind == kind]
