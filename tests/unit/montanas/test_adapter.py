"""The typed protobuf contract of Las Montañas (adapter.py): actions round-trip exactly, every
event and view the engine produces converts, field for field, and malformed messages fail."""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import Any

import pytest
from google.protobuf import json_format

from partida.engine import Event, LocalRng
from partida.engine.bots import RandomBot, play_match
from partida.engine.conformance import GARBAGE_IDS, canonical, random_playout
from partida.games.montanas import Montanas
from partida.games.montanas.adapter import ADAPTER, EVENT_KINDS, MontanasAdapter
from partida.games.montanas.bots import HeuristicBot
from partida.games.montanas.state import EXCHANGE, PLAY
from partida.games.montanas.v1 import montanas_pb2 as pb

from .positions import card_of, position

# Data key -> typed field, per event kind: the contract written out independently of the adapter.
# Every key an event carries must be listed here, so a new key in the engine fails the test.
EVENT_FIELDS: dict[str, dict[str, str]] = {
    "action": {"seat": "seat", "action": "action_id"},
    "monster_enters": {"monster": "monster_id", "kind": "kind", "alley": "alley",
                       "red_die": "red_die", "life": "life"},
    "monster_damaged": {"monster": "monster_id", "cause": "cause", "life": "life"},
    "monster_killed": {"monster": "monster_id", "kind": "kind"},
    "monster_dice": {"red": "red", "blue": "blue", "white": "white"},
    "monster_moved": {"monster": "monster_id", "alley": "in_alley.alley",
                      "square": "in_alley.square", "section": "section"},
    "monster_in_ship": {"monster": "monster_id", "section": "section"},
    "direction_drawn": {"monster": "monster_id", "direction": "direction"},
    "barricade_destroyed": {"section": "section", "facing": "facing"},
    "section_destroyed": {"section": "section"},
    "explorer_killed": {"section": "section", "seat": "seat"},
    "roll_off": {"rolls": "rolls"},
    "player_eliminated": {"seat": "seat"},
    "special_revealed": {"special": "special", "name": "name"},
    "card_lost": {"seat": "seat", "card": "card_id"},
    "explorer_placed": {"seat": "seat", "section": "section"},
    "barricade_built": {"section": "section", "facing": "facing"},
    "cards_discarded": {"seat": "seat", "cards": "card_ids"},
    "exchange_proposed": {"seat": "seat", "partner": "partner_seat", "kind": "kind",
                          "give": "give_card_id", "take": "take_card_id"},
    "exchange_answered": {"partner": "partner_seat", "accepted": "accepted"},
    "card_played": {"seat": "seat", "card": "card_id", "fetched": "fetched_card_id",
                    "target": "target"},
    "explorer_moved": {"seat": "seat", "from": "from_section", "to": "to_section"},
    "turn_started": {"seat": "seat", "turn": "turn"},
    "card_drawn": {"seat": "seat", "card": "card_id"},
    "deck_reshuffled": {"cards": "card_count"},
    "match_over": {"won": "won", "reason": "reason"},
}
ENUM_PREFIXES = ("BARRICADE_FACING_", "EXCHANGE_KIND_", "BAND_", "TERRAIN_", "CARD_KIND_",
                 "PHASE_", "ZONE_")

# (scenario, seats, bot) per seeded match: random and heuristic play, one to five seats.
MATCHES = [(("standard", "no_barricades")[seed % 3 == 2], 1 + seed % 5,
            HeuristicBot() if seed % 2 else RandomBot()) for seed in range(24)]


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """Bot matches: every legal action id, event and view met on the way (each converted in
    the tests below, so a failure names the step's data)."""
    game = Montanas()
    seen: dict[str, Any] = {"ids": set(), "events": [], "views": {}, "pending": set()}

    def observe(state: Any, seat: Any, action: Any, events: list[Event]) -> None:
        seen["events"].extend(events)
        for s in game.to_act(state):
            seen["ids"].update(a.id for a in game.legal_actions(state, s))
        for viewer in (None, *range(state.seats)):
            view = game.view(state, viewer)
            seen["views"].setdefault(canonical(view), view)  # viewers mostly see the same
            seen["pending"].add((view["phase"], tuple(sorted(view["pending"]))))

    for seed, (scenario, seats, bot) in enumerate(MATCHES):
        play_match(game, scenario, [bot] * seats, seed, observe=observe)
    return seen


