"""The engine's conformance checks run directly on the Bandas game: random
and all-default playouts of every authored table end, replay, resume, refuse garbage (and
destinations that are not canonical points), keep views JSON-plain, serialize losslessly."""

import pytest

from partida.engine import conformance as kit
from partida.games.bandas.rules import Bandas

BOUND = 3_000
TABLES = (("street_fight", 2), ("convoy_ambush", 2), ("scramble", 3))


@pytest.fixture(scope="module")
def game():
    return Bandas()


@pytest.fixture(scope="module", params=TABLES, ids=[t for t, _ in TABLES])
def played(request, game):
    table, seats = request.param
    return kit.random_playout(game, table, seats, 1, BOUND)


def _every_check(game, p, seat):
    kit.full_check(p, seat)
    state = p.state
    kit.check_decisions(game, state, p.seats)
    kit.check_serialization_detached(game, state)
    kit.check_clone_independent(game, state, limit=3)
    kit.check_views_json(game, state, p.seats)
    kit.check_view_detached(game, state, p.seats)
    kit.check_determinize(game, state, p.seats, p.steps)
    kit.check_refusals(game, state, p.seats, kit.stale_ids([a for _, a in p.log], state, game, 20))


@pytest.mark.parametrize(("table", "seats"), TABLES)
def test_random_playout_with_checks_along_the_way(game, table, seats):
    """Every per-step conformance check on every 15th step of a whole match and at the end."""
    def check(p, seat):
        if p.steps % 15 == 0:
            _every_check(game, p, seat)

    p = kit.random_playout(game, table, seats, 11, BOUND, each_step=check)
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, seats)
    kit.check_decisions(game, p.state, seats)
    kit.check_refusals(game, p.state, seats, [a for _, a in p.log[-5:]])


def test_playouts_end_replay_and_resume(game, played):
    kit.check_terminates(played)
    kit.check_outcome(game, played.state, played.seats)
    kit.check_replay(played)
    kit.check_replay_events(played)
    kit.check_resume(played, played.steps // 2)


def test_events_are_plain(game, played):
    for _, _, step in kit.replay_steps(played):
        if step is not None:
            kit.check_events(game, step.events, played.seats)


@pytest.mark.parametrize(("table", "seats"), TABLES)
def test_default_only_playout_terminates(game, table, seats):
    """Every decision timing out still ends the match (defaults activate, then end)."""
    p = kit.default_playout(game, table, seats, 3, BOUND,
                            each_step=lambda p, seat: kit.check_default_legal(game, p.state))
    kit.check_terminates(p)
    kit.check_replay(p)


def test_bad_setups_are_refused_and_resign_ends_the_match(game, played):
    kit.check_bad_setup(game)
    for table, seats in TABLES:
        start = kit.random_playout(game, table, seats, 5, 40)
        kit.check_resign(game, start.state, seats)
    kit.check_resign(game, played.state, played.seats)
