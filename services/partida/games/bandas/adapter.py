"""Typed protobuf forms of Bandas actions, events and views (partida.games.bandas.v1).

Action ids are `verb[:arg...]` strings (RULES.md, "Decisions, action ids and views"); each verb
maps to one case of `Action.kind`. The adapter has no match state, so it checks what the
content fixes: weapons must be in the points list (ranged or mounted to shoot, melee or
melee-usable, `net` or `unarmed` to fight), unit ids must have the gang-sheet id form,
destinations must lie within the largest table with at most one decimal; the engine refuses
the rest (a unit not in this match, a point off this table or out of reach). Events and views
are copied key by key into the message of the same shape, guided by the descriptors: a key
goes to the field of its name unless `_KEYS` renames it, `[x, y]` lists become `Point`s, enum
fields take the engine's words; an unknown event kind or a key with no field is a ValueError,
so new engine data fails loudly instead of vanishing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor

from partida.games.bandas.actions import point_id
from partida.games.bandas.content import UNIT_ID, load
from partida.games.bandas.v1 import bandas_pb2 as pb

_UNIT = re.compile(UNIT_ID)


@cache
def _limits() -> dict[str, Any]:
    c = load()
    weapons = c.points.weapons
    return {"width": max(t.width for t in c.tables.values()),
            "height": max(t.height for t in c.tables.values()),
            "ranged": frozenset(w for w, s in weapons.items() if s.kind in ("ranged", "mounted")),
            "melee": frozenset([*(w for w, s in weapons.items()
                                  if s.kind == "melee" or s.melee_usable), "net", "unarmed"])}


def _refuse(what: str, text: object) -> ValueError:
    return ValueError(f"{text!r} is not a bandas {what}")


def _unit(text: str) -> str:
    if not isinstance(text, str) or not _UNIT.fullmatch(text):
        raise _refuse("model or vehicle id", text)
    return text


def _weapon(kind: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        if text not in _limits()[kind]:
            raise _refuse(f"{kind} weapon", text)
        return text
    return check


def _point(x: float, y: float) -> tuple[float, float]:
    """A destination within the largest table, each coordinate with at most one decimal."""
    lim = _limits()
    for v, top in ((x, lim["width"]), (y, lim["height"])):
        if not math.isfinite(v) or not 0 <= v <= top or abs(v * 10 - round(v * 10)) > 1e-6:
            raise _refuse(f"point (x 0-{lim['width']:g}, y 0-{lim['height']:g} cm, "
                          "at most one decimal)", (x, y))
    return x, y


# ----- enums: the engine's words <-> numbers --------------------------------------------------
def _prefix(enum: EnumDescriptor) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"


def _word(enum: EnumDescriptor, number: int, what: str) -> str:
    value = enum.values_by_number.get(number)
    if value is None or number == 0:
        raise ValueError(f"bandas {what} is missing or unknown ({number})")
    return str(value.name[len(_prefix(enum)):].lower())


def _number(enum: EnumDescriptor, word: Any) -> int:
    ok = isinstance(word, str) and word == word.lower()
    value = enum.values_by_name.get(_prefix(enum) + word.upper()) if ok else None
    if value is None or value.number == 0:
        raise _refuse(enum.name, word)
    return int(value.number)


# ----- actions ---------------------------------------------------------------------------------
# verb -> (case of Action.kind, (field, check) for each argument of the id in order)
_VERBS: dict[str, tuple[str, tuple[tuple[str, Callable[[str], str]], ...]]] = {
    "activate": ("activate", (("unit", _unit),)),
    "end": ("end", ()),
    "stand": ("stand", ()),
    "shoot": ("shoot", (("target", _unit), ("weapon", _weapon("ranged")))),
    "fight": ("fight", (("target", _unit), ("weapon", _weapon("melee")))),
    "board": ("board", (("vehicle", _unit),)),
    "repair": ("repair", (("vehicle", _unit),)),
    "wheel": ("wheel", (("vehicle", _unit),)),
    "continue": ("carry_on", ()),
}
_POINT_VERBS = ("move", "drive")
_VERB_OF = {case: verb for verb, (case, _) in _VERBS.items()} | {v: v for v in _POINT_VERBS}


def _parse(action_id: str) -> pb.Action:
    verb, _, rest = action_id.partition(":")
    msg = pb.Action()
    if verb in _POINT_VERBS:
        x, comma, y = rest.partition(",")
        try:
            at = _point(float(x), float(y)) if comma else None
        except ValueError as exc:
            raise ValueError(f"{verb} takes a point x,y in cm: {exc}") from None
        if at is None:
            raise ValueError(f"{verb} takes a point x,y in cm")
        getattr(msg, verb).to.CopyFrom(pb.Point(x=at[0], y=at[1]))
        return msg
    if verb == "drugs":
        msg.drugs.effect = _number(pb.Drug.DESCRIPTOR, rest)  # type: ignore[assignment]
        return msg
    if verb not in _VERBS:
        raise ValueError("unknown verb")
    case, fields = _VERBS[verb]
    args = rest.split(":") if rest else []
    if len(args) != len(fields):
        raise ValueError(f"{verb} takes {len(fields)} argument(s)")
    getattr(msg, case).SetInParent()
    for (name, check), arg in zip(fields, args, strict=True):
        setattr(getattr(msg, case), name, check(arg))
    return msg


def _format(msg: pb.Action) -> str:
    case = msg.WhichOneof("kind")
    if case is None:
        raise ValueError("bandas action message is empty: set one case of its oneof `kind`")
    m = getattr(msg, case)
    if case in _POINT_VERBS:
        if not m.HasField("to"):
            raise ValueError(f"bandas {case} needs its destination `to`")
        return point_id(case, _point(m.to.x, m.to.y))
    if case == "drugs":
        return f"drugs:{_word(pb.Drug.DESCRIPTOR, m.effect, 'drugs.effect')}"
    verb = _VERB_OF[case]
    return ":".join([verb, *(check(getattr(m, name)) for name, check in _VERBS[verb][1])])


def action_to_proto(action_id: str) -> pb.Action:
    """The typed form of an engine action id; ValueError if it is not one."""
    if not isinstance(action_id, str):
        raise ValueError(f"a bandas action id is a string, not {action_id!r}")
    try:
        msg = _parse(action_id)
        canonical = _format(msg)
    except ValueError as exc:
        raise ValueError(f"malformed bandas action {action_id!r}: {exc}") from exc
    if canonical != action_id:
        raise ValueError(f"malformed bandas action {action_id!r} (did you mean {canonical!r}?)")
    return msg


def action_from_proto(msg: pb.Action) -> str:
    """The engine action id of a typed action; ValueError if the message is empty or invalid."""
    return _format(msg)


# ----- events and views -----------------------------------------------------------------------
def _rolls(msg: Any, rolls: Any) -> None:
    """Initiative rounds: each a {seat: face} mapping."""
    for faces in rolls:
        msg.rolls.add().faces.update({int(s): f for s, f in faces.items()})


def _ignore(msg: Any, value: Any) -> None:
    """The view's constant "game" key."""