# ----- actions ------------------------------------------------------------------------------------
def _round_trip(action_id: str) -> None:
    msg = ADAPTER.action_to_proto(action_id)
    assert msg.WhichOneof("kind") is not None
    assert ADAPTER.action_from_proto(msg) == action_id
    wire = pb.Action.FromString(msg.SerializeToString())
    assert ADAPTER.action_from_proto(wire) == action_id
    assert ADAPTER.action_to_proto(ADAPTER.action_from_proto(wire)) == msg


def test_every_legal_id_in_random_playouts_round_trips(game: Montanas) -> None:
    verbs: collections.Counter[str] = collections.Counter()

    def each_step(p: Any, seat: int) -> None:
        for action in game.legal_actions(p.state, seat):
            _round_trip(action.id)
            verbs[action.id.split(":")[0]] += 1

    for seed in range(30):
        scenario = ("standard", "no_barricades")[seed % 2]
        random_playout(game, scenario, 1 + seed % 5, seed, 3000, each_step=each_step)
    assert set(verbs) >= {"deploy", "barricade", "discard", "exchange", "give", "ask", "swap",
                          "reply", "play", "arsenal", "move", "end"}


def test_every_legal_id_in_bot_matches_round_trips(played: dict[str, Any]) -> None:
    ids = played["ids"]
    for action_id in sorted(ids):
        _round_trip(action_id)
    # The shapes that need care: no target, arsenal with and without one, card and seat 0.
    assert any(i.startswith("play:") and i.count(":") == 1 for i in ids)
    assert any(i.startswith("arsenal:") and i.count(":") == 3 for i in ids)
    assert "move:done" in ids and "discard:keep" in ids and "reply:refuse" in ids


@pytest.mark.parametrize(("action_id", "case", "fields"), [
    ("deploy:6", "deploy", {"section": 6}),
    ("barricade:front1", "place_barricade", {"facing": pb.BARRICADE_FACING_FRONT, "section": 1}),
    ("discard:keep", "discard", {"card_ids": []}),
    ("discard:0,44", "discard", {"card_ids": [0, 44]}),
    ("give:0:1", "propose_exchange", {"kind": pb.EXCHANGE_KIND_GIVE, "give_card_id": 0,
                                      "partner_seat": 1}),
    ("ask:7:0", "propose_exchange", {"kind": pb.EXCHANGE_KIND_ASK, "take_card_id": 7,
                                     "partner_seat": 0}),
    ("swap:3:2:0", "propose_exchange", {"kind": pb.EXCHANGE_KIND_SWAP, "give_card_id": 3,
                                        "partner_seat": 2, "take_card_id": 0}),
    ("reply:refuse", "reply_exchange", {"accept": False}),
    ("play:0:m0", "play_card", {"card_id": 0, "target": pb.Target(monster_id=0)}),
    ("play:41:long", "play_card", {"card_id": 41, "target": pb.Target(band=pb.BAND_LONG)}),
    ("play:44", "play_card", {"card_id": 44}),
    ("arsenal:38:36:side4", "search_arsenal", {
        "arsenal_card_id": 38, "fetched_card_id": 36, "target": pb.Target(
            barricade=pb.Target.BarricadeSpot(facing=pb.BARRICADE_FACING_SIDE, section=4))}),
    ("arsenal:38:0", "search_arsenal", {"arsenal_card_id": 38, "fetched_card_id": 0}),
    ("move:0:1:6", "move_explorer", {"seat": 0, "from_section": 1, "to_section": 6}),
    ("move:done", "stop_moving", {}),
    ("exchange:done", "finish_exchange", {}),
    ("end", "end_play", {}),
])
def test_typed_actions(action_id: str, case: str, fields: dict[str, Any]) -> None:
    msg = ADAPTER.action_to_proto(action_id)
    assert msg.WhichOneof("kind") == case
    assert getattr(msg, case) == type(getattr(msg, case))(**fields)
    assert ADAPTER.action_from_proto(msg) == action_id
    if case == "play_card" and "target" not in fields:
        assert not msg.play_card.HasField("target")


