"""Bots over the engine contract. A bot sees only what its seat sees: the view and the
legal actions, never the state, so it cannot use hidden information."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from partida.engine.game import Game
from partida.engine.rng import LocalRng, Rng, StreamRng
from partida.engine.types import Action, Event, Json, Outcome, Seat


class Bot(Protocol):
    """Chooses one of `actions` for the seat whose `view` it is given."""

    def choose(self, view: Mapping[str, Json], actions: Sequence[Action], rng: Rng) -> str: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    def choose(self, view: Mapping[str, Json], actions: Sequence[Action], rng: Rng) -> str:
        return rng.choice(list(actions)).id


@dataclass
class MatchRecord:
    """A whole match played locally: what a replay file holds."""

    game: str
    scenario: str
    seats: int
    options: dict[str, Any]
    seed_hex: str
    match_id: str
    actions: list[tuple[Seat, str]] = field(default_factory=list)
    outcome: Outcome | None = None

    def to_dict(self) -> dict[str, Json]:
        out = self.outcome
        return {
            "game": self.game, "scenario": self.scenario, "seats": self.seats,
            "options": self.options, "seed": self.seed_hex, "match_id": self.match_id,
            "actions": [[s, a] for s, a in self.actions],
            "outcome": None if out is None else {"winners": list(out.winners),
                                                 "reason": out.reason, "draw": out.draw},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Json]) -> MatchRecord:
        out = d.get("outcome")
        return cls(d["game"], d["scenario"], d["seats"], dict(d["options"]), d["seed"],
                   d["match_id"], [(s, a) for s, a in d["actions"]],
                   None if out is None else Outcome(tuple(out["winners"]), out["reason"],
                                                    out.get("draw", False)))


Observer = Callable[[Any, Seat | None, str | None, list[Event]], None]


def play_match(
    game: Game,  # type: ignore[type-arg]
    scenario: str,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 100_000,
    observe: Observer | None = None,
) -> tuple[Any, MatchRecord]:
    """Play a match with one bot per seat on a seeded match stream; returns state and record.

    Each bot gets its own private Rng, so its choices do not disturb the match stream.
    `observe(state, seat, action, events)` is called after set-up and after every action.
    """
    seed_bytes = seed.to_bytes(8, "big")
    record = MatchRecord(game.info.id, scenario, len(bots), dict(options or {}),
                         seed_bytes.hex(), f"local-{seed}")
    rng = StreamRng(seed_bytes, record.match_id)
    state = game.new_state(scenario, len(bots), record.options, rng)
    bot_rngs = [LocalRng(seed * 1000 + i) for i in range(len(bots))]
    if observe:
        observe(state, None, None, [])
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat),
                                   bot_rngs[seat])
        events = game.apply(state, seat, action, rng)
        record.actions.append((seat, action))
        if observe:
            observe(state, seat, action, events)
    record.outcome = game.outcome(state)
    return state, record


def replay_record(game: Game, record: MatchRecord) -> Any:  # type: ignore[type-arg]
    """Rebuild a match's final state from its record (same seed, same actions)."""
    rng = StreamRng(bytes.fromhex(record.seed_hex), record.match_id)
    state = game.new_state(record.scenario, record.seats, record.options, rng)
    for seat, action in record.actions:
        game.apply(state, seat, action, rng)
    return state
