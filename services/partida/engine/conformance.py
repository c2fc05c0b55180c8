"""The conformance kit: checks every game must pass, usable by any registered game.

Each check raises AssertionError with a message naming the game, scenario, seed and step.
`tests/conformance/` runs them for every registered game; a third-party game runs the same
functions on itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from partida.engine.errors import IllegalAction
from partida.engine.game import Game
from partida.engine.rng import LocalRng, StreamRng
from partida.engine.types import Json, Seat

GARBAGE_IDS = ("", "garbage", "\x00", "play:", "9" * 200, "é/../..", "discard:XX,YY")


@dataclass
class Playout:
    """A finished random playout: the action log and the states it went through."""

    game: Game  # type: ignore[type-arg]
    scenario: str
    seats: int
    seed: bytes
    match_id: str
    options: dict[str, Any]
    log: list[tuple[Seat, str]] = field(default_factory=list)
    state: Any = None
    steps: int = 0


def match_rng(seed: bytes, match_id: str) -> StreamRng:
    return StreamRng(seed, match_id)


def canonical(data: Json) -> str:
    """A stable text form, so states and views compare exactly."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def random_playout(
    game: Game,  # type: ignore[type-arg]
    scenario: str,
    seats: int,
    seed: int,
    max_steps: int,
    options: dict[str, Any] | None = None,
    each_step: Callable[[Playout, Seat], None] | None = None,
) -> Playout:
    """Play uniformly random legal actions until the match ends or `max_steps` is reached."""
    p = Playout(game, scenario, seats, seed.to_bytes(8, "big"), f"conf-{seed}", dict(options or {}))
    rng = match_rng(p.seed, p.match_id)
    chooser = LocalRng(seed)
    p.state = game.new_state(scenario, seats, p.options, rng)
    while game.outcome(p.state) is None and p.steps < max_steps:
        to_act = game.to_act(p.state)
        where = f"{game.info.id}/{scenario} seed={seed} step={p.steps}"
        assert to_act, f"{where}: no outcome yet nobody is to act"
        seat = chooser.choice(list(to_act))
        if each_step is not None:
            each_step(p, seat)
        actions = game.legal_actions(p.state, seat)
        assert actions, f"{where}: seat {seat} is to act but has no legal action"
        ids = [a.id for a in actions]
        assert len(set(ids)) == len(ids), f"{where}: duplicate action ids"
        action = chooser.choice(actions).id
        game.apply(p.state, seat, action, rng)
        p.log.append((seat, action))
        p.steps += 1
    return p


def replay(p: Playout) -> Any:
    """Rebuild the final state from the set-up and the action log with the same stream."""
    rng = match_rng(p.seed, p.match_id)
    state = p.game.new_state(p.scenario, p.seats, p.options, rng)
    for seat, action in p.log:
        p.game.apply(state, seat, action, rng)
    return state


def check_terminates(p: Playout) -> None:
    assert p.game.outcome(p.state) is not None, (
        f"{p.game.info.id}/{p.scenario}: no outcome after {p.steps} steps"
    )


def check_replay(p: Playout) -> None:
    again = replay(p)
    assert canonical(again.to_dict()) == canonical(p.state.to_dict()), (
        f"{p.game.info.id}/{p.scenario}: replaying the log gave another state"
    )


def check_roundtrip(game: Game, state: Any) -> None:  # type: ignore[type-arg]
    data = state.to_dict()
    text = canonical(data)
    back = game.state_from_dict(json.loads(text))
    assert canonical(back.to_dict()) == text, f"{game.info.id}: serialization is lossy"
    assert canonical(state.clone().to_dict()) == text, f"{game.info.id}: clone differs"


def check_illegal_refused(game: Game, state: Any, seat: Seat) -> None:  # type: ignore[type-arg]
    """Wrong seats, garbage ids and non-strings raise IllegalAction and change nothing."""
    before = canonical(state.to_dict())
    legal = {a.id for a in game.legal_actions(state, seat)}
    to_act = set(game.to_act(state))
    probes: list[tuple[Seat, Any]] = [(seat, g) for g in GARBAGE_IDS if g not in legal]
    probes += [(seat, 17), (seat, None)]
    for other in range(-1, 6):
        if other not in to_act and legal:
            probes.append((other, next(iter(legal))))
    for s, action in probes:
        rng = LocalRng(0)
        try:
            game.apply(state, s, action, rng)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{game.info.id}: seat {s} action {action!r} was accepted")
        assert not rng.draws, f"{game.info.id}: a refused action drew randomness"
        assert canonical(state.to_dict()) == before, f"{game.info.id}: refused action mutated"


def check_stale_refused(game: Game, state: Any, seat: Seat, stale: str) -> None:  # type: ignore[type-arg]
    """An action id that was legal earlier but is not now is refused and changes nothing."""
    if any(a.id == stale for a in game.legal_actions(state, seat)):
        return
    before = canonical(state.to_dict())
    try:
        game.apply(state, seat, stale, LocalRng(0))
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{game.info.id}: stale action {stale!r} accepted")
    assert canonical(state.to_dict()) == before


def check_views_leak_nothing(game: Game, state: Any, seats: int, seed: int) -> None:  # type: ignore[type-arg]
    """view(s, x) == view(determinize(s, x), x) for every seat and for spectators."""
    for seat in [*range(seats), None]:
        det = game.determinize(state, seat, LocalRng(seed))
        assert canonical(game.view(det, seat)) == canonical(game.view(state, seat)), (
            f"{game.info.id}: the view of seat {seat} changes when hidden data is resampled"
        )


def check_default_legal(game: Game, state: Any) -> None:  # type: ignore[type-arg]
    for seat in game.to_act(state):
        default = game.default_action(state, seat)
        legal = {a.id for a in game.legal_actions(state, seat)}
        assert default in legal, f"{game.info.id}: default {default!r} of seat {seat} is illegal"


def full_check(p: Playout, seat: Seat) -> None:
    """Every per-step check, for use as `random_playout(..., each_step=full_check)`."""
    check_roundtrip(p.game, p.state)
    check_default_legal(p.game, p.state)
    check_illegal_refused(p.game, p.state, seat)
    check_views_leak_nothing(p.game, p.state, p.seats, p.steps)
    if p.log:
        check_stale_refused(p.game, p.state, seat, p.log[-1][1])
