"""Conversions to partida.v1 messages: typed actions are built once per id and copied, so a
message handed out can be changed without touching the next one."""

from partida.engine import Action, get
from partida.engine.rng import LocalRng
from partida.rules import protos


def _some_actions(game_id: str) -> list[Action]:
    game = get(game_id)
    scenario = game.info.scenarios[0]
    state = game.new_state(scenario.id, scenario.min_seats, {}, LocalRng(7))
    seat = game.to_act(state)[0]
    return list(game.legal_actions(state, seat))


def test_typed_actions_match_the_adapter_and_are_copies():
    for game_id in ("montanas", "dynamit_joe"):
        adapter = protos.adapter_for(game_id)
        for a in _some_actions(game_id)[:20]:
            first = protos.action(game_id, a)
            assert getattr(first, game_id) == adapter.action_to_proto(a.id)
            assert first.action_id == a.id and first.description == a.description
            getattr(first, game_id).Clear()  # a caller changing its message
            again = protos.action(game_id, a)
            assert getattr(again, game_id) == adapter.action_to_proto(a.id)
