"""The strategy knack: activating a squad out of turn before a marker is drawn, and the
priority rule between sides (Knacks: Strategy; Turn Order and Initiative). Positions built
directly: the Fans' Lethal Fan leader (s2.0) has the knack."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.state import STRATEGY

from .positions import game_position, ids

OPEN = ["........"] * 8


def before_a_draw(bag=("papal", "rebel"), **counters):
    game, s = game_position(OPEN, {"s2.0": ((3, 7), "N"), "s2.1": ((4, 7), "N"),
                                   "s0.1": ((3, 0), "S")})
    for sq in s.squads:
        sq.activated = False
    s.bag = list(bag)
    s.counters.update(counters)
    T.draw(s, LocalRng(0), [])
    return game, s


def test_strategy_activates_its_squad_at_once_taking_out_one_of_its_markers():
    """Whenever a marker is to be drawn, the side with a strategist's squad still to act may
    take one of its markers out of the hat and activate that squad."""
    game, s = before_a_draw()
    assert s.phase == STRATEGY and game.to_act(s) == (1,)
    assert ids(game, s) == ["draw", "strategy:2"] and game.default_action(s, 1) == "draw"
    ev = game.apply(s, 1, "strategy:2", LocalRng(0))
    assert [e.data["squad"] for e in ev if e.kind == "strategy"] == [2]
    assert s.bag == ["papal"] and s.active_squad == 2 and s.squads[2].activated


def test_declining_strategy_draws_as_usual():
    game, s = before_a_draw()
    ev = game.apply(s, 1, "draw", LocalRng(0))
    assert len([e for e in ev if e.kind == "initiative_drawn"]) == 1 and len(s.bag) == 1


def test_no_strategy_without_a_marker_of_ones_side_in_the_hat_or_a_strategist():
    """The knack takes one of the side's own markers out: with none left it is not offered;
    nor once the strategist is out of the game."""
    game, s = before_a_draw(bag=("papal",))
    assert s.phase != STRATEGY and s.active_squad == 0
    game, s = game_position(OPEN, {"s2.1": ((4, 7), "N"), "s0.1": ((3, 0), "S")})
    for sq in s.squads:
        sq.activated = False
    s.bag = ["papal", "rebel"]
    T.draw(s, LocalRng(0), [])
    assert s.phase != STRATEGY


def test_the_side_that_waited_longest_has_priority():
    """When both sides may use strategy, the one that has gone longest without activating a
    squad is asked first; if it declines, the other may still use it."""
    game, s = before_a_draw()
    s.prompts.clear()
    s.nose("s0.1").knacks.append("strategy")  # a papal strategist, built directly
    s.counters.update(activations=5, papal_last_activation=5, rebel_last_activation=3)
    T.draw(s, LocalRng(0), [])
    assert game.to_act(s) == (1,)  # the rebels waited longer
    game.apply(s, 1, "draw", LocalRng(0))
    assert game.to_act(s) == (0,) and ids(game, s) == ["draw", "strategy:0"]
    game.apply(s, 0, "strategy:0", LocalRng(0))
    assert s.active_squad == 0 and s.bag == ["rebel"]
    s.prompts.clear()
    s.squads[0].activated = False
    s.bag = ["papal", "rebel"]
    T.draw(s, LocalRng(0), [])  # the papal squad has just been activated: rebels first again
    assert game.to_act(s) == (1,)
    s.counters.update(papal_last_activation=2, rebel_last_activation=4)
    s.prompts.clear()
    T.draw(s, LocalRng(0), [])
    assert game.to_act(s) == (0,)
