"""Conversions to partida.v1 messages: typed actions and events are built once and copied,
so a message handed out can be changed without touching the next one."""

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


def _played_events(game_id: str, actions: int = 300) -> list[dict]:
    """Events of a match played by default actions, as the rules service stores them (the
    data of every kind the match produced, int-keyed maps such as roll-offs included)."""
    game = get(game_id)
    state = game.new_state(game.info.scenarios[0].id, 2, {}, LocalRng(11))
    rng = LocalRng(12)
    out = []
    for _ in range(actions):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        out += [e.to_dict() for e in game.apply(state, seat, game.default_action(state, seat),
                                                rng)]
    return [{**e, "seq": i + 1, "version": i + 1} for i, e in enumerate(out)]


def test_typed_events_match_the_adapter_and_are_copies():
    adapter = protos.adapter_for("montanas")
    events = _played_events("montanas")
    assert len({e["kind"] for e in events}) > 5
    for e in events + events:  # the second time from what was remembered
        first = protos.event("montanas", e)
        assert first.montanas == adapter.event_to_proto(e["kind"], e["data"])
        assert (first.sequence, first.kind) == (e["seq"], e["kind"])
        first.montanas.Clear()  # a caller changing its message
        assert protos.event("montanas", e).montanas == adapter.event_to_proto(e["kind"],
                                                                              e["data"])
    untyped = protos.event("montanas", events[0], typed_too=False)
    assert not untyped.HasField("montanas") and untyped.data_json