# (message name, data key) -> field name, or a function filling the message from the value.
_KEYS: dict[tuple[str, str], str | Callable[[Any, Any], None]] = {
    **{(m, "from"): "origin" for m in ("Moved", "Drove", "Pushed")},
    **{(m, "to"): "destination" for m in ("Moved", "Drove", "Pushed", "Drifted")},
    ("Initiative", "rolls"): _rolls,
    ("View", "game"): _ignore,
}


def _value(field: FieldDescriptor, value: Any) -> Any:
    if field.enum_type is not None:
        return _number(field.enum_type, value)
    if field.message_type is not None and field.message_type.name == "Point":
        x, y = value
        return pb.Point(x=x, y=y)
    return value


def _fill(msg: Any, field: FieldDescriptor, value: Any) -> None:
    """Set one field (not a map) from the engine's value."""
    name, sub = field.name, field.message_type
    if field.is_repeated:
        if sub is None or sub.name == "Point":
            getattr(msg, name).extend(_value(field, v) for v in value)
        else:
            for item in value:
                _copy(getattr(msg, name).add(), item)
    elif sub is not None and sub.name == "Point":
        getattr(msg, name).CopyFrom(_value(field, value))
    elif sub is not None:
        _copy(getattr(msg, name), value)
    else:
        setattr(msg, name, _value(field, value))


def _fill_map(target: Any, entry: Descriptor, value: Mapping[str, Any]) -> None:
    key, val = entry.fields_by_name["key"], entry.fields_by_name["value"]
    for k, v in value.items():
        k = int(k) if key.type != FieldDescriptor.TYPE_STRING else k
        if val.message_type is not None:
            _copy(target[k], v)
        else:
            target[k] = v


def _copy(msg: Any, data: Mapping[str, Any]) -> Any:
    """Copy `data` into `msg` key by key (None leaves a field unset); returns `msg`."""
    if not isinstance(data, Mapping):
        raise ValueError(f"bandas {msg.DESCRIPTOR.name} wants a mapping, not {data!r}")
    msg.SetInParent()
    for key, value in data.items():
        target = _KEYS.get((msg.DESCRIPTOR.name, key), key)
        if value is None:
            continue
        if callable(target):
            target(msg, value)
            continue
        field = msg.DESCRIPTOR.fields_by_name.get(target)
        if field is None:
            raise ValueError(f"bandas {msg.DESCRIPTOR.name} has no field for {key!r}")
        sub = field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            _fill_map(getattr(msg, target), sub, value)
        else:
            _fill(msg, field, value)
    return msg


EVENT_KINDS = frozenset(f.name for f in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields)
"""Every event kind the typed Event carries: the names of its oneof's cases."""


def _fitted(msg: Any, data: Any, what: str) -> Any:
    try:
        return _copy(msg, data)
    except (TypeError, AttributeError, ValueError) as exc:
        raise ValueError(f"bandas {what} does not fit its message: {exc}") from exc


def event_to_proto(kind: str, data: Mapping[str, Any]) -> pb.Event:
    """The typed form of an engine event; ValueError for an unknown kind or data key."""
    if kind not in EVENT_KINDS:
        raise ValueError(f"unknown bandas event kind {kind!r}")
    event = pb.Event()
    _fitted(getattr(event, kind), data, f"event {kind}")
    return event


def view_to_proto(view: Mapping[str, Any]) -> pb.View:
    """The typed form of `Bandas.view()`; ValueError for a key the message does not carry."""
    out: pb.View = _fitted(pb.View(), view, "view")
    return out


class BandasAdapter:
    """Converts between the engine's Bandas data and partida.games.bandas.v1."""

    game_id = "bandas"
    action_to_proto = staticmethod(action_to_proto)
    action_from_proto = staticmethod(action_from_proto)
    event_to_proto, view_to_proto = staticmethod(event_to_proto), staticmethod(view_to_proto)


ADAPTER = BandasAdapter()
