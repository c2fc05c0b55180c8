"""Batallitas bots: they only ever choose listed actions, the heuristic one acts on what it is
written to weigh (focus fire, facing, its scenario's objective), it beats the random bot over a
small sample of scenario 2, and the platform's ISMCTS search runs on the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from partida.ai.ismcts import Ismcts, IsmctsBot
from partida.engine import Action, LocalRng, Rng
from partida.engine.bots import RandomBot, play_match
from partida.games.batallitas import GAME
from partida.games.batallitas.bots import BOTS, HeuristicBot, table

from .positions import ids, scenario_position


class Checked:
    """A bot whose every choice is checked against the legal actions it was given."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.choices = bot, 0

    def choose(self, view: Any, actions: Sequence[Action], rng: Rng) -> str:
        choice = self.bot.choose(view, actions, rng)
        assert choice in [a.id for a in actions], choice
        self.choices += 1
        return choice


@pytest.mark.parametrize("scenario", [s.id for s in GAME.info.scenarios])
def test_both_bots_choose_only_legal_actions_to_the_end(scenario: str) -> None:
    seats = [Checked(HeuristicBot()), Checked(RandomBot())]
    _, record = play_match(GAME, scenario, seats, 7)
    assert record.outcome is not None
    assert min(s.choices for s in seats) > 0


def _choice(game: Any, state: Any) -> str:
    seat = game.to_act(state)[0]
    return HeuristicBot().choose(game.view(state, seat), game.legal_actions(state, seat),
                                 LocalRng(0))


@pytest.mark.parametrize(("weak", "aim"), [("s1.2", "3,9"), ("s1.1", "3,7")])
def test_heuristic_focuses_fire_on_the_enemy_closest_to_falling(weak: str, aim: str) -> None:
    game, state = scenario_position("drums", {"s0.1": ((0, 7), "E"), "s1.1": ((3, 7), "W"),
                                              "s1.2": ((3, 9), "W")})
    assert {"fire:blunderbuss:3,7", "fire:blunderbuss:3,9"} <= set(ids(game, state))
    state.nose(weak).pupae = 1
    assert _choice(game, state) == f"fire:blunderbuss:{aim}"


def test_heuristic_turns_to_bring_an_enemy_into_its_arc() -> None:
    """A Lethal Fan (whose goal is the enemy) with the only enemy off its arc, nothing to
    shoot, turns towards it rather than stepping aside to it."""
    game, state = scenario_position("drums", {"s1.1": ((6, 7), "N"), "s0.1": ((1, 7), "W")})
    assert not [a for a in ids(game, state) if a.startswith("fire:")]
    assert {"move:5,6", "move:5,7", "turn:W", "turn:S"} <= set(ids(game, state))
    assert _choice(game, state) == "turn:W"


def test_heuristic_pursues_the_exit_in_scenario_3() -> None:
    """A Fanhunter with no enemy in play walks east, towards the edge its force leaves by."""
    game, state = scenario_position("drums", {"s0.1": ((5, 5), "E")})
    choice = _choice(game, state)
    assert choice.startswith("move:") and int(choice[5:].split(",")[0]) > 5


def test_heuristic_takes_the_product_its_side_is_short_of() -> None:
    """Scenario 2: beside a food column, with snacks already out, a Fan takes beers."""
    cell = _beside_a_column()
    game, state = scenario_position("shopping", {"s1.1": (cell, "N")})
    assert {"take:snacks", "take:beers"} <= set(ids(game, state))
    state.counters["snacks_out"] = 2
    assert _choice(game, state) == "take:beers"


def _beside_a_column() -> tuple[int, int]:
    from partida.games.batallitas.world import scenario_map

    m = scenario_map("shopping")
    column = m.with_feature("food_column")[0]
    return next((column[0] + dx, column[1] + dy) for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))
                if m.inside((column[0] + dx, column[1] + dy))
                and m.cell((column[0] + dx, column[1] + dy)).terrain == "clear")


def test_table_rebuilt_from_a_view_holds_no_hand() -> None:
    """The heuristic reads the table from its view: no card of any hand is in it."""
    state = GAME.new_state("last_game", 2, {}, LocalRng(1))
    rebuilt = table(GAME.view(state, 0))
    assert rebuilt.hands == [[], []] and rebuilt.decks == [[], []]
    assert [n.id for n in rebuilt.noses] == [n.id for n in state.noses]


SAMPLE = range(8)


def test_heuristic_rebels_win_scenario_2_more_often_than_random_ones() -> None:
    """Over a small sample of Shopping against random Fanhunters, heuristic Fans get their
    goods out more often than random Fans (the bench runs 200 seeds)."""
    def rebel_wins(bot: str) -> int:
        won = 0
        for seed in SAMPLE:
            _, record = play_match(GAME, "shopping", [RandomBot(), BOTS[bot]()], seed)
            won += bool(record.outcome and 1 in record.outcome.winners)
        return won
    assert rebel_wins("heuristic") > rebel_wins("random")


def test_the_ismcts_search_bot_plays_batallitas() -> None:
    """The platform's ISMCTS bot picks a legal action from a position of scenario 1."""
    state = GAME.new_state("last_game", 2, {}, LocalRng(2))
    rng = LocalRng(3)
    for _ in range(40):  # on into the match, past the set-up choices
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).id, rng)
    seat = GAME.to_act(state)[0]
    legal = [a.id for a in GAME.legal_actions(state, seat)]
    search = Ismcts(max_rollout_steps=60)
    root = search.search(GAME, GAME.determinize(state, seat, LocalRng(4)), seat, LocalRng(5),
                         iterations=6)
    assert root.visits == 6
    bot = IsmctsBot(iterations=4, seconds=None, search=search)
    assert bot.choose_from_state(GAME, state, seat, LocalRng(6)) in legal
