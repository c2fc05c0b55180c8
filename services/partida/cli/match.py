"""A match held in memory on the engine, on its seeded stream, recording every action.

Play and replay share it: a match started from a record's header (seed, match id, scenario,
seats, options) draws exactly the same stream as the match that was recorded.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from partida.engine import Action, Event, Game, Outcome, Seat, StreamRng
from partida.engine.bots import MatchRecord


def seed_bytes(seed: int) -> bytes:
    return seed.to_bytes(8, "big")


def new_record(game: Game[Any], scenario: str, seats: int, seed: int,
               options: Mapping[str, Any] | None = None) -> MatchRecord:
    """An empty record named as `partida.engine.bots.play_match` names its matches."""
    return MatchRecord(game.info.id, scenario, seats, dict(options or {}),
                       seed_bytes(seed).hex(), f"local-{seed}")


@dataclass
class LocalMatch:
    game: Game[Any]
    state: Any
    rng: StreamRng
    record: MatchRecord

    @classmethod
    def start(cls, game: Game[Any], header: MatchRecord) -> LocalMatch:
        """Set up from `header`'s seed and settings; actions already in `header` are ignored.

        Raises BadSetup (scenario, seats, options) or ValueError (a seed that is not hex).
        """
        rng = StreamRng(bytes.fromhex(header.seed_hex), header.match_id)
        record = MatchRecord(header.game, header.scenario, header.seats, dict(header.options),
                             header.seed_hex, header.match_id)
        state = game.new_state(record.scenario, record.seats, record.options, rng)
        return cls(game, state, rng, record)

    def to_act(self) -> Seat | None:
        seats = self.game.to_act(self.state)
        return seats[0] if seats else None

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def view(self, seat: Seat | None = None) -> dict[str, Any]:
        # A deep copy: a view must not share lists with the live state.
        return copy.deepcopy(self.game.view(self.state, seat))

    def legal_actions(self, seat: Seat) -> list[Action]:
        return self.game.legal_actions(self.state, seat)

    def default_action(self, seat: Seat) -> str:
        return self.game.default_action(self.state, seat)

    def apply(self, seat: Seat, action_id: str) -> list[Event]:
        """Apply and record; raises IllegalAction (state untouched, nothing recorded)."""
        events = self.game.apply(self.state, seat, action_id, self.rng)
        self.record.actions.append((seat, action_id))
        self.record.outcome = self.outcome()
        return events


def describe(actions: list[Action], action_id: str) -> str:
    """The sentence of `action_id` among `actions`, or the id itself."""
    return next((a.description for a in actions if a.id == action_id), action_id)


def outcome_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    """An outcome as `MatchRecord.to_dict()` writes it."""
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "reason": outcome.reason, "draw": outcome.draw}
