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

from collections.abc import Callable
from functools import cache
from typing import Any

from partida.games.pasaran.content import load
from partida.games.pasaran.v1 import pasaran_pb2 as pb
from partida.games.typed_copy import EnumWords, Filler, TypedAdapter, chosen, refusal

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
            raise refusal("pasaran", what, text)
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
    case, m = chosen(msg, "pasaran")
    if case == "play":
        choice = m.WhichOneof("choice")
        tail = ([] if choice is None else [_place(m.attack)] if choice == "attack"
                else [_unit(m.hq)] if choice == "hq" else ["remove", _unit(m.remove_hq)])
        return ":".join(["play", _card(m.card), *tail])
    return ":".join([case, *(str(check(str(getattr(m, name)))) for name, check in _fields(case))])


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
                ADAPTER.copy(msg.hands[side].cards.add(), held)


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
_KEYS: dict[tuple[str, str], str | Filler] = {
    ("Round", "fire"): _fire,
    ("View", "hands"): _hands,
    ("Offer", "cards"): _offer_cards,
    ("View", "chits"): _chits,
    ("Combat", "declared"): _declared,
    ("View", "stacks"): _stacks,
}


# No enum field here: every word the engine writes (a side, a kind) travels as text.
ADAPTER: TypedAdapter = TypedAdapter("pasaran", pb, _parse, _format, EnumWords("pasaran"), _KEYS)
"""Converts between the engine's ¿Pasarán? data and partida.games.pasaran.v1."""
action_to_proto, action_from_proto = ADAPTER.action_to_proto, ADAPTER.action_from_proto
event_to_proto, view_to_proto = ADAPTER.event_to_proto, ADAPTER.view_to_proto
EVENT_KINDS = ADAPTER.event_kinds
"""Every event kind the typed Event carries: the names of its oneof's cases."""
