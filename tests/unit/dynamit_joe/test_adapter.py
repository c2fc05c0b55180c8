"""The typed protobuf contract of Dynamit Joe (adapter.py): every action id met in bot playouts
of every scenario round-trips exactly, every event kind and every seat's view converts key for
key, and malformed ids and messages are refused with errors that say what is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from partida.engine import Event
from partida.engine.bots import play_match
from partida.engine.conformance import GARBAGE_IDS
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe.adapter import (
    ADAPTER,
    EVENT_KINDS,
    action_from_proto,
    event_to_proto,
    view_to_proto,
)
from partida.games.dynamit_joe.bots import BOTS
from partida.games.dynamit_joe.v1 import dynamit_joe_pb2 as pb

from .. import adapter_kit as kit
from .positions import act, gun, make, stack, turn

# Engine data key -> typed field where the names differ, per event kind (written out here,
# apart from the adapter). Keys not listed keep their name.
RENAMED: dict[str, dict[str, str]] = {
    "action": {"action": "action_id"},
    "moved": {"from": "from_zone", "to": "to_zone"},
    "fled": {"from": "from_zone", "to": "to_zone"},
    "dragged": {"to": "to_zone"},
    "handed": {"object": "object_id", "from": "from_character", "to": "to_character"},
    "shot": {"guns": "gun_ids"},
    **{k: {"object": "object_id"} for k in ("dropped", "jammed", "unjammed", "weapon_ruined",
                                             "repair_failed", "reloaded", "dynamite_thrown",
                                             "picked_up", "fizzled", "bought", "placed")},
}
ENUM_PREFIXES = ("OBJECT_KIND_", "JOKER_", "HIT_RESULT_", "PILE_", "PANIC_EFFECT_",
                 "PROMPT_KIND_", "INTERRUPT_KIND_")
KEEP_FALSY = ("locks", "gold_off")  # maps: every entry is sent, false or zero included

# Every scenario at its fewest and most seats, with both bots, and the option matches that
# bring out the events only optional rules make (8.1 reassigning, 8.3 repair by card).
MATCHES = [(s.id, n, bot, {}) for s in GAME.info.scenarios
           for n in sorted({s.min_seats, s.max_seats}) for bot in ("random", "heuristic")]
MATCHES += [(s.id, s.max_seats, "random", {"jam_repair_by_card": True,
                                           "reassign_characters": True, "windows_cost_two": True,
                                           "wounds_reduce_ap": True, "round_limit": 12})
            for s in GAME.info.scenarios]
# Optional rule 8.5: buying at set-up, with both bots.
MATCHES += [(s.id, s.min_seats, bot, {"price_list_budget": 50 + 7 * i})
            for i, s in enumerate(GAME.info.scenarios) for bot in ("random", "heuristic")]


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    seen = kit.seen_in_play()

    def observe(state: Any, seat: Any, action: Any, events: list[Event]) -> None:
        kit.remember_events(seen, events)
        for s in range(state.seats):
            seen["ids"].update(a.id for a in GAME.legal_actions(state, s))
        for viewer in (None, *range(state.seats)):
            view = GAME.view(state, viewer)
            prompt = view["prompt"] or {}
            moment = (viewer, view["scenario"], view["round"], view["active"], prompt.get("kind"))
            seen["views"].setdefault(moment, (viewer, view))  # one per viewer, turn and prompt

    for seed, (scenario, seats, bot, options) in enumerate(MATCHES):
        play_match(GAME, scenario, [BOTS[bot]() for _ in range(seats)], seed, options,
                   observe=observe)
    return seen


def test_every_action_id_round_trips(played: dict[str, Any]) -> None:
    cases = kit.round_trip(ADAPTER, pb.Action, played["ids"])
    # "continue" only follows a surrender (tested below); every other case came up in play.
    assert kit.every_case(pb.Action) - cases == {"carry_on"}


@pytest.mark.parametrize(("action_id", "typed"), [
    ("move:saloon_bar", pb.Action(move=pb.Action.Move(zone="saloon_bar"))),
    ("double:colts:Jake", pb.Action(double_shot=pb.Action.DoubleShot(both_colts=True,
                                                                     target="Jake"))),
    ("double:o3:Jake", pb.Action(double_shot=pb.Action.DoubleShot(shotgun_id="o3",
                                                                  target="Jake"))),
    ("joker:mortal_fear:Bob", pb.Action(play_joker_in_turn=pb.Action.PlayJokerInTurn(
        joker=pb.JOKER_MORTAL_FEAR, character="Bob"))),
    ("joker:energy", pb.Action(play_joker_in_turn=pb.Action.PlayJokerInTurn(
        joker=pb.JOKER_ENERGY))),
    ("end:ambush", pb.Action(end_turn=pb.Action.EndTurn(in_ambush=True))),
    ("end", pb.Action(end_turn=pb.Action.EndTurn())),
    ("pass", pb.Action(decline=pb.Action.Decline())),
    ("continue", pb.Action(carry_on=pb.Action.CarryOn())),
    ("inst:shoot:o2:Bob", pb.Action(interrupt=pb.Action.Interrupt(
        how=pb.INTERRUPT_KIND_INSTINCTIVE_SHOT,
        action=pb.Action(shoot=pb.Action.Shoot(gun_id="o2", target="Bob"))))),
])
def test_typed_forms(action_id: str, typed: pb.Action) -> None:
    kit.check_typed_form(ADAPTER, action_id, typed)


@pytest.mark.parametrize("action_id", [
    *GARBAGE_IDS, "move:nowhere", "move", "move:saloon_bar:x", "shoot:o1:Nobody", "shoot:x1:Jake",
    "double:o1", "joker:luck", "joker:energy:o1", "joker:weaponsmith", "end:now",
    "inst:move:saloon_bar", "adr:shoot:o1:Bob", "amb:ambush", "amb:amb:move:alley", "leave:",
    "lock:o1:front_door", "pass:", "drop:o01"])
def test_malformed_ids_raise_value_error(action_id: str) -> None:
    kit.check_refused_id(ADAPTER, action_id)


@pytest.mark.parametrize(("msg", "says"), [
    (pb.Action(), "empty"),
    (pb.Action(move=pb.Action.Move()), "not a dynamit_joe zone"),
    (pb.Action(move=pb.Action.Move(zone="moon")), "'moon' is not a dynamit_joe zone"),
    (pb.Action(shoot=pb.Action.Shoot(gun_id="o1")), "not a dynamit_joe character"),
    (pb.Action(double_shot=pb.Action.DoubleShot(target="Bob")), "shotgun_id or both_colts"),
    (pb.Action(play_joker_in_turn=pb.Action.PlayJokerInTurn(joker=pb.JOKER_LUCK)),
     "not played in its holder's turn"),
    (pb.Action(play_joker_in_turn=pb.Action.PlayJokerInTurn(joker=pb.JOKER_SPEED,
                                                            object_id="o1")), "takes no argument"),
    (pb.Action(play_joker_in_turn=pb.Action.PlayJokerInTurn()), "missing or unknown"),
    (pb.Action(interrupt=pb.Action.Interrupt(action=pb.Action(lay_ambush={}))), "`how`"),
    (pb.Action(interrupt=pb.Action.Interrupt(how=pb.INTERRUPT_KIND_ADRENALINE,
                                             action=pb.Action(lay_ambush={}))), "cannot carry"),
])
def test_malformed_messages_are_refused_clearly(msg: pb.Action, says: str) -> None:
    kit.check_refused_message(ADAPTER, msg, says)


def test_the_services_accept_a_typed_action() -> None:
    kit.check_services_accept(ADAPTER, "drop:o4")


def _plain(msg: Any) -> Any:
    return kit.plain(msg, ENUM_PREFIXES)


def _strip(data: Any) -> Any:
    return kit.strip(data, KEEP_FALSY)


def test_every_event_kind_converts_key_for_key(played: dict[str, Any]) -> None:
    kinds = set()
    for (kind, _), e in sorted(played["events"].items()):
        kinds.add(kind)
        typed = kit.typed_event(ADAPTER, e)
        names = RENAMED.get(kind, {})
        want = _strip({names.get(k, k): v for k, v in e.data.items()})
        got = _plain(typed)
        if kind == "action":
            assert action_from_proto(typed.action) == e.data["action"]
            got.pop("action")
        assert got == want, kind
    assert kinds <= EVENT_KINDS
    # The rare ones (a surrender, a repair ruining a gun or failing, 8.1 reassigning) are
    # made below.
    assert EVENT_KINDS - kinds <= RARE


RARE = {"surrendered", "weapon_ruined", "repair_failed", "reassigned"}


def test_rare_event_kinds_convert() -> None:
    state = make("arrest", 2)
    events = GAME.resign(state, 1)
    state = turn(make("showdown", 3, jam_repair_by_card=True), "Fred")
    g = gun(state, "Fred")
    state.objects[g]["jammed"] = True
    stack(state, "easy", "jam", state.objects[g]["kind"])
    events += act(state, f"unjam:{g}")
    state = turn(make("showdown", 3, jam_repair_by_card=True), "Fred")
    g = gun(state, "Fred")
    state.objects[g]["jammed"] = True
    stack(state, "easy", "miss", state.objects[g]["kind"])
    events += act(state, f"unjam:{g}")
    # rules._reassign's event, as it writes it: no bot playout above happened to need one.
    events.append(Event("reassigned", {"character": "Jake", "seat": 1, "side": "friends"}))
    assert {e.kind for e in events} >= RARE
    for e in events:
        names = RENAMED.get(e.kind, {})
        got = _plain(getattr(event_to_proto(e.kind, e.data), e.kind))
        if e.kind == "action":
            got.pop("action")
        assert got == _strip({names.get(k, k): v for k, v in e.data.items()})


def test_views_of_every_seat_convert_key_for_key(played: dict[str, Any]) -> None:
    """Field for field; a seat's own jokers by name, everyone else's only as hidden."""
    viewers = set()
    for viewer, view in played["views"].values():
        viewers.add(viewer)
        want = _strip({k: v for k, v in view.items() if k != "game"})
        if view["prompt"]:
            prompt_names = {"char": "character", "object": "object_id", "to": "to_seat"}
            want["prompt"] = _strip({prompt_names.get(k, k): v
                                     for k, v in view["prompt"].items()})
        typed = view_to_proto(view)
        assert _strip(_plain(typed)) == want
        for c, tc in zip(view["characters"], typed.characters, strict=True):
            if c["joker"] is not None:
                mine = c["seat"] == viewer
                assert (tc.joker == pb.JOKER_HIDDEN) is not mine
    assert viewers == {None, *range(max(s.max_seats for s in GAME.info.scenarios))}


def test_unknown_data_is_refused() -> None:
    kit.check_unknown_data_refused(ADAPTER, "moved", {"character": "Jake"}, "weather")
    with pytest.raises(ValueError, match="not a dynamit_joe Joker"):
        event_to_proto("joker_played", {"character": "Jake", "joker": "queen", "target": ""})
    # The engine writes its words in lower case; the same word in capitals is refused (the
    # shared EnumWords, as for Batallitas and Bandas), not read as the value.
    with pytest.raises(ValueError, match="not a dynamit_joe Joker"):
        event_to_proto("joker_played", {"character": "Jake", "joker": "ENERGY", "target": ""})
