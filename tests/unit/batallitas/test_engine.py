"""The engine's conformance checks run directly on the (not yet registered) Batallitas game:
random and all-default playouts of scenarios 1 to 3 end, replay, resume, refuse garbage, keep views
free of hidden cards ("Event cards": hands are secret), serialize losslessly."""

import pytest

from partida.engine import conformance as kit
from partida.games.batallitas.rules import Batallitas

BOUND = 5_000
SEEDS = (1, 2)


@pytest.fixture(scope="module")
def game():
    return Batallitas()


@pytest.fixture(scope="module", params=SEEDS)
def played(request, game):
    return kit.random_playout(game, "last_game", 2, request.param, BOUND)


def _every_check(game, p, seat):
    kit.full_check(p, seat)
    state = p.state
    kit.check_decisions(game, state, 2)
    kit.check_serialization_detached(game, state)
    kit.check_clone_independent(game, state, limit=3)
    kit.check_views_json(game, state, 2)
    kit.check_view_detached(game, state, 2)
    kit.check_determinize(game, state, 2, p.steps)
    kit.check_refusals(game, state, 2, kit.stale_ids([a for _, a in p.log], state, game))


def test_random_playout_with_every_step_checked(game):
    """Every per-step conformance check, on every 7th step of a whole match (all of them is
    slow), and on the final state."""
    differed = []

    def check(p, seat):
        if p.steps % 7 == 0:
            _every_check(game, p, seat)
            differed.append(kit.check_determinize(game, p.state, 2, p.steps))

    p = kit.random_playout(game, "last_game", 2, 11, BOUND, each_step=check)
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, 2)
    kit.check_decisions(game, p.state, 2)
    kit.check_refusals(game, p.state, 2, [a for _, a in p.log[-5:]])
    assert any(differed), "determinize never resampled the hidden hands"


def test_playouts_end_replay_and_resume(game, played):
    kit.check_terminates(played)
    kit.check_outcome(game, played.state, 2)
    kit.check_replay(played)
    kit.check_replay_events(played)
    kit.check_resume(played, played.steps // 2)


def test_events_are_plain_and_private_ones_stay_private(game, played):
    for _, _, step in kit.replay_steps(played):
        if step is not None:
            kit.check_events(game, step.events, 2)


def test_default_only_playout_terminates(game):
    """Every decision timing out still ends the match (defaults end phases and pass)."""
    p = kit.default_playout(game, "last_game", 2, 3, BOUND,
                            each_step=lambda p, seat: kit.check_default_legal(game, p.state))
    kit.check_terminates(p)
    kit.check_replay(p)


def test_bad_setups_are_refused_and_resign_ends_the_match(game, played):
    kit.check_bad_setup(game)
    start = kit.random_playout(game, "last_game", 2, 5, 40)
    kit.check_resign(game, start.state, 2)
    kit.check_resign(game, played.state, 2)


@pytest.mark.parametrize(("scenario", "seed", "every"), [
    ("shopping", 4, 11), ("drums", 6, 13), ("long_live_rock", 7, 17), ("war_games", 8, 19),
    ("streets_of_fire", 9, 23)])
def test_later_scenarios_playouts_pass_the_checks(game, scenario, seed, every):
    """Scenarios 2 to 6 (Shopping, Drums in the Dark, Long Live Rock, War Games, Streets of
    Fire): a random playout with the per-step checks on every few steps ends, replays and
    resumes; an all-default one ends."""

    def check(p, seat):
        if p.steps % every == 0:
            _every_check(game, p, seat)

    p = kit.random_playout(game, scenario, 2, seed, BOUND, each_step=check)
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, 2)
    kit.check_replay(p)
    kit.check_resume(p, p.steps // 2)
    d = kit.default_playout(game, scenario, 2, 3, BOUND,
                            each_step=lambda p, seat: kit.check_default_legal(game, p.state))
    kit.check_terminates(d)


@pytest.mark.parametrize("scenario", ["long_live_rock", "war_games", "streets_of_fire"])
@pytest.mark.parametrize("seed", [21, 22])
def test_scenarios_4_to_6_are_played_to_their_end_by_random_bots(game, scenario, seed):
    """Scenarios 4, 5 and 6 from more seeds: random play always reaches the end (each has a
    turn limit, the book's or the option's) with a result the scenario names."""
    p = kit.random_playout(game, scenario, 2, seed, BOUND)
    kit.check_terminates(p)
    reasons = {v.text for v in game.content.scenario(scenario).victory}
    assert p.state.result is not None and p.state.result["reason"] in reasons
