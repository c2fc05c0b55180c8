"""Engines' Rng fed by the dice service (live play) or by logged values (rebuilds, audits)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from partida.engine.rng import Rng
from partida.engine.types import Event

Draw = Callable[[int], tuple[int, Sequence[int]]]  # count -> (first position, values)

BATCH = 32  # values fetched per call to the dice service; unused ones wait for the next action
SETUP_BATCH = 128  # a set-up shuffles decks: one call covers Las Montañas' (about 100 values)


def numbered(first: int, values: Sequence[int]) -> list[tuple[int, int]]:
    """Values handed out from position `first` on, as (position, value) pairs."""
    return [(first + i, v) for i, v in enumerate(values)]


class DrawnRng(Rng):
    """Takes values from a prefetched buffer, refilling it from the dice service, and records
    the (position, value) pairs consumed so the action can be logged and replayed."""

    def __init__(self, buffer: Sequence[tuple[int, int]], draw: Draw, batch: int = BATCH) -> None:
        super().__init__()
        self.buffer = list(buffer)
        self._draw = draw
        self._batch = batch
        self.positions: list[int] = []
        self.values: list[int] = []

    def next_u64(self) -> int:
        if not self.buffer:
            self.buffer = numbered(*self._draw(self._batch))
        position, value = self.buffer.pop(0)
        self.positions.append(position)
        self.values.append(value)
        return value


class ReplayRng(Rng):
    """Hands back exactly the values an action consumed when it was first applied."""

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__()
        self._values = list(values)
        self._next = 0

    def next_u64(self) -> int:
        if self._next >= len(self._values):
            raise RuntimeError("the replayed action asks for more randomness than it used")
        value = self._values[self._next]
        self._next += 1
        return value

    def exhausted(self) -> bool:
        return self._next == len(self._values)


def replay_setup(game: Any, scenario: str, seats: int, options: Mapping[str, Any],
                 values: Sequence[int]) -> Any:
    """The set-up a log's record 0 describes, with the random values it used."""
    return game.new_state(scenario, seats, options, ReplayRng(values))


def replay_action(game: Any, state: Any, kind: str, seat: int, action_id: str,
                  values: Sequence[int]) -> tuple[list[Event], ReplayRng]:
    """Re-apply one logged record (an action, a timeout default or a resignation) with the
    values it consumed; returns its events and the Rng, to check every value was used."""
    rng = ReplayRng(values)
    if kind == "resign":
        return list(game.resign(state, seat)), rng
    return list(game.apply(state, seat, action_id, rng)), rng
