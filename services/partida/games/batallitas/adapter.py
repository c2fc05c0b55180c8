"""Typed protobuf forms of Batallitas actions, events and views (partida.games.batallitas.v1).

Action ids are `verb[:arg...]` strings (RULES.md, "Where the code stands"); each verb maps to
one case of `Action.kind`, its arguments to the case's fields in order. Every name is checked
against the content: noses must be ids a squad of some scenario can have, weapons and cards
must be in the arsenal and the decks, cells must lie on some scenario's map, doors must exist
on one. Events and views are copied key by key into the message of the same shape, guided by
the descriptors: a key goes to the field of its name unless `_KEYS` renames it, `[x, y]`
lists become `Cell`s, enum fields take the engine's words; an unknown event kind or a key
with no field is a ValueError, so new engine data fails loudly instead of vanishing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from partida.games.batallitas.content import load
from partida.games.batallitas.v1 import batallitas_pb2 as pb
from partida.games.typed_copy import EnumWords, Filler, TypedAdapter, chosen, refusal

_NUMBER = re.compile(r"0|[1-9][0-9]*")
# ¡¡Envíen Refuerzos!! adds two noses to a squad, numbered after its own.
_REINFORCEMENTS = 2
_NOSE = re.compile(r"s(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")


@cache
def _limits() -> dict[str, Any]:
    """What the content can name: ids, and the largest squad count, squad, map and door set of
    any scenario (scenario 6's players place its boards: it may stretch that many boards)."""
    c = load()
    side = max(max(b.width, b.height) for b in c.boards.values())
    extent, squads, doors = 0, 0, sum(len(b.doors) for b in c.boards.values())
    for sc in c.scenarios:
        cols = 1 + max((p.col for p in sc.boards), default=0)
        rows = 1 + max((p.row for p in sc.boards), default=0)
        placed = sc.placement.boards if sc.placement else max(cols, rows)
        extent = max(extent, placed * side)
        squads = max(squads, sum(f.count for f in sc.forces))
    return {"extent": extent, "squads": squads, "doors": doors,
            "leaves": max((len(d.edges) for b in c.boards.values() for d in b.doors), default=0),
            "size": max(sq.size for sq in c.squads.values()) + _REINFORCEMENTS,
            "weapon": frozenset(w.id for w in c.arsenal.weapons),
            "card": frozenset(e.id for e in c.events.cards),
            "nose_type": frozenset(n.id for sq in c.squads.values() for n in sq.noses),
            "grenades": max(n.grenades for sq in c.squads.values() for n in sq.noses)}


def _refuse(what: str, text: object) -> ValueError:
    return refusal("batallitas", what, text)


def _index(what: str, limit: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not _NUMBER.fullmatch(text) or int(text) >= _limits()[limit]:
            raise _refuse(what, text)
        return int(text)
    return parse


def _name(what: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in _limits()[what]:
            raise _refuse(what.replace("_", " "), text)
        return text
    return parse


def _nose(text: str) -> str:
    m = _NOSE.fullmatch(text)
    if m is None or int(m[1]) >= _limits()["squads"] or int(m[2]) >= _limits()["size"]:
        raise _refuse("nose", text)
    return text


def _fragmentation(text: str) -> int:
    if not _NUMBER.fullmatch(text) or int(text) > _limits()["grenades"]:
        raise _refuse("grenade count", text)
    return int(text)


def _cell(text: str) -> tuple[int, int]:
    x, _, y = text.partition(",")
    if not (_NUMBER.fullmatch(x) and _NUMBER.fullmatch(y)) \
            or max(int(x), int(y)) >= _limits()["extent"]:
        raise _refuse("cell", text)
    return int(x), int(y)


# Facing's and Direction's engine words are capitals ("NE"); every other enum's are lower case.
_WORDS = EnumWords("batallitas", upper=("Facing", "Direction"))


# ----- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Arg:
    """One argument of an action id: the typed field it fills and how it reads."""

    field: str
    parse: Callable[[str], Any] | None = None  # None: an enum field, read by its words
    cell: bool = False


def _cell_arg(name: str) -> _Arg:
    return _Arg(name, _cell, cell=True)


_N, _W, _C = _Arg("nose", _nose), _Arg("weapon", _name("weapon")), _cell_arg("cell")
_SQ = _Arg("squad", _index("squad", "squads"))
_DOOR = _Arg("door", _index("door", "doors"))
_LEAF = _Arg("leaf", _index("door leaf", "leaves"))  # optional, after a door

# verb -> (case of Action.kind, its fields in the order of the id's arguments)
_VERBS: dict[str, tuple[str, tuple[_Arg, ...]]] = {
    "leader_type": ("choose_leader_type", (_SQ, _Arg("nose_type", _name("nose_type")))),
    "leader": ("choose_leader", (_N,)),
    "atrophy": ("atrophy", (_N, _Arg("attribute"))),
    "grenades": ("split_grenades", (_N, _Arg("fragmentation", _fragmentation))),
    "deploy": ("deploy", (_N, _C, _Arg("facing"))),
    "activate": ("activate", (_SQ,)),
    "act": ("act", (_N,)),
    "end_squad": ("end_squad", ()),
    "done": ("done", ()),
    "enter": ("enter", (_Arg("edge"), _C)),
    "move": ("move", (_C,)),
    "turn": ("turn", (_Arg("facing"),)),
    "open": ("open_door", (_DOOR,)),
    "close": ("close_door", (_DOOR,)),
    "open_flap": ("open_flap", (_C,)),
    "close_flap": ("close_flap", (_C,)),
    "fire": ("fire", (_W, _C)),
    "shot": ("burst_shot", (_C,)),
    "stop": ("stop_burst", ()),
    "attack": ("attack", (_W, _C)),
    "sweep": ("sweep", (_W, _cell_arg("start"), _Arg("way"))),
    "unjam": ("unjam", (_W,)),
    "reload": ("reload", (_W,)),
    "rally": ("rally", ()),
    "take": ("take_product", (_Arg("product"),)),
    "trolley": ("trolley", (_Arg("move"),)),
    "leave": ("leave_board", (_Arg("edge"),)),
    "hold": ("hold_fire", ()),
    "stay": ("stay", ()),
    "face": ("turn_round", ()),
    "scatter": ("scatter", (_Arg("direction"),)),
    "pass": ("pass", ()),
    "keep": ("keep_roll", ()),
    "reroll": ("reroll", (_Arg("card", _name("card")),)),
    "draw": ("draw", ()),
    "strategy": ("strategy", (_SQ,)),
    "hide": ("hide_marker", (_C,)),
    "carrier": ("choose_carrier", (_N,)),
    "arm": ("arm", ()),
    "passage": ("cross_passage", ()),
    "search": ("search", ()),
}
# "alert" is two actions: going on alert (no argument) and an alert shot (nose and weapon).
_ALERT_SHOT = (_N, _W)
_SHOT = (_N, _W, _C)  # ¡¡Fuego al máximo!!'s first shot
_TURNCOAT = (_N, _SQ)  # Traidor ajuqueroso's nose and the squad it joins
# Scenario 5's slider and videogame: verb -> move word -> the arguments after it.
_MOVES: dict[str, dict[str, tuple[_Arg, ...]]] = {
    "slider": {"in": (), "out": (_C,), "garage": (), "drive": ()},
    "videogame": {"take": (), "drop": (), "pass": (_N,)},
}
_CASES = {case: (verb, args) for verb, (case, args) in _VERBS.items()}
_CASES.update(go_on_alert=("alert", ()), alert_shot=("alert", _ALERT_SHOT))

VERBS = frozenset({*_VERBS, *_MOVES, "alert", "play", "pick", "board"})
"""Every action verb the typed Action carries."""


def _fill(msg: Any, args: tuple[_Arg, ...], texts: list[str]) -> None:
    for arg, text in zip(args, texts, strict=True):
        if arg.cell:
            x, y = _cell(text)
            getattr(msg, arg.field).x, getattr(msg, arg.field).y = x, y
        elif arg.parse is None:
            enum = msg.DESCRIPTOR.fields_by_name[arg.field].enum_type
            setattr(msg, arg.field, _WORDS.number(enum, text))
        else:
            setattr(msg, arg.field, arg.parse(text))


def _parse(action_id: str) -> pb.Action:
    verb, _, rest = action_id.partition(":")
    texts = rest.split(":") if rest else []
    args: tuple[_Arg, ...]
    if verb == "alert":
        case, args = ("alert_shot", _ALERT_SHOT) if texts else ("go_on_alert", ())
    elif verb == "play" and texts:
        return pb.Action(play_card=_play(texts))
    elif verb == "board" and len(texts) == 2:
        col, _, row = texts[1].partition(",")
        return pb.Action(place_board=pb.Action.PlaceBoard(
            board=_board(texts[0]), col=_spot(col), row=_spot(row)))
    elif verb in _MOVES and texts:
        return _moved(verb, texts)
    elif verb == "pick" and len(texts) == 1:
        return pb.Action(pick=_pick(texts[0]))
    elif verb in _VERBS:
        case, args = _VERBS[verb]
    else:
        raise ValueError(f"unknown verb {verb!r}")
    if case in ("open_door", "close_door") and len(texts) == 2:
        args = (_DOOR, _LEAF)
    if len(texts) != len(args):
        raise ValueError(f"{verb} takes {len(args)} argument(s)")
    msg = pb.Action()
    getattr(msg, case).SetInParent()
    _fill(getattr(msg, case), args, texts)
    return msg


def _play(texts: list[str]) -> pb.Action.PlayCard:
    msg = pb.Action.PlayCard(card=_name("card")(texts[0]))
    target = texts[1:]
    if len(target) == 3:
        _fill(msg.shot, _SHOT, target)
    elif len(target) == 2 and target[1] == "new":  # no Fanhunter squad in play: its own
        _fill(msg.turncoat, _TURNCOAT[:1], target[:1])
        msg.turncoat.new_squad = True
    elif len(target) == 2:
        _fill(msg.turncoat, _TURNCOAT, target)
    elif len(target) == 1 and "," in target[0]:
        _fill(msg, (_C,), target)
    elif len(target) == 1:
        _fill(msg, (_SQ if target[0][:1].isdigit() else _N,), target)
    elif target:
        raise ValueError("a card takes a nose, a squad, a cell, a shot or a turncoat")
    return msg


def _board(text: str) -> int:
    if text not in {str(n) for n in load().boards}:
        raise _refuse("board", text)
    return int(text)


def _spot(text: str) -> int:
    """A board's column or row on scenario 6's map, counted from the first board placed: one
    side or the other of it, by fewer boards than there are."""
    digits = text[1:] if text.startswith("-") else text
    if not _NUMBER.fullmatch(digits) or text == "-0" or abs(int(text)) >= len(load().boards):
        raise _refuse("board spot", text)
    return int(text)


def _moved(verb: str, texts: list[str]) -> pb.Action:
    extras = _MOVES[verb]
    if texts[0] not in extras or len(texts) - 1 != len(extras[texts[0]]):
        raise ValueError(f"{verb} takes one of {sorted(extras)} and its arguments")
    msg = pb.Action()
    _fill(getattr(msg, verb), (_Arg("move"), *extras[texts[0]]), texts)
    return msg


def _pick(text: str) -> pb.Action.Pick:
    """A pick names an edge, a nose or a cell; the three never look alike."""
    if text in ("north", "east", "south", "west"):
        return pb.Action.Pick(edge=_WORDS.number(pb.Edge.DESCRIPTOR, text))  # type: ignore[arg-type]
    if text.startswith("s"):
        return pb.Action.Pick(nose=_nose(text))
    x, y = _cell(text)
    return pb.Action.Pick(cell=pb.Cell(x=x, y=y))


def _set(m: Any, name: str) -> bool:
    return m.HasField(name) if name == "cell" else bool(getattr(m, name))


def _text(m: Any, arg: _Arg) -> str:
    if arg.cell:
        if not m.HasField(arg.field):
            raise ValueError(f"batallitas {m.DESCRIPTOR.name}.{arg.field} is not set")
        cell = getattr(m, arg.field)
        text = f"{cell.x},{cell.y}"
        _cell(text)
        return text
    value = getattr(m, arg.field)
    if arg.parse is None:
        enum = m.DESCRIPTOR.fields_by_name[arg.field].enum_type
        return _WORDS.word(enum, value, f"{m.DESCRIPTOR.name}.{arg.field}")
    text = str(value)
    arg.parse(text)
    return text


def _format(msg: pb.Action) -> str:
    case, m = chosen(msg, "batallitas")
    if case == "play_card":
        target = m.WhichOneof("target")
        texts = [_name("card")(m.card)]
        if target == "shot":
            texts += [_text(m.shot, a) for a in _SHOT]
        elif target == "turncoat" and m.turncoat.new_squad:
            texts += [_text(m.turncoat, _TURNCOAT[0]), "new"]
        elif target == "turncoat":
            texts += [_text(m.turncoat, a) for a in _TURNCOAT]
        elif target is not None:
            texts.append(_text(m, {"squad": _SQ, "nose": _N, "cell": _C}[target]))
        return "play:" + ":".join(texts)
    if case == "place_board":
        return f"board:{_board(str(m.board))}:{_spot(str(m.col))},{_spot(str(m.row))}"
    if case in _MOVES:
        move = _text(m, _Arg("move"))
        extras = _MOVES[case][move]
        stray = [f for f in ("cell", "nose") if f in m.DESCRIPTOR.fields_by_name
                 and f not in {a.field for a in extras} and _set(m, f)]
        if stray:
            raise ValueError(f"batallitas {case} {move} takes no {stray[0]}")
        return ":".join([case, move, *(_text(m, a) for a in extras)])
    if case == "pick":
        choice = m.WhichOneof("choice")
        if choice is None:
            raise ValueError("batallitas pick needs edge, nose or cell")
        arg = _cell_arg("cell") if choice == "cell" else _Arg(choice, _nose if choice == "nose"
                                                               else None)
        return f"pick:{_text(m, arg)}"
    verb, args = _CASES[case]
    if case in ("open_door", "close_door") and m.HasField("leaf"):
        args = (_DOOR, _LEAF)
    return ":".join([verb, *(_text(m, a) for a in args)])


# ----- events and views -----------------------------------------------------------------------
def _prompt_card(msg: Any, value: Any) -> None:
    """A pick prompt names its card; a scatter prompt says only that a card raised it."""
    if isinstance(value, bool):
        msg.by_card = value
    else:
        msg.card = value


def _leaves(msg: Any, value: Any) -> None:
    """Open leaves come as [door, leaf] pairs."""
    for door, leaf in value:
        msg.open_leaves.add(door=door, leaf=leaf)


def _boards(msg: Any, value: Any) -> None:
    """Placed boards come as [board, col, row] triples."""
    for board, col, row in value:
        msg.boards.add(board=board, col=col, row=row)


# (message name, data key) -> field name, or a function filling the message from the value.
_KEYS: dict[tuple[str, str], str | Filler] = {
    ("ActionTaken", "action"): lambda msg, v: ADAPTER.fill_action(msg, v),
    ("Moved", "from"): "from_cell", ("Moved", "to"): "to_cell",
    ("LeaderChosen", "type"): "nose_type",
    ("Prompt", "from"): "from_cell", ("Prompt", "card"): _prompt_card,
    ("View", "open_leaves"): _leaves, ("View", "boards"): _boards,
    ("BoardPlaced", "boards"): _boards,
}


def _set_cell(cell: Any, value: Any) -> None:
    if not (isinstance(value, list | tuple) and len(value) == 2
            and all(type(v) is int for v in value)):
        raise ValueError(f"{value!r} is not a cell")
    cell.x, cell.y = value


ADAPTER: TypedAdapter = TypedAdapter("batallitas", pb, _parse, _format, _WORDS, _KEYS,
                                     {"Cell": _set_cell})
"""Converts between the engine's Batallitas data and partida.games.batallitas.v1."""
action_to_proto, action_from_proto = ADAPTER.action_to_proto, ADAPTER.action_from_proto
event_to_proto, view_to_proto = ADAPTER.event_to_proto, ADAPTER.view_to_proto
EVENT_KINDS = ADAPTER.event_kinds
"""Every event kind the typed Event carries: the names of its oneof's cases."""
