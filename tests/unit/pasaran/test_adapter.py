"""The typed protobuf contract of ¿Pasarán? (adapter.py): every action id offered in bot
playouts (all optional rules on in one, fog of war included) round-trips exactly, every event
and view converts key for key, and ids and messages naming what the content does not have
(units, places, cards, chits) are refused with errors that say what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from partida.engine import Event, LocalRng
from partida.engine.bots import play_match
from partida.engine.conformance import GARBAGE_IDS
from partida.games.pasaran import Pasaran
from partida.games.pasaran.adapter import (
    ADAPTER,
    EVENT_KINDS,
    view_to_proto,
)
from partida.games.pasaran.bots import BOTS
from partida.games.pasaran.v1 import pasaran_pb2 as pb

from .. import adapter_kit as kit

GAME = Pasaran()
SOURCES = Path(__file__).parents[3] / "services" / "partida" / "games" / "pasaran"
ALL_OPTIONS = {"reassembling_backs": True, "alternating_initiative": True, "trenches": True,
               "combat_chits": True, "pinning": True, "fog_of_war": True}


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    seen: dict[str, Any] = {"ids": set(), "events": [], "kinds": set(), "views": []}

    def observe(state: Any, seat: Any, action: Any, events: list[Event]) -> None:
        for e in events:
            seen["events"].append(e)
            if e.public is not None:             # the other side's copy under fog of war
                seen["events"].append(Event(e.kind, e.public))
            seen["kinds"].add(e.kind)
        for s in GAME.to_act(state):
            seen["ids"].update(a.id for a in GAME.legal_actions(state, s))
        if (len(seen["ids"]) % 7 == 0 or state.offer is not None
                or state.combat is not None and state.combat["round"] == 1):
            seen["views"] += [GAME.view(state, 0), GAME.view(state, 1)]

    play_match(GAME, "campaign", [BOTS["heuristic"](), BOTS["heuristic"]()], 1, observe=observe)
    play_match(GAME, "campaign", [BOTS["heuristic"](), BOTS["random"]()], 3, ALL_OPTIONS,
               observe=observe)
    return seen


def test_every_action_id_round_trips(played: dict[str, Any]) -> None:
    cases = kit.round_trip(ADAPTER, pb.Action, played["ids"])
    every = kit.every_case(pb.Action)
    assert len(cases) >= len(every) - 4, every - cases


@pytest.mark.parametrize(("action_id", "typed"), [
    ("move:r_mil1:toledo", pb.Action(move=pb.Action.UnitTo(unit="r_mil1", place="toledo"))),
    ("place:hq_miaja:madrid.c",
     pb.Action(place=pb.Action.UnitTo(unit="hq_miaja", place="madrid.c"))),
    ("end", pb.Action(end=pb.Action.Bare())),
    ("declare:0:2", pb.Action(declare=pb.Action.Declare(air_over_land=0, land_on_aircraft=2))),
    ("loss:trench", pb.Action(loss=pb.Action.UnitOnly(unit="trench"))),
    ("play:get_hq:hq_kleber", pb.Action(play=pb.Action.Play(card="get_hq", hq="hq_kleber"))),
    ("play:hq:remove:hq_mola", pb.Action(play=pb.Action.Play(card="hq", remove_hq="hq_mola"))),
    ("play:blockade", pb.Action(play=pb.Action.Play(card="blockade"))),
    ("chit:attack1", pb.Action(chit=pb.Action.Chit(chit="attack1"))),
    ("first:nat", pb.Action(first=pb.Action.First(side="nat"))),
    ("reassemble:n_reg3:n_reg6",
     pb.Action(reassemble=pb.Action.Reassemble(unit="n_reg3", spare="n_reg6"))),
])
def test_typed_forms(action_id: str, typed: pb.Action) -> None:
    kit.check_typed_form(ADAPTER, action_id, typed)


@pytest.mark.parametrize("action_id", [
    *GARBAGE_IDS, "move", "move:r_mil1", "move:r_mil1:atlantis", "move:r_mil99:toledo",
    "move:r_mil1:toledo.c.c", "keep:joker", "chit:attack9", "first:both", "declare:a:1",
    "declare:1", "play", "play:joker", "play:get_hq:hq_nobody", "play:hq:remove",
    "end:now", "loss:trenches", "fight:"])
def test_malformed_ids_raise_value_error(action_id: str) -> None:
    kit.check_refused_id(ADAPTER, action_id)


@pytest.mark.parametrize(("msg", "says"), [
    (pb.Action(), "empty"),
    (pb.Action(move=pb.Action.UnitTo(unit="r_mil1", place="lisboa")),
     "'lisboa' is not a pasaran place"),
    (pb.Action(rail=pb.Action.UnitTo(unit="panzer1", place="madrid")),
     "'panzer1' is not a pasaran unit"),
    (pb.Action(keep=pb.Action.CardOnly(card="ace_of_spades")),
     "'ace_of_spades' is not a pasaran card"),
    (pb.Action(chit=pb.Action.Chit(chit="dud99")), "'dud99' is not a pasaran chit"),
    (pb.Action(first=pb.Action.First()), "'' is not a pasaran side"),
    (pb.Action(play=pb.Action.Play(card="hq", remove_hq="hq_franco")), "not a pasaran unit"),
])
def test_malformed_messages_are_refused_clearly(msg: pb.Action, says: str) -> None:
    kit.check_refused_message(ADAPTER, msg, says)


def test_the_services_accept_a_typed_action() -> None:
    kit.check_services_accept(ADAPTER, "rail:hq_mola:segovia")


# ----- events and views: the engine's data in the typed message's shape ----------------------
MAPS = {"bp", "income", "command_used", "counts", "rolls", "options", "control",
        "city_control"}   # every entry of a map is sent, zero and false included


def _counted(value: Any, many: str, count: str) -> dict[str, Any]:
    return {count: value} if isinstance(value, int) else {many: value}


def _shaped(data: Any, key: str = "") -> Any:
    """Engine data in the message's shape: counts for what the viewer may not see, a round's
    fire as records, declarations and stacks wrapped."""
    if key == "fire":
        return [dict(zip(("unit", "pool", "value", "rolls", "hits"), f, strict=True))
                for f in data]
    if key == "hands":
        return {s: _counted(h, "cards", "count") for s, h in data.items()}
    if key == "offer" and data is not None:
        return {"side": data["side"], **_counted(data["cards"], "cards", "count")}
    if key == "chits" and isinstance(data, Mapping):
        return {s: {"played": c["played"], **_counted(c["cup"], "cup", "cup_count"),
                    **_counted(c["hand"], "hand", "hand_count")} for s, c in data.items()}
    if key == "declared" and isinstance(data, Mapping):
        return {s: {"counts": n} for s, n in data.items()}
    if key == "stacks":
        return {s: {"counts": n} for s, n in data.items()}
    if isinstance(data, Mapping):
        return {k: _shaped(v, k) for k, v in data.items()}
    if isinstance(data, list):
        return [_shaped(v) for v in data]
    return data


def _same(msg: Any, data: Mapping[str, Any]) -> bool:
    return bool(kit.strip(kit.plain(msg), MAPS) == kit.strip(_shaped(data), MAPS))


def _check_event(e: Event) -> None:
    assert _same(kit.typed_event(ADAPTER, e), e.data), (e.kind, e.data)


def test_every_event_in_play_converts_key_for_key(played: dict[str, Any]) -> None:
    for e in played["events"]:
        _check_event(e)
    assert played["kinds"] <= EVENT_KINDS
    assert len(EVENT_KINDS - played["kinds"]) <= 6, EVENT_KINDS - played["kinds"]


def test_every_event_kind_the_engine_writes_has_a_typed_case() -> None:
    written = kit.written_event_kinds(SOURCES)
    written |= {"move", "rail", "coast", "rebase", "airlift", "invade",   # Event(verb, ...)
                "repair", "build", "rebuild"}
    assert written == EVENT_KINDS


RARE = [
    Event("delayed", {"unit": "r_int1"}),
    Event("revolt_over", {"card": "barcelona_revolt", "area": "barcelona"}),
    Event("eliminated", {"unit": "n_air1", "why": "no friendly area within reach"}),
    Event("combat_over", {"place": "madrid", "winner": None}),
    Event("retreated", {"side": "rep", "place": "madrid", "to": None, "aircraft_only": False}),
    Event("invade", {"to": "malaga"}),                     # the other side's copy, fog of war
]


@pytest.mark.parametrize("event", RARE, ids=[e.kind for e in RARE])
def test_rare_event_kinds_convert(event: Event) -> None:
    _check_event(event)


def test_resignation_events_convert() -> None:
    state = GAME.new_state("campaign", 2, {}, LocalRng(3))
    for e in GAME.resign(state, 0):
        _check_event(e)


def test_views_convert_key_for_key(played: dict[str, Any]) -> None:
    seen = set()
    for view in played["views"]:
        assert _same(view_to_proto(view), view)
        seen |= {k for k, v in view.items() if v not in (None, [], {}, 0, "", False)}
    assert {"stacks", "combat", "offer", "trenches", "chits"} <= seen


def test_fog_hides_in_the_typed_view_too() -> None:
    """9.2: the enemy's hidden units are blank in the typed view as in the engine's."""
    state = GAME.new_state("campaign", 2, {"fog_of_war": True}, LocalRng(5))
    typed = view_to_proto(GAME.view(state, 0))
    hidden = [u for u in typed.units.values() if u.hidden]
    assert hidden and all(u.side == "nat" and not u.kind and not u.at for u in hidden)
    assert typed.stacks["nat"].counts and "rep" not in typed.stacks


def test_unknown_data_is_refused() -> None:
    kit.check_unknown_data_refused(ADAPTER, "placed", {"unit": "r_mil1"}, "snow")
