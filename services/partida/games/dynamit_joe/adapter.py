"""Typed protobuf forms of Dynamit Joe actions, events and views (partida.games.dynamit_joe.v1).

Action ids are `verb[:arg...]` strings (actions.py, rules.py); each verb maps to one case of
`Action.kind`, its arguments to the case's fields in order, and names are checked against the
content (zones, characters, locks) so a typed action naming nothing real is refused. Events and
views are copied key by key into the message of the same shape, guided by the descriptors: a
key goes to the field of its name unless `_KEYS` renames it, enum fields take the engine's
lower-case words, and a key with no field is an error, so new engine data cannot vanish.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from partida.games.dynamit_joe.content import load
from partida.games.dynamit_joe.v1 import dynamit_joe_pb2 as pb
from partida.games.typed_copy import EnumWords, Filler, TypedAdapter, chosen, ignore

_OBJECT = re.compile(r"o[1-9][0-9]*")
_WORDS = EnumWords("dynamit_joe")


@cache
def _names() -> dict[str, frozenset[str]]:
    content = load()
    return {"zone": frozenset(z.id for z in content.board.zones),
            "character": frozenset(c.name for c in content.characters.characters),
            "lock": frozenset(link.lock for link in content.board.links if link.lock)}


def _check(what: str) -> Callable[[str], str]:
    """A checker of one kind of name: returns the name, or raises ValueError naming it."""
    def check(text: str) -> str:
        ok = _OBJECT.fullmatch(text) if what == "object" else text in _names()[what]
        if not ok:
            raise ValueError(f"{text!r} is not a dynamit_joe {what}")
        return text
    return check


ZONE, CHAR, OBJ, LOCK = (_check(w) for w in ("zone", "character", "object", "lock"))

# verb -> (case of Action.kind, its fields in the order of the id's arguments)
_PLAIN: dict[str, tuple[str, tuple[tuple[str, Callable[[str], str]], ...]]] = {
    "move": ("move", (("zone", ZONE),)),
    "drag": ("drag", (("zone", ZONE),)),
    "leave": ("leave_board", ()),
    "shoot": ("shoot", (("gun_id", OBJ), ("target", CHAR))),
    "reload": ("reload", (("gun_id", OBJ),)),
    "unjam": ("clear_jam", (("object_id", OBJ),)),
    "lock": ("shoot_lock", (("gun_id", OBJ), ("lock", LOCK))),
    "dyn": ("throw_dynamite", (("object_id", OBJ), ("zone", ZONE))),
    "knife": ("throw_knife", (("object_id", OBJ), ("target", CHAR))),
    "stab": ("stab", (("target", CHAR),)),
    "free": ("free_captive", (("character", CHAR),)),
    "pick": ("pick_up", (("object_id", OBJ),)),
    "take": ("take", (("object_id", OBJ),)),
    "give": ("give", (("object_id", OBJ), ("friend", CHAR))),
    "drop": ("drop", (("object_id", OBJ),)),
    "drink": ("drink", (("object_id", OBJ),)),
    "ambush": ("lay_ambush", ()),
    "play": ("play_offered_joker", ()),
    "pass": ("decline", ()),
    "initiative": ("take_initiative", ()),
    "stay": ("stay_in_ambush", ()),
    "act": ("act_from_ambush", ()),
    "continue": ("carry_on", ()),
    "done": ("finish_buying", ()),
    "zone": ("choose_zone", (("zone", ZONE),)),
    "hand": ("hand_over", (("character", CHAR),)),
}
_VERB_OF = {case: verb for verb, (case, _) in _PLAIN.items()}

# Jokers played in the own turn and what they are played on (None: nothing).
_TURN_JOKERS: dict[str, str | None] = {
    "weaponsmith": "object_id", "rapid_loading": "object_id", "quick_pickup": "object_id",
    "mortal_fear": "character", "energy": None, "speed": None, "sharpshooter": None}
_ARG_CHECK = {"object_id": OBJ, "character": CHAR}

# Interrupt prefix -> (kind, the action cases it may carry): ambush 5.7, the two jokers.
_INTERRUPTS: dict[str, tuple[int, frozenset[str]]] = {
    "amb": (pb.INTERRUPT_KIND_AMBUSH, frozenset({
        "move", "shoot", "double_shot", "reload", "clear_jam", "shoot_lock", "throw_dynamite",
        "throw_knife", "stab", "free_captive", "pick_up", "take", "give", "drink"})),
    "inst": (pb.INTERRUPT_KIND_INSTINCTIVE_SHOT, frozenset({"shoot"})),
    "adr": (pb.INTERRUPT_KIND_ADRENALINE, frozenset({"move"})),
}


# ----- actions ---------------------------------------------------------------------------------
def _parse(action_id: str) -> pb.Action:
    verb, _, rest = action_id.partition(":")
    args = rest.split(":") if rest else []
    if verb in _INTERRUPTS:
        how, allowed = _INTERRUPTS[verb]
        inner = _parse(rest)
        if inner.WhichOneof("kind") not in allowed:
            raise ValueError(f"{rest!r} cannot be taken as this interrupt")
        return pb.Action(interrupt=pb.Action.Interrupt(how=how, action=inner))  # type: ignore[arg-type]
    if verb == "double" and len(args) == 2:
        weapon = {"both_colts": True} if args[0] == "colts" else {"shotgun_id": OBJ(args[0])}
        return pb.Action(double_shot=pb.Action.DoubleShot(target=CHAR(args[1]), **weapon))
    if verb == "joker" and args and args[0] in _TURN_JOKERS:
        arg = _TURN_JOKERS[args[0]]
        extra = {arg: _ARG_CHECK[arg](args[1])} if arg and len(args) == 2 else {}
        return pb.Action(play_joker_in_turn=pb.Action.PlayJokerInTurn(
            joker=_WORDS.number(pb.Joker.DESCRIPTOR, args[0]), **extra))  # type: ignore[arg-type]
    if verb == "buy" and len(args) == 2:
        kind = _WORDS.number(pb.ObjectKind.DESCRIPTOR, args[0])
        return pb.Action(buy=pb.Action.Buy(kind=kind, character=CHAR(args[1])))  # type: ignore[arg-type]
    if verb == "end" and args in ([], ["ambush"]):
        return pb.Action(end_turn=pb.Action.EndTurn(in_ambush=bool(args)))
    if verb not in _PLAIN:
        raise ValueError("unknown verb")
    case, fields = _PLAIN[verb]
    if len(args) != len(fields):
        raise ValueError(f"{verb} takes {len(fields)} argument(s)")
    msg = pb.Action()
    getattr(msg, case).SetInParent()
    for (name, check), arg in zip(fields, args, strict=True):
        setattr(getattr(msg, case), name, check(arg))
    return msg


def _format(msg: pb.Action, nested: bool = False) -> str:
    case, m = chosen(msg, "dynamit_joe")
    if case == "interrupt":
        prefix = next((p for p, (how, _) in _INTERRUPTS.items() if how == m.how), None)
        if prefix is None or nested:
            raise ValueError("dynamit_joe interrupt needs `how` set and an action that is not "
                             "itself an interrupt")
        inner = _format(m.action, nested=True)
        if m.action.WhichOneof("kind") not in _INTERRUPTS[prefix][1]:
            raise ValueError(f"dynamit_joe {_WORDS.word(pb.InterruptKind.DESCRIPTOR, m.how, 'how')}"
                             f" interrupt cannot carry {inner!r}")
        return f"{prefix}:{inner}"
    if case == "double_shot":
        weapon = m.WhichOneof("weapon")
        if weapon is None or (weapon == "both_colts" and not m.both_colts):
            raise ValueError("dynamit_joe double_shot needs shotgun_id or both_colts")
        gun = "colts" if weapon == "both_colts" else OBJ(m.shotgun_id)
        return f"double:{gun}:{CHAR(m.target)}"
    if case == "play_joker_in_turn":
        joker = _WORDS.word(pb.Joker.DESCRIPTOR, m.joker, "play_joker_in_turn.joker")
        if joker not in _TURN_JOKERS:
            raise ValueError(f"the {joker} joker is not played in its holder's turn")
        want, got = _TURN_JOKERS[joker], m.WhichOneof("on")
        if want != got:
            raise ValueError(f"the {joker} joker takes {want or 'no argument'}, not {got}")
        return f"joker:{joker}" + (f":{_ARG_CHECK[want](getattr(m, want))}" if want else "")
    if case == "end_turn":
        return "end:ambush" if m.in_ambush else "end"
    if case == "buy":
        kind = _WORDS.word(pb.ObjectKind.DESCRIPTOR, m.kind, "buy.kind")
        return f"buy:{kind}:{CHAR(m.character)}"
    verb = _VERB_OF[case]
    return ":".join([verb, *(check(getattr(m, name)) for name, check in _PLAIN[verb][1])])


# ----- events and views -----------------------------------------------------------------------
# (message name, data key) -> field name, or a function filling the message from the value.
_KEYS: dict[tuple[str, str], str | Filler] = {
    ("ActionTaken", "action"): lambda msg, v: ADAPTER.fill_action(msg, v),
    ("Moved", "from"): "from_zone", ("Moved", "to"): "to_zone",
    ("Dragged", "to"): "to_zone",
    ("Handed", "from"): "from_character", ("Handed", "to"): "to_character",
    ("Shot", "guns"): "gun_ids",
    ("Prompt", "char"): "character", ("Prompt", "object"): "object_id",
    ("Prompt", "to"): "to_seat",
    ("View", "game"): ignore,
    **{(m, "object"): "object_id" for m in ("ObjectOfCharacter", "Reloaded", "DynamiteThrown",
                                            "PickedUp", "Handed", "Fizzled", "Bought",
                                            "Placed")},
}


ADAPTER: TypedAdapter = TypedAdapter("dynamit_joe", pb, _parse, _format, _WORDS, _KEYS)
"""Converts between the engine's Dynamit Joe data and partida.games.dynamit_joe.v1."""
action_to_proto, action_from_proto = ADAPTER.action_to_proto, ADAPTER.action_from_proto
event_to_proto, view_to_proto = ADAPTER.event_to_proto, ADAPTER.view_to_proto
EVENT_KINDS = ADAPTER.event_kinds
"""Every event kind the typed Event carries: the names of its oneof's cases."""