@pytest.mark.parametrize("action_id", [
    *GARBAGE_IDS, "end:", "end:now", "deploy:0", "deploy:01", "deploy:+1", "deploy: 1",
    "barricade:long", "barricade:front0", "barricade:top1", "discard:", "discard:1,,2",
    "discard:-1", "exchange:later", "give:1", "give:1:2:3", "ask:x:1", "swap:1:2",
    "reply:maybe", "play:1:", "play:1:x", "play:1:m", "play:1:m-1", "play:m3",
    "play:99999999999", "arsenal:3", "arsenal:3:4:", "move:1:2", "move:a:b:c", "move:0:0:1",
    "deploy",
])
def test_malformed_ids_raise_value_error(action_id: str) -> None:
    with pytest.raises(ValueError, match="montanas"):
        ADAPTER.action_to_proto(action_id)


A = pb.Action
SPOT = pb.Target.BarricadeSpot


@pytest.mark.parametrize("msg", [
    A(),
    A(deploy=A.Deploy()),
    A(deploy=A.Deploy(section=-2)),
    A(place_barricade=A.PlaceBarricade(section=2)),
    A(place_barricade=A.PlaceBarricade(facing=pb.BARRICADE_FACING_FRONT)),
    A(discard=A.Discard(card_ids=[-1])),
    A(propose_exchange=A.ProposeExchange(partner_seat=1, give_card_id=2)),
    A(propose_exchange=A.ProposeExchange(kind=pb.EXCHANGE_KIND_GIVE, partner_seat=1)),
    A(propose_exchange=A.ProposeExchange(kind=pb.EXCHANGE_KIND_GIVE, give_card_id=2)),
    A(propose_exchange=A.ProposeExchange(kind=pb.EXCHANGE_KIND_GIVE, partner_seat=1,
                                         give_card_id=2, take_card_id=3)),
    A(propose_exchange=A.ProposeExchange(kind=pb.EXCHANGE_KIND_ASK, partner_seat=1,
                                         give_card_id=2)),
    A(propose_exchange=A.ProposeExchange(kind=pb.EXCHANGE_KIND_SWAP, partner_seat=1,
                                         give_card_id=2)),
    A(play_card=A.PlayCard()),
    A(play_card=A.PlayCard(target=pb.Target(monster_id=1))),
    A(play_card=A.PlayCard(card_id=1, target=pb.Target())),
    A(play_card=A.PlayCard(card_id=1, target=pb.Target(band=pb.BAND_UNSPECIFIED))),
    A(play_card=A.PlayCard(card_id=1, target=pb.Target(monster_id=-1))),
    A(play_card=A.PlayCard(card_id=1, target=pb.Target(barricade=SPOT(section=1)))),
    A(play_card=A.PlayCard(card_id=1, target=pb.Target(
        barricade=SPOT(facing=pb.BARRICADE_FACING_SIDE)))),
    A(search_arsenal=A.SearchArsenal(arsenal_card_id=37)),
    A(search_arsenal=A.SearchArsenal(fetched_card_id=3)),
    A(move_explorer=A.MoveExplorer(from_section=1, to_section=2)),
    A(move_explorer=A.MoveExplorer(seat=0, to_section=2)),
    A(move_explorer=A.MoveExplorer(seat=0, from_section=1)),
])
def test_malformed_messages_raise_value_error(msg: pb.Action) -> None:
    with pytest.raises(ValueError, match="montanas"):
        ADAPTER.action_from_proto(msg)


def test_zero_ids_and_seats_are_not_missing() -> None:
    msg = A(search_arsenal=A.SearchArsenal(arsenal_card_id=0, fetched_card_id=0,
                                           target=pb.Target(monster_id=0)))
    assert ADAPTER.action_from_proto(msg) == "arsenal:0:0:m0"
    msg = A(propose_exchange=A.ProposeExchange(kind=pb.EXCHANGE_KIND_SWAP, partner_seat=0,
                                               give_card_id=0, take_card_id=0))
    assert ADAPTER.action_from_proto(msg) == "swap:0:0:0"


