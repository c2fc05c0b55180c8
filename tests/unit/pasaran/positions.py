"""Building ¿Pasarán? positions directly for rule tests."""

from __future__ import annotations

from partida.engine import LocalRng, Rng
from partida.games.pasaran import board as B
from partida.games.pasaran.rules import SIDE_OF_SEAT, Pasaran
from partida.games.pasaran.state import PasaranState

GAME = Pasaran()
C = GAME.content


class Dice(Rng):
    """A stream that rolls the given d6 results in order (then 6s): combats with known dice."""

    def __init__(self, *rolls: int) -> None:
        super().__init__()
        self.rolls = list(rolls)

    def next_u64(self) -> int:
        return (self.rolls.pop(0) if self.rolls else 6) - 1


def fresh(seed: int = 0) -> PasaranState:
    return GAME.new_state("campaign", 2, {}, LocalRng(seed))


def empty(active: str = "rep", step: str = "move", weather: str = "good") -> PasaranState:
    """The July 1936 map with every unit off it, in `active`'s action segment at `step`."""
    state = fresh()
    for r in state.units.values():
        if r["status"] == "map":
            r.update(status="pool", at=None)
    state.phase, state.segment, state.initiative = "segment", 0, active
    state.active, state.step, state.weather = active, step, weather
    state.rail_left = C.counters.rail_moves[active]
    state.coast_left = C.counters.coastal_moves[active]
    return state


def put(state: PasaranState, place: str, *uids: str, face: str = "front") -> None:
    for uid in uids:
        state.units[uid].update(status="map", face=face, moved=False)
        B.move_to(state, uid, place)


def seat(state: PasaranState) -> int:
    (s,) = GAME.to_act(state)
    return s


def side(state: PasaranState) -> str:
    return SIDE_OF_SEAT[seat(state)]


def ids(state: PasaranState) -> list[str]:
    return [a.id for a in GAME.legal_actions(state, seat(state))]


def act(state: PasaranState, action: str, rng: Rng | None = None) -> list:  # type: ignore[type-arg]
    return GAME.apply(state, seat(state), action, rng or LocalRng(0))


def dests(state: PasaranState, uid: str, verb: str = "move") -> set[str]:
    prefix = f"{verb}:{uid}:"
    return {i[len(prefix):] for i in ids(state) if i.startswith(prefix)}


def at(state: PasaranState, uid: str) -> str | None:
    return state.units[uid]["at"]


def holder(state: PasaranState, place: str) -> str | None:
    return B.holder(state, place)
