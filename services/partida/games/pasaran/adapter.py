"""Typed protobuf forms of ¿Pasarán? actions, events and views (partida.games.pasaran.v1).

Action ids are `verb[:arg...]` strings (rules.py `_choices`); each verb maps to one case of
`Action.kind`. The adapter has no match state, so it checks what the content fixes: units,
cards and chits must be in the counter mix, the deck and the chit mix, places must be areas
of the map (or "<area>.c" for an area with a city), sides "rep" or "nat"; the engine refuses
the rest (a unit not on the map, a place out of reach). Events and views are copied key by key
into the message of the same shape, guided by the descriptors; the few values whose shape
depends on who looks (a hand, the drawn cards, the chit cups: a list for their owner, a count
for the other side) and the lists standing for records (a round's fire, a declaration) have
their own fillers in `_KEYS`. An unknown event kind or a key with no field is a ValueError, so
new engine data fails loudly instead of vanishing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from partida.games.pasaran.content import load
from partida.games.pasaran.v1 import pasaran_pb2 as pb

SIDES = ("rep", "nat")


@cache
def _names() -> dict[str, frozenset[str]]:
    c = load()
    areas = {a.id for a in c.map.areas}
    cities = {f"{a.id}.c" for a in c.map.areas if a.city is not None}
    return {"unit": frozenset(u.id for u in c.counters.units),
            "place": frozenset(areas | cities),
            "card": frozenset(k.id for k in c.cards.cards),
            "chit": frozenset(f"{kind}{i}" for kind, spec in c.tables.chits.items()
                              for i in range(1, spec["count"] + 1)),
            "side": frozenset(SIDES)}


def _check(what: str, extra: tuple[str, ...] = ()) -> Callable[[str], str]:
    def check(text: str) -> str:
        if text not in _names()[what] and text not in extra:
            raise ValueError(f"{text!r} is not a pasaran {what}")
        return text
    return check


def _count(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a count")
    return int(text)


_unit, _place, _card, _side = _check("unit"), _check("place"), _check("card"), _check("side")
_LOSS = _check("unit", ("trench",))          # 9.5: a finished trench takes a hit like a unit

# verb -> (case of Action.kind, (field, check) for each argument of the id in order)
_ARGS: dict[str, tuple[tuple[str, Callable[[str], Any]], ...]] = {
    "UnitTo": (("unit", _unit), ("place", _place)),
    "UnitOnly": (("unit", _unit),),
    "PlaceOnly": (("place", _place),),
    "CardOnly": (("card", _card),),
    "Bare": (),
    "Reassemble": (("unit", _unit), ("spare", _unit)),
    "First": (("side", _side),),
    "Pin": (("unit", _unit), ("target", _unit)),
    "Declare": (("air_over_land", _count), ("land_on_aircraft", _count)),
    "Chit": (("chit", _check("chit")),),
}
_CASES = {f.name: f.message_type.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields
          if f.message_type is not None}


def _fields(case: str) -> tuple[tuple[str, Callable[[str], Any]], ...]:
    return (("unit", _LOSS),) if case == "loss" else _ARGS[_CASES[case]]


def _parse(action_id: str) -> pb.Action:
    verb, _, rest = action_id.partition(":")
    if verb not in _CASES:
        raise ValueError("unknown verb")
    msg = pb.Action()
    args = rest.split(":") if rest else []
    if verb == "play":
        if not args:
            raise ValueError("play names a card")
        msg.play.card = _card(args[0])
        choice = args[1:]
        if choice[:1] == ["remove"] and len(choice) == 2:
            msg.play.remove_hq = _unit(choice[1])
        elif len(choice) == 1:
            if choice[0] in _names()["unit"]:
                msg.play.hq = choice[0]
            else:
                msg.play.attack = _place(choice[0])
        elif choice:
            raise ValueError("play takes a card and at most one choice")
        return msg
    fields = _fields(verb)
    if len(args) != len(fields):
        raise ValueError(f"{verb} takes {len(fields)} argument(s)")
    sub = getattr(msg, verb)
    sub.SetInParent()
    for (name, check), arg in zip(fields, args, strict=True):
        setattr(sub, name, check(arg))
    return msg


def _format(msg: pb.Action) -> str:
    case = msg.WhichOneof("kind")
    if case is None:
        raise ValueError("pasaran action message is empty: set one case of its oneof `kind`")
    m = getattr(msg, case)
    if case == "play":
        choice = m.WhichOneof("choice")
        tail = ([] if choice is None else [_place(m.attack)] if choice == "attack"
                else [_unit(m.hq)] if choice == "hq" else ["remove", _unit(m.remove_hq)])
        return ":".join(["play", _card(m.card), *tail])
    return ":".join([case, *(str(check(str(getattr(m, name)))) for name, check in _fields(case))])


def action_to_proto(action_id: str) -> pb.Action:
    """The typed form of an engine action id; ValueError if it is not one."""
    if not isinstance(action_id, str):
        raise ValueError(f"a pasaran action id is a string, not {action_id!r}")
    try:
        msg = _parse(action_id)
        canonical = _format(msg)
    except ValueError as exc:
        raise ValueError(f"malformed pasaran action {action_id!r}: {exc}") from exc
    if canonical != action_id:
        raise ValueError(f"malformed pasaran action {action_id!r} (did you mean {canonical!r}?)")
    return msg


def action_from_proto(msg: pb.Action) -> str:
    """The engine action id of a typed action; ValueError if the message is empty or names
    a unit, place, card or chit the content does not have."""
    return _format(msg)


# ----- events and views -----------------------------------------------------------------------
def _fire(msg: Any, log: Any) -> None:
    """A round's fire: [unit, pool, value, rolls, hits] per firing unit."""
    for uid, pool, value, rolls, hits in log:
        msg.fire.add(unit=uid, pool=pool, value=value, rolls=rolls, hits=hits)


