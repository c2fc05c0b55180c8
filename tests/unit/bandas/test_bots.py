"""Every authored table played to its end by each bot on a fixed seed (and replayed exactly),
and the heuristic bot beating the random one in the street fight."""

import pytest

from partida.ai.ismcts import Ismcts, IsmctsBot
from partida.engine import LocalRng
from partida.engine.bots import play_match, replay_record
from partida.engine.conformance import canonical
from partida.games.bandas.bots import BOTS, hit_chance

from .positions import GAME

TABLES = (("street_fight", 2), ("convoy_ambush", 2), ("scramble", 3))


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize(("table", "seats"), TABLES)
def test_every_table_is_played_to_its_end(table, seats, bot):
    state, record = play_match(GAME, table, [BOTS[bot]() for _ in range(seats)], 7)
    assert record.outcome is not None and record.outcome.reason
    assert canonical(replay_record(GAME, record).to_dict()) == canonical(state.to_dict())


def test_hit_chance_is_the_opposed_roll():
    """Disparo y cuerpo a cuerpo: equal totals miss, so equal skills hit 15 times in 36."""
    assert hit_chance(3, 3) == pytest.approx(15 / 36)
    assert hit_chance(9, 3) == 1.0 and hit_chance(3, 9) == 0.0


def test_heuristic_beats_random_in_the_street_fight():
    """The heuristic seat wins clearly more often than the random one, in either seat."""
    won = lost = 0
    for seed in range(5):
        for seat in (0, 1):
            bots = [BOTS["random"](), BOTS["random"]()]
            bots[seat] = BOTS["heuristic"]()
            _, record = play_match(GAME, "street_fight", bots, seed)
            won += seat in record.outcome.winners
            lost += (1 - seat) in record.outcome.winners
    assert won >= lost + 5


def test_the_ismcts_search_bot_plays_bandas():
    """The platform's ISMCTS bot picks legal actions in the street fight: when a unit is to
    be activated and in the middle of an activation (moves, shots and the end offered)."""
    state = GAME.new_state("street_fight", 2, {}, LocalRng(2))
    search = Ismcts(max_rollout_steps=40)
    bot = IsmctsBot(iterations=5, seconds=None, search=search)
    rng = LocalRng(3)
    moments = set()
    for _ in range(6):
        seat = GAME.to_act(state)[0]
        legal = [a.id for a in GAME.legal_actions(state, seat)]
        choice = bot.choose_from_state(GAME, state, seat, LocalRng(len(moments)))
        assert choice in legal
        moments.add(state.active is None)
        GAME.apply(state, seat, choice, rng)
    assert moments == {True, False}
    root = search.search(GAME, GAME.determinize(state, seat, LocalRng(4)), seat, LocalRng(5),
                         iterations=4)
    assert root.visits == 4