# ----- events -------------------------------------------------------------------------------------
def _plain(msg: Any) -> dict[str, Any]:
    """A message as a dict: enum names back to engine words (an unspecified enum to None),
    unset optional fields absent."""
    def words(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: words(v) for k, v in value.items()}
        if isinstance(value, list):
            return [words(v) for v in value]
        if isinstance(value, str):
            for prefix in ENUM_PREFIXES:
                if value.startswith(prefix):
                    word = value[len(prefix):].lower()
                    return None if word == "unspecified" else word
        return value
    return words(json_format.MessageToDict(  # type: ignore[no-any-return]
        msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True))


def _target_text(target: Mapping[str, Any] | None) -> str:
    if target is None:
        return ""
    if "monster_id" in target:
        return f"m{target['monster_id']}"
    if "band" in target:
        return str(target["band"])
    return f"{target['barricade']['facing']}{target['barricade']['section']}"


def check_event(kind: str, data: Mapping[str, Any]) -> pb.Event:
    msg = ADAPTER.event_to_proto(kind, data)
    assert msg.WhichOneof("kind") == kind
    body = _plain(getattr(msg, kind))
    fields = EVENT_FIELDS[kind]
    assert set(data) <= set(fields), f"{kind}: keys not in the contract: {set(data) - set(fields)}"
    for key, value in data.items():
        path = fields[key]
        got: Any = body
        for part in path.split("."):
            got = None if got is None else got.get(part)
        if key == "target":
            assert _target_text(got) == value, (kind, data)
        elif key == "action":
            assert got == value
            assert ADAPTER.action_from_proto(getattr(msg, kind).action) == value
        else:
            assert got == value, (kind, key, data, body)
    assert pb.Event.FromString(msg.SerializeToString()) == msg
    return msg


def test_every_event_of_the_matches_converts(played: dict[str, Any]) -> None:
    kinds: collections.Counter[str] = collections.Counter()
    for event in played["events"]:
        check_event(event.kind, event.data)
        if event.public is not None:
            check_event(event.kind, event.public)
        kinds[event.kind] += 1
    assert set(kinds) == EVENT_KINDS == set(EVENT_FIELDS), "every kind met and typed"


def test_event_kinds_match_the_engine_source() -> None:
    """Every `Event("<kind>"` written in the rules has a typed case."""
    import pathlib
    import re

    import partida.games.montanas as pkg

    src = "".join(p.read_text() for p in pathlib.Path(pkg.__file__).parent.glob("*.py"))
    assert set(re.findall(r'Event\("([a-z_]+)"', src)) == EVENT_KINDS


def test_event_shapes() -> None:
    moved = check_event("monster_moved", {"monster": 0, "alley": 3, "square": 0})
    assert moved.monster_moved.WhichOneof("position") == "in_alley"
    assert moved.monster_moved.in_alley == pb.Event.MonsterMoved.AlleySquare(alley=3, square=0)
    inside = check_event("monster_moved", {"monster": 4, "section": 2})
    assert inside.monster_moved.WhichOneof("position") == "section"
    assert inside.monster_moved.section == 2

    fetched = check_event("card_played", {"seat": 0, "card": 37, "fetched": 0})
    assert fetched.card_played.HasField("fetched_card_id")
    assert fetched.card_played.fetched_card_id == 0
    assert not fetched.card_played.HasField("target")
    bomb = check_event("card_played", {"seat": 1, "card": 41, "target": "medium"})
    assert bomb.card_played.target.band == pb.BAND_MEDIUM
    assert not bomb.card_played.HasField("fetched_card_id")
    redeploy = check_event("card_played", {"seat": 1, "card": 44, "target": ""})
    assert not redeploy.card_played.HasField("target")

    ask = check_event("exchange_proposed", {"seat": 1, "partner": 0, "kind": "ask",
                                            "give": None, "take": 0})
    assert ask.exchange_proposed.kind == pb.EXCHANGE_KIND_ASK
    assert not ask.exchange_proposed.HasField("give_card_id")
    assert ask.exchange_proposed.HasField("take_card_id")

    rolls = check_event("roll_off", {"rolls": {"0": 2, "3": 5}})
    assert dict(rolls.roll_off.rolls) == {0: 2, 3: 5}

    action = check_event("action", {"seat": 0, "action": "play:40:front3"})
    spot = action.action.action.play_card.target.barricade
    assert (spot.facing, spot.section) == (pb.BARRICADE_FACING_FRONT, 3)

    built = check_event("barricade_built", {"section": 2, "facing": "side"})
    assert built.barricade_built.facing == pb.BARRICADE_FACING_SIDE
    assert check_event("player_eliminated", {"seat": 0}).HasField("player_eliminated")