def _hands(msg: Any, hands: Any) -> None:
    """Own hand as its cards, the other side's as a count."""
    for side, hand in hands.items():
        if isinstance(hand, int):
            msg.hands[side].count = hand
        else:
            msg.hands[side].SetInParent()
            for held in hand:
                _copy(msg.hands[side].cards.add(), held)


def _offer_cards(msg: Any, cards: Any) -> None:
    if isinstance(cards, int):
        msg.count = cards
    else:
        msg.cards.extend(cards)


def _chits(msg: Any, chits: Any) -> None:
    """Own cup and hand as chit ids, the other side's as counts."""
    for side, cups in chits.items():
        out = msg.chits[side]
        out.SetInParent()
        for key in ("cup", "hand"):
            if isinstance(cups[key], int):
                setattr(out, f"{key}_count", cups[key])
            else:
                getattr(out, key).extend(cups[key])
        out.played.extend(cups["played"])


def _declared(msg: Any, declared: Any) -> None:
    for side, counts in declared.items():
        msg.declared[side].counts.extend(counts)


def _stacks(msg: Any, stacks: Any) -> None:
    for side, counts in stacks.items():
        msg.stacks[side].SetInParent()
        msg.stacks[side].counts.update(counts)


# (message name, data key) -> field name, or a function filling the message from the value.
_KEYS: dict[tuple[str, str], str | Callable[[Any, Any], None]] = {
    ("Round", "fire"): _fire,
    ("View", "hands"): _hands,
    ("Offer", "cards"): _offer_cards,
    ("View", "chits"): _chits,
    ("Combat", "declared"): _declared,
    ("View", "stacks"): _stacks,
}


def _fill(msg: Any, field: FieldDescriptor, value: Any) -> None:
    """Set one field (not a map) from the engine's value."""
    name, sub = field.name, field.message_type
    if field.is_repeated:
        if sub is None:
            getattr(msg, name).extend(value)
        else:
            for item in value:
                _copy(getattr(msg, name).add(), item)
    elif sub is not None:
        _copy(getattr(msg, name), value)
    else:
        setattr(msg, name, value)


def _fill_map(target: Any, entry: Descriptor, value: Mapping[str, Any]) -> None:
    """Every map of these messages is keyed by a string (side, place, unit, option)."""
    val = entry.fields_by_name["value"]
    for k, v in value.items():
        if val.message_type is not None:
            _copy(target[k], v)
        else:
            target[k] = v


def _copy(msg: Any, data: Mapping[str, Any]) -> Any:
    """Copy `data` into `msg` key by key (None leaves a field unset); returns `msg`."""
    if not isinstance(data, Mapping):
        raise ValueError(f"pasaran {msg.DESCRIPTOR.name} wants a mapping, not {data!r}")
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
            raise ValueError(f"pasaran {msg.DESCRIPTOR.name} has no field for {key!r}")
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
        raise ValueError(f"pasaran {what} does not fit its message: {exc}") from exc


def event_to_proto(kind: str, data: Mapping[str, Any]) -> pb.Event:
    """The typed form of an engine event; ValueError for an unknown kind or data key."""
    if kind not in EVENT_KINDS:
        raise ValueError(f"unknown pasaran event kind {kind!r}")
    event = pb.Event()
    _fitted(getattr(event, kind), data, f"event {kind}")
    return event


def view_to_proto(view: Mapping[str, Any]) -> pb.View:
    """The typed form of `Pasaran.view()`; ValueError for a key the message does not carry."""
    out: pb.View = _fitted(pb.View(), view, "view")
    return out


class PasaranAdapter:
    """Converts between the engine's ¿Pasarán? data and partida.games.pasaran.v1."""

    game_id = "pasaran"
    action_to_proto = staticmethod(action_to_proto)
    action_from_proto = staticmethod(action_from_proto)
    event_to_proto, view_to_proto = staticmethod(event_to_proto), staticmethod(view_to_proto)


ADAPTER = PasaranAdapter()
