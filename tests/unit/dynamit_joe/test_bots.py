"""Every scenario (chapter 9) played to its end by the bots with fixed seeds, and the heuristic
bot beating the random one in 'The showdown' (9.3)."""

from __future__ import annotations

import pytest

from partida.engine.bots import play_match, replay_record
from partida.engine.conformance import canonical
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe.bots import BOTS

SCENARIOS = [s for s in GAME.info.scenarios]


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_every_scenario_is_played_to_its_end(scenario, bot: str) -> None:  # type: ignore[no-untyped-def]
    for seats in sorted({scenario.min_seats, scenario.max_seats}):
        state, record = play_match(GAME, scenario.id, [BOTS[bot]() for _ in range(seats)], 7)
        assert record.outcome is not None and record.outcome.reason
        again = replay_record(GAME, record)
        assert canonical(again.to_dict()) == canonical(state.to_dict())


def test_heuristic_beats_random_in_the_showdown() -> None:
    """The heuristic seat wins clearly more often than a random seat in the same place."""
    def wins(first: str) -> int:
        won = 0
        for seed in range(30):
            bots = [BOTS[first](), BOTS["random"](), BOTS["random"]()]
            _, record = play_match(GAME, "showdown", bots, seed)
            won += 0 in record.outcome.winners  # type: ignore[union-attr]
        return won
    assert wins("heuristic") >= wins("random") + 10