def test_deck_reshuffle_and_draws_from_a_position(game: Montanas) -> None:
    state = position(seats=2, explorers={1: [1, 1]}, hands=[[], []], phase=PLAY)
    state.discard, state.deck = state.deck, []
    events = game.apply(state, 0, "end", LocalRng(3))
    kinds = [e.kind for e in events]
    assert "deck_reshuffled" in kinds and "card_drawn" in kinds
    for event in events:
        check_event(event.kind, event.data)


@pytest.mark.parametrize(("kind", "data"), [
    ("no_such_event", {}),
    ("", {}),
    ("monster_enters", {"monster": 1, "colour": "green"}),
    ("barricade_built", {"section": 1, "facing": "up"}),
    ("barricade_built", {"section": 1, "facing": "unspecified"}),
    ("roll_off", {"rolls": {"x": 1}}),
    ("card_played", {"seat": 0, "card": 1, "target": "nowhere"}),
    ("turn_started", {"seat": "zero", "turn": 1}),
    ("action", {"seat": 0, "action": "fly"}),
])
def test_bad_events_raise_value_error(kind: str, data: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="montanas"):
        ADAPTER.event_to_proto(kind, data)


# ----- views --------------------------------------------------------------------------------------
def check_view(view: Mapping[str, Any]) -> pb.View:
    msg = ADAPTER.view_to_proto(view)
    plain = _plain(msg)
    for key in ("scenario", "turn", "phase", "active", "to_act", "hand_limit", "deck_count",
                "pool_count", "pool_contents", "killed", "monsters_total", "alley_squares",
                "alleys", "bands", "immobilized"):
        assert plain[key] == view[key], key
    assert [t["teams"] for t in plain["teams"]] == view["teams"]
    def cards(typed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{("id" if k == "card_id" else k): v for k, v in c.items()} for c in typed]
    assert [cards(h["cards"]) for h in plain["hands"]] == view["hands"]
    assert cards(plain["discard"]) == view["discard"]
    assert [(m["monster_id"], m["kind"], m["life"], m["alley"], m["square"], m["zone"])
            for m in plain["monsters"]] == [
        (m["id"], m["kind"], m["life"], m["alley"], m["square"], m["zone"])
        for m in view["monsters"]]
    assert [(s["section"], s["destroyed"], s["barricade"], s["explorers"]) for s in plain["ship"]
            ] == [(s["section"], s["destroyed"], s["barricade"], s["explorers"])
                  for s in view["ship"]]
    check_pending(view["pending"], msg.pending)
    assert msg.HasField("result") == (view["result"] is not None)
    if view["result"] is not None:
        assert (msg.result.won, msg.result.reason) == (view["result"]["won"],
                                                       view["result"]["reason"])
    assert pb.View.FromString(msg.SerializeToString()) == msg
    return msg


def check_pending(pending: Mapping[str, Any], msg: pb.View.Pending) -> None:
    present = {f.name for f, _ in msg.ListFields()}
    expected = {{"left": "explorers_left" if isinstance(pending.get("left"), list)
                 else "barricades_left", "partner": "partner_seat"}.get(k, k) for k in pending}
    assert present == expected
    if "seat" in pending:
        assert msg.seat == pending["seat"]
    if isinstance(pending.get("left"), list):
        assert list(msg.explorers_left) == pending["left"]
    elif "left" in pending:
        assert msg.barricades_left == pending["left"]
    for key, field in (("moved", "moved"), ("partner", "partner_seat"),
                       ("moves_left", "moves_left")):
        if key in pending:
            assert getattr(msg, field) == pending[key]
    if "proposal" in pending:
        kind, give, take = pending["proposal"]
        p = msg.proposal
        assert pb.ExchangeKind.Name(p.kind) == f"EXCHANGE_KIND_{kind.upper()}"
        assert (p.give_card_id if p.HasField("give_card_id") else None) == give
        assert (p.take_card_id if p.HasField("take_card_id") else None) == take


