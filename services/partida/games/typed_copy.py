"""The machinery the game adapters share: engine data (plain dicts, enum words) copied into a
game's typed protobuf messages, and the checks around its action ids.

An adapter module keeps only what is its own: how its action ids read (`parse`) and are written
back (`write`), the names its content allows, and the few data keys whose shape is not the
message's (`keys`, `shapes`). Everything else goes by the descriptors: a data key fills the
field of its name, enum fields take the engine's words, and a key with no field is an error, so
new engine data fails loudly instead of vanishing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor

Filler = Callable[[Any, Any], None]
"""Fills a message from one engine value: (message, value) -> None."""


def refusal(game: str, what: str, text: object) -> ValueError:
    """The error for a value that is not a `what` of `game`."""
    return ValueError(f"{text!r} is not a {game} {what}")


def chosen(action: Any, game: str) -> tuple[str, Any]:
    """The case an Action message sets in its oneof `kind`, and that case's message;
    ValueError for an empty Action."""
    case = action.WhichOneof("kind")
    if case is None:
        raise ValueError(f"{game} action message is empty: set one case of its oneof `kind`")
    return case, getattr(action, case)


def ignore(msg: Any, value: Any) -> None:
    """A filler for a key the message does not carry on purpose (a view's constant "game")."""


def enum_prefix(enum: EnumDescriptor) -> str:
    """JokerKind -> "JOKER_KIND_": the prefix of every value of the enum."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"


class EnumWords:
    """A game's enum values as the engine writes them: the value's name after the enum prefix,
    lower case, or as it stands (capitals) for the enums named in `upper`."""

    def __init__(self, game: str, upper: Collection[str] = ()) -> None:
        self.game, self.upper = game, frozenset(upper)

    def word(self, enum: EnumDescriptor, number: int, what: str) -> str:
        """JOKER_RAPID_LOADING -> "rapid_loading"; ValueError for UNSPECIFIED or an unknown
        number, naming `what`."""
        value = enum.values_by_number.get(number)
        if value is None or number == 0:
            raise ValueError(f"{self.game} {what} is missing or unknown ({number})")
        word = value.name[len(enum_prefix(enum)):]
        return str(word if enum.name in self.upper else word.lower())

    def number(self, enum: EnumDescriptor, word: Any) -> int:
        """The number of the engine's word; ValueError for anything else, a word in the wrong
        case included."""
        ok = isinstance(word, str) and word == (word.upper() if enum.name in self.upper
                                                else word.lower())
        value = enum.values_by_name.get(enum_prefix(enum) + word.upper()) if ok else None
        if value is None or value.number == 0:
            raise refusal(self.game, enum.name, word)
        return int(value.number)


class TypedAdapter:
    """Converts between one game's engine data and its typed messages (the `ADAPTER` that
    partida.rules.protos looks up).

    `pb` is the game's generated module (Action, Event, View); `parse` reads an action id into
    an Action and `write` writes one back, both raising ValueError for what they refuse.
    `keys` maps (message name, data key) to the field the key fills when the names differ, or
    to a Filler for a value whose shape is not the message's; `shapes` maps a message type's
    name to a Filler for values standing for it everywhere (`[x, y]` for a cell, say).
    """

    def __init__(self, game_id: str, pb: Any, parse: Callable[[str], Any],
                 write: Callable[[Any], str], words: EnumWords,
                 keys: Mapping[tuple[str, str], str | Filler] | None = None,
                 shapes: Mapping[str, Filler] | None = None) -> None:
        self.game_id, self._pb, self._parse, self._write = game_id, pb, parse, write
        self._words, self._keys, self._shapes = words, dict(keys or {}), dict(shapes or {})
        self.event_kinds = frozenset(
            f.name for f in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields)

    # ----- actions -----------------------------------------------------------------------------
    def action_to_proto(self, action_id: str) -> Any:
        """The typed form of an engine action id; ValueError if it is not one (written back,
        it must give the same id, so no two ids share a message)."""
        game = self.game_id
        if not isinstance(action_id, str):
            raise ValueError(f"a {game} action id is a string, not {action_id!r}")
        try:
            msg = self._parse(action_id)
            canonical = self._write(msg)
        except ValueError as exc:
            raise ValueError(f"malformed {game} action {action_id!r}: {exc}") from exc
        if canonical != action_id:
            raise ValueError(f"malformed {game} action {action_id!r} "
                             f"(did you mean {canonical!r}?)")
        return msg

    def action_from_proto(self, msg: Any) -> str:
        """The engine action id of a typed action; ValueError if the message is empty or names
        something the content does not have."""
        return self._write(msg)

    def fill_action(self, msg: Any, action_id: str) -> None:
        """A Filler for an "action" event's id: the id and its typed form side by side."""
        msg.action_id = action_id
        msg.action.CopyFrom(self.action_to_proto(action_id))

    # ----- events and views --------------------------------------------------------------------
    def event_to_proto(self, kind: str, data: Mapping[str, Any]) -> Any:
        """The typed form of an engine event; ValueError for an unknown kind or data key."""
        if kind not in self.event_kinds:
            raise ValueError(f"unknown {self.game_id} event kind {kind!r}")
        event = self._pb.Event()
        self._fitted(getattr(event, kind), data, f"event {kind}")
        return event

    def view_to_proto(self, view: Mapping[str, Any]) -> Any:
        """The typed form of the engine's view; ValueError for a key the message does not
        carry."""
        return self._fitted(self._pb.View(), view, "view")

    def _fitted(self, msg: Any, data: Any, what: str) -> Any:
        try:
            return self.copy(msg, data)
        except (TypeError, AttributeError, ValueError) as exc:
            raise ValueError(f"{self.game_id} {what} does not fit its message: {exc}") from exc

    def copy(self, msg: Any, data: Mapping[str, Any]) -> Any:
        """Copy `data` into `msg` key by key (None leaves a field unset); returns `msg`."""
        name = msg.DESCRIPTOR.name
        if not isinstance(data, Mapping):
            raise ValueError(f"{self.game_id} {name} wants a mapping, not {data!r}")
        msg.SetInParent()
        for key, value in data.items():
            target = self._keys.get((name, key), key)
            if value is None:
                continue
            if callable(target):
                target(msg, value)
                continue
            field = msg.DESCRIPTOR.fields_by_name.get(target)
            if field is None:
                raise ValueError(f"{self.game_id} {name} has no field for {key!r}")
            self._fill(msg, field, value)
        return msg

    def _fill(self, msg: Any, field: FieldDescriptor, value: Any) -> None:
        """Set one field from the engine's value."""
        name, sub = field.name, field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            self._fill_map(getattr(msg, name), sub, value)
        elif sub is not None:
            fill = self._shapes.get(sub.name, self.copy)
            if field.is_repeated:
                for item in value:
                    fill(getattr(msg, name).add(), item)
            else:
                fill(getattr(msg, name), value)
        elif field.is_repeated:
            getattr(msg, name).extend(self._scalar(field, v) for v in value)
        else:
            setattr(msg, name, self._scalar(field, value))

    def _fill_map(self, target: Any, entry: Descriptor, value: Mapping[Any, Any]) -> None:
        """JSON object keys are text: an integer map key (a seat) is read back as a number."""
        key, val = entry.fields_by_name["key"], entry.fields_by_name["value"]
        for k, v in value.items():
            k = int(k) if key.type != FieldDescriptor.TYPE_STRING else k
            if val.message_type is not None:
                self.copy(target[k], v)
            else:
                target[k] = v

    def _scalar(self, field: FieldDescriptor, value: Any) -> Any:
        return self._words.number(field.enum_type, value) if field.enum_type is not None \
            else value
