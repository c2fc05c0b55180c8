"""Typed protobuf forms of Las Montañas actions, events and views (partida.games.montanas.v1).

The engine speaks strings and JSON-plain dicts; this module converts them to and from the
messages of protos/partida/games/montanas/v1/montanas.proto. Events and views are filled by
one generic walker driven by the message descriptors: a data key goes to the field of the same
name unless `_RENAMES` says otherwise, enum fields take the engine's lower-case strings, and a
key with no field is an error, so a change in the engine's data cannot be dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from partida.games.montanas.v1 import montanas_pb2 as pb

_FACING = {"front": pb.BARRICADE_FACING_FRONT, "side": pb.BARRICADE_FACING_SIDE}
_BAND = {"long": pb.BAND_LONG, "medium": pb.BAND_MEDIUM, "short": pb.BAND_SHORT}
_EXCHANGE = {"give": pb.EXCHANGE_KIND_GIVE, "ask": pb.EXCHANGE_KIND_ASK,
             "swap": pb.EXCHANGE_KIND_SWAP}
_NAT = re.compile(r"0|[1-9][0-9]*")  # the engine writes numbers as str(int): no sign, no padding
_SPOT = re.compile(r"(front|side)([1-9][0-9]*)")


def _name(table: Mapping[str, int], value: int, what: str) -> str:
    for text, number in table.items():
        if number == value:
            return text
    raise ValueError(f"montanas {what} is missing or unknown ({value})")


def _num(text: str) -> int:
    if not _NAT.fullmatch(text):
        raise ValueError(f"{text!r} is not a number")
    return int(text)


def _need(msg: Message, field: str, what: str) -> int:
    """An id or seat that may be 0, so must be present, and may not be negative."""
    if not msg.HasField(field):
        raise ValueError(f"montanas {what} needs {field}")
    return _at_least(getattr(msg, field), 0, f"{what}.{field}")


def _at_least(value: int, low: int, what: str) -> int:
    if value < low:
        raise ValueError(f"montanas {what} must be at least {low}, not {value}")
    return value


# ----- targets ("m3", "long", "front2", or "" for the move-explorers card) ------------------
def _target_to_proto(text: str) -> pb.Target:
    if text in _BAND:
        return pb.Target(band=_BAND[text])
    if text[:1] == "m":
        return pb.Target(monster_id=_num(text[1:]))
    spot = _SPOT.fullmatch(text)
    if spot is None:
        raise ValueError(f"{text!r} is not a montanas target")
    return pb.Target(barricade=pb.Target.BarricadeSpot(facing=_FACING[spot[1]],
                                                        section=int(spot[2])))


def _target_text(t: pb.Target) -> str:
    case = t.WhichOneof("kind")
    if case == "monster_id":
        return f"m{_at_least(t.monster_id, 0, 'target monster_id')}"
    if case == "band":
        return _name(_BAND, t.band, "target band")
    if case == "barricade":
        return _spot_text(t.barricade, "target barricade")
    raise ValueError("montanas target is empty (leave it unset for the move-explorers card)")


def _spot_text(spot: Any, what: str) -> str:
    facing = _name(_FACING, spot.facing, f"{what} facing")
    return f"{facing}{_at_least(spot.section, 1, f'{what} section')}"


def _card_play(verb: str, msg: Any, *ids: str) -> str:
    """`<verb>:<id>...[:<target>]`: play and arsenal ids (the target is absent for the
    move-explorers card)."""
    parts = [verb] + [str(_need(msg, name, verb)) for name in ids]
    if msg.HasField("target"):
        parts.append(_target_text(msg.target))
    return ":".join(parts)


# ----- actions ------------------------------------------------------------------------------
def _parse_discard(rest: str) -> pb.Action:
    ids = [] if rest == "keep" else [_num(x) for x in rest.split(",")]
    return pb.Action(discard=pb.Action.Discard(card_ids=ids))


def _parse_barricade(rest: str) -> pb.Action:
    spot = _target_to_proto(rest).barricade
    if not spot.section:
        raise ValueError(f"{rest!r} is not a barricade spot")
    return pb.Action(place_barricade=pb.Action.PlaceBarricade(facing=spot.facing,
                                                              section=spot.section))


def _parse_card(rest: str, *ids: str) -> dict[str, Any]:
    """`<id>:...[:<target>]` -> the card id fields named in `ids`, and the target if any."""
    parts = rest.split(":", len(ids))
    if len(parts) < len(ids):
        raise ValueError("missing card id")
    out: dict[str, Any] = {name: _num(p) for name, p in zip(ids, parts, strict=False)}
    if len(parts) > len(ids):
        out["target"] = _target_to_proto(parts[-1])
    return out


def _parse_proposal(kind: str, names: tuple[str, ...]) -> Callable[[str], pb.Action]:
    def parse(rest: str) -> pb.Action:
        values = [_num(x) for x in rest.split(":")]
        if len(values) != len(names):
            raise ValueError(f"{kind} takes {len(names)} numbers")
        fields = dict(zip(names, values, strict=True))
        return pb.Action(propose_exchange=pb.Action.ProposeExchange(kind=_EXCHANGE[kind],
                                                                    **fields))
    return parse


def _parse_move(rest: str) -> pb.Action:
    if rest == "done":
        return pb.Action(stop_moving=pb.Action.StopMoving())
    seat, a, b = (_num(x) for x in rest.split(":"))
    return pb.Action(move_explorer=pb.Action.MoveExplorer(seat=seat, from_section=a, to_section=b))


def _parse_reply(rest: str) -> bool:
    if rest not in ("accept", "refuse"):
        raise ValueError("a reply is 'accept' or 'refuse'")
    return rest == "accept"


def _fixed(word: str, **case: Any) -> Callable[[str], pb.Action]:
    def parse(rest: str) -> pb.Action:
        if rest != word:
            raise ValueError(f"expected {word!r}")
        return pb.Action(**case)
    return parse


_PARSERS: dict[str, Callable[[str], pb.Action]] = {
    "deploy": lambda rest: pb.Action(deploy=pb.Action.Deploy(section=_num(rest))),
    "barricade": _parse_barricade,
    "discard": _parse_discard,
    "exchange": _fixed("done", finish_exchange=pb.Action.FinishExchange()),
    "give": _parse_proposal("give", ("give_card_id", "partner_seat")),
    "ask": _parse_proposal("ask", ("take_card_id", "partner_seat")),
    "swap": _parse_proposal("swap", ("give_card_id", "partner_seat", "take_card_id")),
    "reply": lambda rest: pb.Action(reply_exchange=pb.Action.ReplyExchange(
        accept=_parse_reply(rest))),
    "play": lambda rest: pb.Action(play_card=pb.Action.PlayCard(**_parse_card(rest, "card_id"))),
    "arsenal": lambda rest: pb.Action(search_arsenal=pb.Action.SearchArsenal(
        **_parse_card(rest, "arsenal_card_id", "fetched_card_id"))),
    "move": _parse_move,
    "end": _fixed("", end_play=pb.Action.EndPlay()),
}

# Which ids each proposal kind carries, in the order its action id writes them.
_PROPOSAL_IDS = {
    pb.EXCHANGE_KIND_GIVE: ("give_card_id", "partner_seat"),
    pb.EXCHANGE_KIND_ASK: ("take_card_id", "partner_seat"),
    pb.EXCHANGE_KIND_SWAP: ("give_card_id", "partner_seat", "take_card_id"),
}


def _format_proposal(m: Any) -> str:
    kind = _name(_EXCHANGE, m.kind, "exchange kind")
    names = _PROPOSAL_IDS[m.kind]
    for extra in {"give_card_id", "take_card_id"} - set(names):
        if m.HasField(extra):
            raise ValueError(f"montanas {kind} exchange takes no {extra}")
    return ":".join([kind] + [str(_need(m, n, f"{kind} exchange")) for n in names])


def _format_discard(m: pb.Action.Discard) -> str:
    if not m.card_ids:
        return "discard:keep"
    return "discard:" + ",".join(str(_at_least(c, 0, "discard card id")) for c in m.card_ids)


def _format_move(m: pb.Action.MoveExplorer) -> str:
    a = _at_least(m.from_section, 1, "move from_section")
    b = _at_least(m.to_section, 1, "move to_section")
    return f"move:{_need(m, 'seat', 'move_explorer')}:{a}:{b}"


_FORMATTERS: dict[str, Callable[[Any], str]] = {
    "deploy": lambda m: f"deploy:{_at_least(m.section, 1, 'deploy section')}",
    "place_barricade": lambda m: "barricade:" + _spot_text(m, "barricade"),
    "discard": _format_discard,
    "propose_exchange": _format_proposal,
    "finish_exchange": lambda m: "exchange:done",
    "reply_exchange": lambda m: "reply:accept" if m.accept else "reply:refuse",
    "play_card": lambda m: _card_play("play", m, "card_id"),
    "search_arsenal": lambda m: _card_play("arsenal", m, "arsenal_card_id", "fetched_card_id"),
    "move_explorer": _format_move,
    "stop_moving": lambda m: "move:done",
    "end_play": lambda m: "end",
}


def action_to_proto(action_id: str) -> pb.Action:
    """The typed form of an engine action id; ValueError if it is not one."""
    if not isinstance(action_id, str):
        raise ValueError(f"a montanas action id is a string, not {action_id!r}")
    verb, _, rest = action_id.partition(":")
    parse = _PARSERS.get(verb)
    if parse is None:
        raise ValueError(f"unknown montanas action {action_id!r}")
    try:
        msg = parse(rest)
        canonical = action_from_proto(msg)
    except (ValueError, KeyError) as exc:
        raise ValueError(f"malformed montanas action {action_id!r}: {exc}") from exc
    if canonical != action_id:
        raise ValueError(f"malformed montanas action {action_id!r} (did you mean {canonical!r}?)")
    return msg


def action_from_proto(msg: pb.Action) -> str:
    """The engine action id of a typed action; ValueError if the message is empty or invalid."""
    case = msg.WhichOneof("kind")
    if case is None:
        raise ValueError("montanas action message is empty: set one case of its oneof `kind`")
    return _FORMATTERS[case](getattr(msg, case))


# ----- events and views: one descriptor-driven walker -----------------------------------------
Filler = Callable[[Any, Any], None]


def _fill_target(msg: Any, text: str) -> None:
    if text:  # "" is the move-explorers card: no target
        msg.target.CopyFrom(_target_to_proto(text))


def _fill_action(msg: Any, action_id: str) -> None:
    msg.action_id = action_id
    msg.action.CopyFrom(action_to_proto(action_id))


def _fill_left(msg: Any, left: Any) -> None:
    if isinstance(left, list):  # deploy: explorers left per seat
        msg.explorers_left.extend(left)
    else:  # barricade: barricades left
        msg.barricades_left = left


def _fill_proposal(msg: Any, proposal: list[Any]) -> None:
    kind, give, take = proposal
    _fill(msg.proposal, {"kind": kind, "give": give, "take": take})


def _fill_nested(field: str, inner: str) -> Filler:
    """A list of lists -> a repeated message whose `inner` field holds each inner list."""
    def fill(msg: Any, rows: list[Any]) -> None:
        for row in rows:
            _fill(getattr(msg, field).add(), {inner: row})
    return fill


def _skip(msg: Any, value: Any) -> None:
    """A key the message does not carry (the view's constant "game")."""


# Per message name: data key -> field name (a dotted path into a sub-message) or a filler.
_RENAMES: dict[str, Mapping[str, str | Filler]] = {
    "ActionTaken": {"action": _fill_action},
    "MonsterEnters": {"monster": "monster_id"},
    "MonsterDamaged": {"monster": "monster_id"},
    "MonsterKilled": {"monster": "monster_id"},
    "MonsterMoved": {"monster": "monster_id", "alley": "in_alley.alley",
                     "square": "in_alley.square"},
    "MonsterInShip": {"monster": "monster_id"},
    "DirectionDrawn": {"monster": "monster_id"},
    "CardLost": {"card": "card_id"},
    "CardsDiscarded": {"cards": "card_ids"},
    "ExchangeProposed": {"partner": "partner_seat", "give": "give_card_id",
                         "take": "take_card_id"},
    "ExchangeAnswered": {"partner": "partner_seat"},
    "CardPlayed": {"card": "card_id", "fetched": "fetched_card_id", "target": _fill_target},
    "ExplorerMoved": {"from": "from_section", "to": "to_section"},
    "CardDrawn": {"card": "card_id"},
    "DeckReshuffled": {"cards": "card_count"},
    "View": {"game": _skip, "teams": _fill_nested("teams", "teams"),
             "hands": _fill_nested("hands", "cards")},
    "Card": {"id": "card_id"},
    "Monster": {"id": "monster_id"},
    "Pending": {"left": _fill_left, "partner": "partner_seat", "proposal": _fill_proposal},
    "Proposal": {"give": "give_card_id", "take": "take_card_id"},
}


def _enum_value(enum: EnumDescriptor, text: Any) -> int:
    """"head_to_head" -> CARD_KIND_HEAD_TO_HEAD: the value named by the enum's prefix."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper()
    value = enum.values_by_name.get(f"{prefix}_{text.upper()}") if isinstance(text, str) else None
    if value is None or value.number == 0:
        raise ValueError(f"{text!r} is not a montanas {enum.name}")
    return value.number


def _scalar(field: FieldDescriptor, value: Any) -> Any:
    return value if field.enum_type is None else _enum_value(field.enum_type, value)


def _key(field: FieldDescriptor, key: str) -> Any:
    """JSON object keys are text; an int map key (roll_off's seats) is parsed back."""
    return _num(key) if field.type == FieldDescriptor.TYPE_INT32 else key


def _set(msg: Any, name: str, value: Any) -> None:
    field = msg.DESCRIPTOR.fields_by_name.get(name)
    if field is None:
        raise ValueError(f"montanas {msg.DESCRIPTOR.name} has no field for {name!r}")
    entry = field.message_type
    if entry is not None and entry.GetOptions().map_entry:
        key, val = entry.fields_by_name["key"], entry.fields_by_name["value"]
        getattr(msg, name).update({_key(key, k): _scalar(val, v) for k, v in value.items()})
    elif field.is_repeated:
        container = getattr(msg, name)
        for item in value:
            if entry is None:
                container.append(_scalar(field, item))
            else:
                _fill(container.add(), item)
    elif entry is not None:
        _fill(getattr(msg, name), value)
    else:
        setattr(msg, name, _scalar(field, value))


def _fill(msg: Any, data: Mapping[str, Any]) -> Any:
    """Copy `data` into `msg`, key by key; None leaves a field unset. Returns `msg`."""
    if not isinstance(data, Mapping):
        raise ValueError(f"montanas {msg.DESCRIPTOR.name} wants a mapping, not {data!r}")
    msg.SetInParent()
    renames = _RENAMES.get(msg.DESCRIPTOR.name, {})
    for key, value in data.items():
        path = renames.get(key, key)
        if value is None:
            continue
        if callable(path):
            path(msg, value)
            continue
        *parents, name = path.split(".")
        target = msg
        for parent in parents:
            target = getattr(target, parent)
        _set(target, name, value)
    return msg


EVENT_KINDS = frozenset(f.name for f in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields)
"""Every event kind the typed Event carries: the names of its oneof's cases."""


def _converted(msg: Any, fill: Callable[[], object], what: str) -> Any:
    """Run `fill`; any misfit (unknown key, bad word, wrong type) is a ValueError naming `what`."""
    try:
        fill()
    except (TypeError, AttributeError, ValueError) as exc:
        raise ValueError(f"montanas {what} does not fit its message: {exc}") from exc
    return msg


def event_to_proto(kind: str, data: Mapping[str, Any]) -> pb.Event:
    """The typed form of an engine event; ValueError for an unknown kind or data key."""
    if kind not in EVENT_KINDS:
        raise ValueError(f"unknown montanas event kind {kind!r}")
    event = pb.Event()
    out: pb.Event = _converted(event, lambda: _fill(getattr(event, kind), data), f"event {kind}")
    return out


def view_to_proto(view: Mapping[str, Any]) -> pb.View:
    """The typed form of `Montanas.view()`; ValueError for a key the message does not carry."""
    msg = pb.View()
    out: pb.View = _converted(msg, lambda: _fill(msg, view), "view")
    return out


class MontanasAdapter:
    """Converts between the engine's Las Montañas data and partida.games.montanas.v1."""

    game_id = "montanas"

    def action_to_proto(self, action_id: str) -> pb.Action:
        return action_to_proto(action_id)

    def action_from_proto(self, msg: pb.Action) -> str:
        return action_from_proto(msg)

    def event_to_proto(self, kind: str, data: Mapping[str, Any]) -> pb.Event:
        return event_to_proto(kind, data)

    def view_to_proto(self, view: Mapping[str, Any]) -> pb.View:
        return view_to_proto(view)


ADAPTER = MontanasAdapter()
