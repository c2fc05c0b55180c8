"""The engine's conformance checks run directly on the (not yet registered) ¿Pasarán? game:
random and all-default playouts of the campaign end, replay, resume, refuse garbage, keep views
free of hidden cards (7.2: hands and the deck order are secret), serialize losslessly."""

import pytest

from partida.engine import conformance as kit
from partida.games.pasaran.rules import Pasaran

BOUND = 20_000


@pytest.fixture(scope="module")
def game():
    return Pasaran()


@pytest.fixture(scope="module")
def played(game):
    return kit.random_playout(game, "campaign", 2, 1, BOUND)


def _every_check(game, p, seat):
    kit.full_check(p, seat)
    state = p.state
    kit.check_decisions(game, state, 2)
    kit.check_serialization_detached(game, state)
    kit.check_clone_independent(game, state, limit=3)
    kit.check_views_json(game, state, 2)
    kit.check_view_detached(game, state, 2)
    kit.check_refusals(game, state, 2, kit.stale_ids([a for _, a in p.log], state, game))


def test_random_playout_with_every_step_checked(game):
    """Every per-step conformance check on every 37th step of a whole campaign (all of them is
    slow), and on the final state; determinize really resamples the hidden cards."""
    differed = []

    def check(p, seat):
        if p.steps % 37 == 0:
            _every_check(game, p, seat)
            differed.append(kit.check_determinize(game, p.state, 2, p.steps))

    p = kit.random_playout(game, "campaign", 2, 11, BOUND, each_step=check)
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, 2)
    kit.check_decisions(game, p.state, 2)
    kit.check_refusals(game, p.state, 2, [a for _, a in p.log[-5:]])
    assert any(differed), "determinize never resampled the hidden cards"


def test_playouts_end_replay_and_resume(game, played):
    """A random campaign ends (8.5: no draw, at the latest after Q2 1939), replays from its log
    and resumes from its serialized state."""
    kit.check_terminates(played)
    kit.check_outcome(game, played.state, 2)
    kit.check_replay(played)
    kit.check_resume(played, played.steps // 2)


def test_events_are_plain_and_private_ones_stay_private(game, played):
    """7.2: drawn and kept cards are shown only to their side; every event is JSON-plain."""
    for _, _, step in kit.replay_steps(played):
        if step is not None:
            kit.check_events(game, step.events, 2)


def test_default_only_playout_terminates(game):
    """Every decision timing out still ends the match (defaults end steps, fight on, decline
    cards): the Republic stands at the end of Q2 1939 (8.5)."""
    p = kit.default_playout(game, "campaign", 2, 3, BOUND,
                            each_step=lambda p, seat: kit.check_default_legal(game, p.state))
    kit.check_terminates(p)
    kit.check_replay(p)
    assert game.outcome(p.state).winners == (0,)


def test_bad_setups_are_refused_and_resign_ends_the_match(game, played):
    """Two seats only, known options only; 8.5: surrender ends the match for the other side."""
    kit.check_bad_setup(game)
    start = kit.random_playout(game, "campaign", 2, 5, 40)
    kit.check_resign(game, start.state, 2)
    kit.check_resign(game, played.state, 2)


def test_optional_rules_playout_passes_the_checks(game):
    """9.1, 9.3, 9.4, 9.5 and 10 on: a random campaign with the per-step checks every few steps
    ends, replays and resumes; determinize resamples the secret chits too."""
    options = {"reassembling_backs": True, "alternating_initiative": True, "trenches": True,
               "combat_chits": True, "pinning": True}

    def check(p, seat):
        if p.steps % 41 == 0:
            _every_check(game, p, seat)
            kit.check_determinize(game, p.state, 2, p.steps)

    p = kit.random_playout(game, "campaign", 2, 7, BOUND, options=options, each_step=check)
    kit.check_terminates(p)
    kit.check_replay(p)
    kit.check_resume(p, p.steps // 3)
    assert any(a.startswith("first:") for _, a in p.log)
    assert any(a.startswith("dig:") for _, a in p.log)
    assert any(a.startswith("chit:") for _, a in p.log)
    assert any(a.startswith("pin:") for _, a in p.log)
    for _, _, step in kit.replay_steps(p):
        if step is not None:
            kit.check_events(game, step.events, 2)


def test_fog_of_war_playout_keeps_hidden_stacks_out_of_views_and_events(game):
    """9.2 on (with pinning, which then sees only tops): every few steps the per-step checks,
    views equal after determinize (which moves hidden units), private move events."""
    options = {"fog_of_war": True, "pinning": True}
    differed = []

    def check(p, seat):
        if p.steps % 29 == 0:
            _every_check(game, p, seat)
            differed.append(kit.check_determinize(game, p.state, 2, p.steps))

    p = kit.random_playout(game, "campaign", 2, 13, BOUND, options=options, each_step=check)
    kit.check_terminates(p)
    kit.check_replay(p)
    kit.check_resume(p, p.steps // 2)
    for _, _, step in kit.replay_steps(p):
        if step is not None:
            kit.check_events(game, step.events, 2)
    assert any(differed)
