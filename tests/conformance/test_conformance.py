"""Conformance properties of every registered game, run on hypothesis-drawn seeds.

Each test is parametrized over every registered game x each of its scenarios x a few seat
counts (the minimum, one in between and the maximum), and draws the seed of a random
playout with hypothesis. The checks themselves live in `partida.engine.conformance`, so a
third-party game can run exactly the same ones on itself.

How many seeds each test tries depends on the hypothesis profile (see tests/conftest.py).
To reproduce a failure, hypothesis prints the falsifying seed; `random_playout(game,
scenario, seats, seed, bound)` replays that very match.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partida.engine import Game, all_games, get
from partida.engine import conformance as kit

# The one place for per-game playout bounds: a random or all-defaults playout must reach an
# outcome within this many actions. A tight bound makes a non-terminating game fail fast
# (every step of most tests runs checks). Las Montañas: random playouts measured at most 149
# actions (2 000 seeds), all-default ones at most 49; the bound leaves a factor of ten.
DEFAULT_STEP_BOUND = 20_000
STEP_BOUND: dict[str, int] = {"montanas": 2_000}

# Per-step checks run on every k-th step of a playout, from an offset the seed picks, so the
# examples together still cover every step. For games whose playouts run to hundreds of
# actions (Dynamit Joe: 100-450; Batallitas: a few hundred to a thousand), checking each step
# made the suite take a quarter of an hour. Bandas: 150-300 actions, and each step's legal
# lattice is costly (shapely), so every 10th.
CHECK_EVERY: dict[str, int] = {"dynamit_joe": 4, "batallitas": 4, "bandas": 10, "pasaran": 25}

# Known engine/game bugs, as (game id, test name) -> reason. The matching cases are marked
# xfail(strict=True): they are expected to fail, and start failing loudly ("XPASS(strict)")
# once the bug is fixed, so the entry gets removed.
KNOWN_BUGS: dict[tuple[str, str], str] = {
    # e.g. ("montanas", "test_views_are_detached_from_the_state"): "view shares state lists",
}

# Games whose playouts are long run only one example in SHARE[game] of the profile's
# (those whose seed is a multiple of it; hypothesis tries seed 0 first), so the whole suite stays
# within a CI run's time; the thorough profile runs them all. Measured CPU per random playout:
# Batallitas about 0.8 s, Bandas 0.4 s, ¿Pasarán? 3.8 s (Montañas 0.01 s, Dynamit Joe 0.04 s but
# 24 cases). With shares of 6, 4 and 8 and Dynamit Joe in full the conformance suite took about
# 18 minutes on 2 cores (2026-11-29); these shares cut it further (not measured yet).
SHARE: dict[str, int] = {"dynamit_joe": 2, "batallitas": 8, "bandas": 6, "pasaran": 12}

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def sampled(game_id: str, seed: int) -> Game | None:  # type: ignore[type-arg]
    """The game, or None when this example is not among its share (the test then passes
    without playing)."""
    share = 1 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else SHARE.get(game_id, 1)
    return get(game_id) if seed % share == 0 else None


def step_bound(game: Game) -> int:  # type: ignore[type-arg]
    return STEP_BOUND.get(game.info.id, DEFAULT_STEP_BOUND)


def _cases(test_name: str) -> list[Any]:
    out = []
    for game in all_games():
        bug = KNOWN_BUGS.get((game.info.id, test_name))
        marks = [pytest.mark.xfail(reason=bug, strict=True, raises=AssertionError)] if bug else []
        for scenario in game.info.scenarios:
            for seats in kit.seat_counts(scenario):
                out.append(pytest.param(game.info.id, scenario.id, seats, marks=marks,
                                        id=f"{game.info.id}-{scenario.id}-{seats}p"))
    return out


def cases(func: Callable[..., Any]) -> Callable[..., Any]:
    """Parametrize a test over (game id, scenario id, seats) for every registered game."""
    return pytest.mark.parametrize(("game_id", "scenario", "seats"), _cases(func.__name__))(func)


def checked_playout(
    game: Game,  # type: ignore[type-arg]
    scenario: str,
    seats: int,
    seed: int,
    check: Callable[[Any, kit.Playout], None],
) -> kit.Playout:
    """A random playout that runs `check(state, playout)` before every action (every k-th for
    the games in CHECK_EVERY) and on the final state, then asserts the playout finished."""
    every = CHECK_EVERY.get(game.info.id, 1)

    def each_step(p: kit.Playout, seat: Any) -> None:
        if (p.steps + seed) % every == 0:
            check(p.state, p)

    p = kit.random_playout(game, scenario, seats, seed, step_bound(game), each_step=each_step)
    kit.check_terminates(p)
    check(p.state, p)
    return p


# ----- termination ---------------------------------------------------------------------------

@cases
@given(seed=SEEDS)
def test_random_playout_ends_within_bound(game_id: str, scenario: str, seats: int,
                                          seed: int) -> None:
    game = sampled(game_id, seed)
    if game is None:
        return
    p = kit.random_playout(game, scenario, seats, seed, step_bound(game))
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, seats)
    kit.check_decisions(game, p.state, seats)


@cases
@given(seed=SEEDS)
def test_default_only_playout_terminates(game_id: str, scenario: str, seats: int,
                                         seed: int) -> None:
    """Every seat timing out every time (only default actions) still ends the match."""
    game = sampled(game_id, seed)
    if game is None:
        return
    p = kit.default_playout(game, scenario, seats, seed, step_bound(game),
                            each_step=lambda p, seat: kit.check_default_legal(game, p.state))
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, seats)
    kit.check_replay(p)


# ----- determinism -----------------------------------------------------------------------------

@cases
@given(seed=SEEDS, cut=st.integers(min_value=0, max_value=10**6))
def test_replay_reproduces_the_state(game_id: str, scenario: str, seats: int, seed: int,
                                     cut: int) -> None:
    """The set-up plus the action log plus the same stream give the same state (and the same
    events); stopping anywhere, serializing and resuming from the stream position too."""
    game = sampled(game_id, seed)
    if game is None:
        return
    p = kit.random_playout(game, scenario, seats, seed, step_bound(game))
    kit.check_replay(p)
    kit.check_replay_events(p)
    kit.check_resume(p, cut % (p.steps + 1))


# ----- serialization and cloning ----------------------------------------------------------------

@cases
@given(seed=SEEDS)
def test_serialization_roundtrips_and_clones_are_independent(game_id: str, scenario: str,
                                                             seats: int, seed: int) -> None:
    game = sampled(game_id, seed)
    if game is None:
        return

    def check(state: Any, p: kit.Playout) -> None:
        kit.check_roundtrip(game, state)            # to_dict -> JSON text -> state_from_dict
        kit.check_serialization_detached(game, state)
        kit.check_clone_independent(game, state)

    checked_playout(game, scenario, seats, seed, check)


# ----- refusing what is not allowed ------------------------------------------------------------

@cases
@given(seed=SEEDS)
def test_illegal_actions_are_refused_and_change_nothing(game_id: str, scenario: str,
                                                        seats: int, seed: int) -> None:
    """Wrong seats, stale ids, garbage and non-strings raise IllegalAction and change neither
    the state nor the randomness consumed; after the outcome everything is refused."""
    game = sampled(game_id, seed)
    if game is None:
        return

    def check(state: Any, p: kit.Playout) -> None:
        history = [a for _, a in p.log]
        for seat in game.to_act(state):
            kit.check_illegal_refused(game, state, seat)
            if history:
                kit.check_stale_refused(game, state, seat, history[-1])
        kit.check_refusals(game, state, seats, kit.stale_ids(history, state, game))

    checked_playout(game, scenario, seats, seed, check)


# ----- decisions and defaults ------------------------------------------------------------------

@cases
@given(seed=SEEDS)
def test_default_action_is_always_legal(game_id: str, scenario: str, seats: int,
                                        seed: int) -> None:
    game = sampled(game_id, seed)
    if game is None:
        return

    def check(state: Any, p: kit.Playout) -> None:
        kit.check_decisions(game, state, seats)
        kit.check_default_legal(game, state)
        kit.check_seat_sides(game, state, scenario, seats)

    checked_playout(game, scenario, seats, seed, check)


@cases
@given(seed=SEEDS)
def test_sides_are_dealt_by_scenario_and_seat_count(game_id: str, scenario: str, seats: int,
                                                    seed: int) -> None:
    game = sampled(game_id, seed)
    if game is None:
        return
    kit.check_dealt_sides(game, scenario, seats, seed)


# ----- hidden information ------------------------------------------------------------------------

@cases
@given(seed=SEEDS)
def test_views_leak_nothing(game_id: str, scenario: str, seats: int, seed: int) -> None:
    """view(s, x) == view(determinize(s, x), x) for every seat and spectators, at every step."""
    game = sampled(game_id, seed)
    if game is None:
        return

    def check(state: Any, p: kit.Playout) -> None:
        kit.check_views_leak_nothing(game, state, seats, seed ^ p.steps)

    checked_playout(game, scenario, seats, seed, check)


@cases
@given(seed=SEEDS)
def test_determinize_resamples_hidden_information(game_id: str, scenario: str, seats: int,
                                                  seed: int) -> None:
    """Determinizing gives a separate valid state that keeps the seat's legal actions, and
    for a game that declares hidden information it really changes something at least once
    in a playout; otherwise the leak test above would prove nothing."""
    game = sampled(game_id, seed)
    if game is None:
        return
    differed: list[bool] = []

    def check(state: Any, p: kit.Playout) -> None:
        differed.append(kit.check_determinize(game, state, seats, seed ^ p.steps))

    p = checked_playout(game, scenario, seats, seed, check)
    if game.info.hidden_information:
        assert any(differed), (
            f"{game_id}/{scenario} seed={seed}: determinize never changed anything over "
            f"{p.steps} steps, yet the game declares hidden information"
        )


# ----- views and events are plain data ----------------------------------------------------------

@cases
@given(seed=SEEDS)
def test_views_are_json_and_events_roundtrip(game_id: str, scenario: str, seats: int,
                                             seed: int) -> None:
    """Every view is JSON-plain; every event of every step is JSON-plain, round-trips through
    Event.to_dict/from_dict, and a private one never shows its data to an unlisted seat."""
    game = sampled(game_id, seed)
    if game is None:
        return
    p = kit.random_playout(game, scenario, seats, seed, step_bound(game))
    kit.check_terminates(p)
    steps = 0
    for state, _rng, step in kit.replay_steps(p):
        kit.check_views_json(game, state, seats)
        if step is not None:
            kit.check_events(game, step.events, seats)
            steps += 1
    assert steps == p.steps


@cases
@given(seed=SEEDS)
def test_views_are_detached_from_the_state(game_id: str, scenario: str, seats: int,
                                           seed: int) -> None:
    """Whoever receives a view (bots, renderers) may mutate it without touching the match."""
    game = sampled(game_id, seed)
    if game is None:
        return
    checked_playout(game, scenario, seats, seed,
                    lambda state, p: kit.check_view_detached(game, state, seats))


# ----- resignation -------------------------------------------------------------------------------

@cases
@given(seed=SEEDS, cut=st.integers(min_value=0, max_value=10**6))
def test_resignation_is_refused_or_ends_cleanly(game_id: str, scenario: str, seats: int,
                                                seed: int, cut: int) -> None:
    """At a drawn step, each seat's resignation is refused without change or leaves a valid
    state in which that seat decides nothing more; after the outcome it is refused."""
    game = sampled(game_id, seed)
    if game is None:
        return
    p = kit.random_playout(game, scenario, seats, seed, step_bound(game))
    kit.check_terminates(p)
    at = cut % (p.steps + 1)
    for state, _rng, step in kit.replay_steps(p):
        if (step.index + 1 if step else 0) == at:
            kit.check_resign(game, state, seats)
            break
    kit.check_resign(game, p.state, seats)


# ----- set-up ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", [g.info.id for g in all_games()])
def test_bad_setup_is_refused(game_id: str) -> None:
    """Bad seat counts, unknown scenarios and unknown options raise BadSetup; every seat
    count in a scenario's range is accepted."""
    kit.check_bad_setup(get(game_id))


def test_some_game_is_registered() -> None:
    """Guards against the suite silently parametrizing over nothing."""
    assert [g.info.id for g in all_games()], "no game is registered"
