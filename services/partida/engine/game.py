"""The engine contract every game implements (see ARCHITECTURE.md, "The engine contract")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Container, Mapping
from typing import Any, Generic, Protocol, TypeVar

from partida.engine.errors import IllegalAction, RefusedItsOwnAction
from partida.engine.rng import LocalRng, Rng
from partida.engine.types import Action, Event, GameInfo, Json, Outcome, Seat


class State(Protocol):
    """A game's state: plain data, cheap to clone, serializable without loss."""

    def clone(self) -> Any: ...

    def to_dict(self) -> dict[str, Json]: ...


S = TypeVar("S", bound=State)


class Game(ABC, Generic[S]):
    """One game's rules as pure functions of a state. Subclasses hold no match data.

    `apply` is a template: it checks the seat and the action, then calls `_apply`, so a
    refused action never reaches code that mutates.
    """

    info: GameInfo

    @abstractmethod
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any], rng: Rng) -> S:
        """Full set-up, including any random set-up drawn from `rng`."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[Seat, ...]:
        """The seats that hold a pending decision now (empty once the match is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """Every action `seat` may take now; empty when it has no decision."""

    @abstractmethod
    def default_action(self, state: S, seat: Seat) -> str:
        """The action taken for `seat` when its decision times out (always legal)."""

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        """Carry out an action already known to be legal; mutates `state`."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Json]:
        """Exactly what `seat` (None: a spectator) may know, as JSON-plain data."""

    @abstractmethod
    def determinize(self, state: S, seat: Seat | None, rng: Rng) -> S:
        """A copy with everything hidden from `seat` resampled consistently with its view."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the match is over, else None."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Json]) -> S:
        """Inverse of `state.to_dict()`."""

    def seat_side(self, state: S, seat: Seat) -> str:
        """The side `seat` plays for now, one of its scenario's `sides`; "" in a game whose
        scenarios name none. The rules service records each seat's side as dealt at the
        set-up (Seat.side); ratings do not make team-mates opponents."""
        return ""

    def dealt_sides(self, scenario: str, seats: int) -> tuple[str, ...]:
        """The side each seat of a `seats`-seat table of `scenario` is dealt at the set-up,
        before any play: what matchmaking needs to seat a campaign's teams one to a side.
        Every game here deals sides by scenario and seat count alone (the conformance suite
        checks it against seat_side after random set-ups); a game whose deal depends on
        options or dice would override this."""
        state = self.new_state(scenario, seats, {}, LocalRng(0))
        return tuple(self.seat_side(state, seat) for seat in range(seats))

    def resign(self, state: S, seat: Seat) -> list[Event]:
        """End the match for a seat that gives up, as the game's rules say. Games without
        resignation keep this default, which refuses."""
        raise IllegalAction("this game has no resignation")

    def validate(self, state: S, seat: Seat, action_id: str) -> None:
        """Raise IllegalAction unless `seat` may take `action_id` now.

        The default compares with `legal_actions`; games with continuous choices
        (Bandas' destinations) override it to accept any point that obeys the rules.
        """
        if self.outcome(state) is not None:
            raise IllegalAction("the match is over")
        if type(seat) is not int:  # True == 1 and 1.0 == 1 in Python: refuse them outright
            raise IllegalAction("a seat must be an integer")
        if seat not in self.to_act(state):
            raise IllegalAction(f"seat {seat} has no decision to take now")
        if not any(a.id == action_id for a in self.legal_actions(state, seat)):
            raise IllegalAction(f"{action_id!r} is not a legal action for seat {seat} now")

    def apply(self, state: S, seat: Seat, action: str | Action, rng: Rng,
              listed: Container[str] = ()) -> list[Event]:
        """Validate, then apply; on IllegalAction the state is untouched. `listed`: ids that
        `legal_actions` gave for this very state and seat (a caller's memo); an action among
        them is legal, so it is not checked a second time."""
        action_id = action.id if isinstance(action, Action) else action
        if not isinstance(action_id, str):
            raise IllegalAction("an action id must be a string")
        if action_id not in listed:
            self.validate(state, seat, action_id)
        try:
            return self._apply(state, seat, action_id, rng)
        except IllegalAction as e:  # found legal above: the game contradicts itself
            raise RefusedItsOwnAction(
                f"{self.info.id}: seat {seat}'s legal {action_id!r} was refused when applied: "
                f"{e.reason}") from e
