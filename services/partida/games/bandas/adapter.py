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
from collections.abc import Callable
from functools import cache
from typing import Any

from partida.games.bandas.actions import point_id
from partida.games.bandas.content import UNIT_ID, load
from partida.games.bandas.v1 import bandas_pb2 as pb
from partida.games.typed_copy import EnumWords, Filler, TypedAdapter, chosen, ignore, refusal

_UNIT = re.compile(UNIT_ID)
_WORDS = EnumWords("bandas")


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
    return refusal("bandas", what, text)


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
        msg.drugs.effect = _WORDS.number(pb.Drug.DESCRIPTOR, rest)  # type: ignore[assignment]
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
    case, m = chosen(msg, "bandas")
    if case in _POINT_VERBS:
        if not m.HasField("to"):
            raise ValueError(f"bandas {case} needs its destination `to`")
        return point_id(case, _point(m.to.x, m.to.y))
    if case == "drugs":
        return f"drugs:{_WORDS.word(pb.Drug.DESCRIPTOR, m.effect, 'drugs.effect')}"
    verb = _VERB_OF[case]
    return ":".join([verb, *(check(getattr(m, name)) for name, check in _VERBS[verb][1])])


# ----- events and views -----------------------------------------------------------------------
def _rolls(msg: Any, rolls: Any) -> None:
    """Initiative rounds: each a {seat: face} mapping."""
    for faces in rolls:
        msg.rolls.add().faces.update({int(s): f for s, f in faces.items()})


# (message name, data key) -> field name, or a function filling the message from the value.
_KEYS: dict[tuple[str, str], str | Filler] = {
    **{(m, "from"): "origin" for m in ("Moved", "Drove", "Pushed")},
    **{(m, "to"): "destination" for m in ("Moved", "Drove", "Pushed", "Drifted")},
    ("Initiative", "rolls"): _rolls,
    ("View", "game"): ignore,
}


def _set_point(msg: Any, value: Any) -> None:
    """Points come as [x, y] lists."""
    x, y = value
    msg.x, msg.y = x, y


ADAPTER: TypedAdapter = TypedAdapter("bandas", pb, _parse, _format, _WORDS, _KEYS,
                                     {"Point": _set_point})
"""Converts between the engine's Bandas data and partida.games.bandas.v1."""
action_to_proto, action_from_proto = ADAPTER.action_to_proto, ADAPTER.action_from_proto
event_to_proto, view_to_proto = ADAPTER.event_to_proto, ADAPTER.view_to_proto
EVENT_KINDS = ADAPTER.event_kinds
"""Every event kind the typed Event carries: the names of its oneof's cases."""