def test_every_view_of_the_matches_converts(played: dict[str, Any]) -> None:
    for view in played["views"].values():
        check_view(view)
    phases = {phase for phase, _ in played["pending"]}
    assert phases == {"deploy", "barricade", "discard", "exchange", "reply", "play",
                      "redeploy", "over"}
    assert ("reply", ("moved", "partner", "proposal")) in played["pending"]


def test_view_of_a_position(game: Montanas) -> None:
    hand = [card_of("sniper"), card_of("range", "short", "ice"), card_of("redeploy")]
    state = position(seats=2, explorers={1: [2, 0], 4: [0, 3]}, hands=[hand, []],
                     monsters=[("fast", 2, 0), ("strong", 5, 12, 1)], destroyed=[6],
                     barricades={2: "front", 6: "side"}, phase=EXCHANGE)
    state.pending = {"moved": 1}
    state.immobilized = ["short"]
    msg = check_view(game.view(state, 1))
    assert msg.phase == pb.PHASE_EXCHANGE
    assert msg.pending.moved == 1 and not msg.pending.HasField("seat")
    short_ice, sniper, redeploy = msg.hands[0].cards  # the view sorts hands by id
    assert (sniper.kind, sniper.band, sniper.terrain) == (pb.CARD_KIND_SNIPER,
                                                          pb.BAND_UNSPECIFIED,
                                                          pb.TERRAIN_UNSPECIFIED)
    assert (short_ice.band, short_ice.terrain) == (pb.BAND_SHORT, pb.TERRAIN_ICE)
    assert redeploy.kind == pb.CARD_KIND_REDEPLOY
    first, second = msg.monsters
    assert (first.monster_id, first.square, first.zone) == (0, 0, pb.ZONE_LONG)
    assert (second.life, second.zone) == (1, pb.ZONE_SHIP)
    assert [s.barricade for s in msg.ship] == [
        pb.BARRICADE_FACING_UNSPECIFIED, pb.BARRICADE_FACING_FRONT, 0, 0, 0,
        pb.BARRICADE_FACING_SIDE]
    assert list(msg.ship[3].explorers) == [0, 3] and msg.ship[5].destroyed
    assert list(msg.immobilized) == [pb.BAND_SHORT]
    assert not msg.HasField("result")


def test_bad_views_raise_value_error(game: Montanas) -> None:
    view = game.view(position(), None)
    for bad in ({"colour_scheme": "dark"}, {"phase": "lunch"}, {"pending": {"mood": 1}},
                {"turn": "one"}, {"hands": [[{"id": 0, "kind": "joker"}]]}):
        with pytest.raises(ValueError, match="montanas"):
            ADAPTER.view_to_proto({**view, **bad})


# ----- the adapter object -------------------------------------------------------------------------
def test_adapter_object_and_common_envelopes() -> None:
    from partida.v1 import common_pb2

    assert isinstance(ADAPTER, MontanasAdapter) and ADAPTER.game_id == "montanas"
    action = common_pb2.Action(action_id="end", montanas=ADAPTER.action_to_proto("end"))
    assert ADAPTER.action_from_proto(
        common_pb2.Action.FromString(action.SerializeToString()).montanas) == "end"
    event = common_pb2.Event(kind="section_destroyed",
                             montanas=ADAPTER.event_to_proto("section_destroyed",
                                                             {"section": 3}))
    assert event.montanas.section_destroyed.section == 3
    view = common_pb2.View(montanas=ADAPTER.view_to_proto(Montanas().view(position(), 0)))
    assert view.montanas.phase == pb.PHASE_PLAY
