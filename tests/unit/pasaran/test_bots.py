"""Bots play whole campaigns: the heuristic bot against itself ends with a winner, and it beats
the random bot from either side (a few fixed seeds; the bench is for larger runs)."""

from __future__ import annotations

import pytest

from partida.ai.ismcts import Ismcts, IsmctsBot
from partida.engine import LocalRng
from partida.engine.bots import RandomBot, play_match
from partida.games.pasaran.bots import HeuristicBot
from partida.games.pasaran.rules import Pasaran

GAME = Pasaran()


def test_heuristic_self_play_reaches_a_decided_outcome() -> None:
    """8.5: every campaign ends with one winner, no draw, well before the step bound."""
    _, record = play_match(GAME, "campaign", [HeuristicBot(), HeuristicBot()], 2,
                           max_steps=20_000)
    assert record.outcome is not None and len(record.outcome.winners) == 1
    assert not record.outcome.draw


@pytest.mark.parametrize("seat", [0, 1])
def test_heuristic_beats_random_from_either_side(seat: int) -> None:
    """Over four fixed seeds the heuristic bot wins at least three campaigns on either side."""
    wins = 0
    for seed in (1, 2, 3, 4):
        bots = [RandomBot(), RandomBot()]
        bots[seat] = HeuristicBot()
        _, record = play_match(GAME, "campaign", bots, seed, max_steps=20_000)
        assert record.outcome is not None
        wins += record.outcome.winners == (seat,)
    assert wins >= 3


def test_the_heuristic_bot_reads_only_the_view() -> None:
    """Architecture: a bot's choice depends on the seat's view and legal actions only; a
    determinized state (other hands and deck resampled) gives the same choice."""
    state = GAME.new_state("campaign", 2, {}, LocalRng(5))
    seat = GAME.to_act(state)[0]
    other = GAME.determinize(state, seat, LocalRng(9))
    bot = HeuristicBot()
    pick = bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), LocalRng(1))
    again = bot.choose(GAME.view(other, seat), GAME.legal_actions(other, seat), LocalRng(1))
    assert pick == again


def test_the_heuristic_bot_plays_with_every_option_on() -> None:
    """9.1-9.5 and 10 on (fog of war hides most enemy units from its view): a campaign against
    the random bot still ends."""
    options = {"reassembling_backs": True, "fog_of_war": True, "alternating_initiative": True,
               "combat_chits": True, "trenches": True, "pinning": True}
    _, record = play_match(GAME, "campaign", [HeuristicBot(), RandomBot()], 3, options=options,
                           max_steps=20_000)
    assert record.outcome is not None


def test_the_ismcts_search_bot_plays_pasaran() -> None:
    """The platform's ISMCTS bot searches a campaign position (hands and deck resampled by
    determinize) and picks a legal action."""
    state = GAME.new_state("campaign", 2, {}, LocalRng(2))
    rng = LocalRng(3)
    for _ in range(30):  # on into the first segment, past the reinforcements
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).id, rng)
    seat = GAME.to_act(state)[0]
    legal = [a.id for a in GAME.legal_actions(state, seat)]
    search = Ismcts(max_rollout_steps=40)
    root = search.search(GAME, GAME.determinize(state, seat, LocalRng(4)), seat, LocalRng(5),
                         iterations=6)
    assert root.visits == 6
    bot = IsmctsBot(iterations=4, seconds=None, search=search)
    assert bot.choose_from_state(GAME, state, seat, LocalRng(6)) in legal
