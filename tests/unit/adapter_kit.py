"""Checks every game's typed adapter (partida.games.typed_copy.TypedAdapter) must pass, written
once: each game's test_adapter.py calls them with its own ids, messages and engine data."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from partida.engine import Event
from partida.engine.conformance import canonical
from partida.games.typed_copy import TypedAdapter
from partida.platform.errors import InvalidArgument
from partida.rules import protos
from partida.v1 import common_pb2


def seen_in_play() -> dict[str, Any]:
    """What a game's `played` fixture gathers: action ids, distinct events, views by moment."""
    return {"ids": set(), "events": {}, "views": {}}


def remember_events(seen: dict[str, Any], events: Iterable[Event]) -> None:
    """Each distinct event once, by its kind and data."""
    for e in events:
        seen["events"].setdefault((e.kind, canonical(e.data)), e)


def round_trip(adapter: TypedAdapter, action_type: Any, ids: Iterable[str]) -> set[str]:
    """Every id to its typed message and back, straight and through the wire; returns the
    cases of `Action.kind` the ids met."""
    cases = set()
    for action_id in sorted(ids):
        msg = adapter.action_to_proto(action_id)
        assert adapter.action_from_proto(msg) == action_id
        again = action_type.FromString(msg.SerializeToString())
        assert adapter.action_from_proto(again) == action_id
        cases.add(msg.WhichOneof("kind"))
    return cases


def every_case(action_type: Any) -> set[str]:
    """The names of every case of a game's `Action.kind`."""
    return {f.name for f in action_type.DESCRIPTOR.oneofs_by_name["kind"].fields}


def check_typed_form(adapter: TypedAdapter, action_id: str, typed: Any) -> None:
    assert adapter.action_to_proto(action_id) == typed
    assert adapter.action_from_proto(typed) == action_id


def check_refused_id(adapter: TypedAdapter, action_id: Any) -> None:
    with pytest.raises(ValueError, match=adapter.game_id):
        adapter.action_to_proto(action_id)


def check_refused_message(adapter: TypedAdapter, msg: Any, says: str) -> None:
    """Refused by the adapter, and by the services as an invalid argument, saying `says`."""
    with pytest.raises(ValueError, match=says):
        adapter.action_from_proto(msg)
    wrapped = common_pb2.Action(**{adapter.game_id: msg})
    with pytest.raises(InvalidArgument, match=says):
        protos.action_id(adapter.game_id, wrapped)


def check_services_accept(adapter: TypedAdapter, action_id: str) -> None:
    """The services take the typed form of `action_id` for that id, through this adapter."""
    wrapped = common_pb2.Action(**{adapter.game_id: adapter.action_to_proto(action_id)})
    assert protos.action_id(adapter.game_id, wrapped) == action_id
    assert protos.adapter_for(adapter.game_id) is adapter


def check_unknown_data_refused(adapter: TypedAdapter, kind: str, data: Mapping[str, Any],
                               view_key: str) -> None:
    """An unknown event kind, a key an event (`kind` with `data`) or the view has no field
    for: each refused, naming what is wrong."""
    with pytest.raises(ValueError, match=f"unknown {adapter.game_id} event kind"):
        adapter.event_to_proto("earthquake", {})
    with pytest.raises(ValueError, match="has no field for 'colour'"):
        adapter.event_to_proto(kind, {**data, "colour": "red"})
    with pytest.raises(ValueError, match=f"has no field for '{view_key}'"):
        adapter.view_to_proto({view_key: "dry"})


def typed_event(adapter: TypedAdapter, e: Event) -> Any:
    """The event's typed case, checked to be the case of its kind."""
    typed = adapter.event_to_proto(e.kind, e.data)
    assert typed.WhichOneof("kind") == e.kind
    return getattr(typed, e.kind)


def plain(msg: Any, prefixes: Collection[str] = ()) -> Any:
    """A message back as plain data: names of enum values with one of `prefixes` as the
    engine's lower-case words."""
    def words(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: words(v) for k, v in x.items()}
        if isinstance(x, list):
            return [words(v) for v in x]
        if isinstance(x, str):
            for p in prefixes:
                if x.startswith(p):
                    return x[len(p):].lower()
        return x
    return words(json_format.MessageToDict(msg, preserving_proto_field_name=True))


def strip(data: Any, maps: Collection[str] = (), key: str = "") -> Any:
    """Drop what proto3 may leave unsent: None, and false, zero and empty values of fields;
    the entries of a map (a key in `maps`) are all sent, zero and false included."""
    if isinstance(data, Mapping):
        out = {k: strip(v, maps, k) for k, v in data.items()}
        if key in maps:
            return out
        return {k: v for k, v in out.items()
                if v not in (None, False, 0, "") and v != [] and v != {}}
    if isinstance(data, list):
        return [strip(v, maps, key) for v in data]
    return data


def written_event_kinds(sources: Path) -> set[str]:
    """Every kind a game's modules write as `Event("kind"...`."""
    written = set()
    for source in sources.glob("*.py"):
        written |= set(re.findall(r'Event\("([a-z_]+)"', source.read_text()))
    return written
