"""Checks every field of incoming protos and turns them into the store's dataclasses.

Each failure is an InvalidArgument naming the field, so a caller can fix its request; the
store is only reached with well-formed values.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from partida.engine import registry
from partida.engine.errors import UnknownGame
from partida.persistence import records
from partida.persistence.convert import CONTROLLERS, from_timestamp
from partida.platform.errors import InvalidArgument
from partida.platform.validation import identifier
from partida.v1 import common_pb2, persistence_pb2

MAX_NAME = 64
MAX_ACTION_ID = 256
MAX_REASON = 1024
MAX_SEATS = 64
MAX_RECORDS = 1000  # per AppendLog call
MAX_APPENDS = 1000  # per AppendLogs call
MAX_MATCHES = 1000  # per RecordMatches call
MAX_RATINGS = 1000  # per GetRatings call
DEFAULT_PAGE, MAX_PAGE = 20, 100
# The longest page token the store issues (pages.encode): two ids of MAX_ID characters of up
# to 4 UTF-8 bytes each, the listing's name and a timestamp, in base64.
MAX_PAGE_TOKEN = 2048


def text(field: str, value: str, most: int) -> str:
    if len(value) > most:
        raise InvalidArgument(f"{field} is longer than {most} characters")
    # PostgreSQL text cannot hold NUL: stored, it failed the INSERT of the whole group commit
    # the value was batched in (every caller's), where SQLite would have kept it.
    if "\x00" in value:
        raise InvalidArgument(f"{field} must not contain NUL characters")
    return value


def controller(value: str) -> str:
    """An append's controller: "" (unchecked) or one of records.CONTROLLERS."""
    if value and value not in records.CONTROLLERS:
        raise InvalidArgument(f"controller must be empty or one of {records.CONTROLLERS}")
    return value


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON value")


def json_text(field: str, value: str, kind: type, default: str) -> str:
    """Valid JSON whose top level is a `kind` (dict or list); "" stands for `default`."""
    if not value:
        return default
    try:
        # Python's parser takes NaN and Infinity, which are not JSON (RFC 8259): clients
        # reading the value with any other parser would fail on it.
        parsed: Any = json.loads(value, parse_constant=_not_json)
    except ValueError as e:
        raise InvalidArgument(f"{field} is not valid JSON: {e}") from None
    except RecursionError:  # not a ServiceError: it failed every entry of a batch call
        raise InvalidArgument(f"{field} is nested too deeply") from None
    if not isinstance(parsed, kind):
        raise InvalidArgument(f"{field} must be a JSON {'object' if kind is dict else 'array'}")
    return value


def page_size(value: int) -> int:
    if not 0 <= value <= MAX_PAGE:
        raise InvalidArgument(f"page_size must be from 0 to {MAX_PAGE} (0: {DEFAULT_PAGE})")
    return value or DEFAULT_PAGE


def page_token(value: str) -> str:
    return text("page_token", value, MAX_PAGE_TOKEN)


def when(field: str, value: Timestamp) -> datetime:
    """A set Timestamp field as a datetime. One out of Timestamp's range raised ValueError,
    which is no ServiceError: UNKNOWN, and in a batch call the whole call failed."""
    try:
        return from_timestamp(value)
    except (ValueError, OverflowError) as e:
        raise InvalidArgument(f"{field} is not a valid timestamp: {e}") from None


def count(field: str, value: int) -> int:
    if value < 0:
        raise InvalidArgument(f"{field} must not be negative")
    return value


def final_sides(values: Sequence[str]) -> tuple[str, ...]:
    """A finished match's sides by seat (empty: as dealt); checked against its seats by
    the store."""
    if len(values) > MAX_SEATS:
        raise InvalidArgument(f"final_sides must hold at most {MAX_SEATS} sides")
    return tuple(text(f"final_sides[{i}]", v, MAX_NAME) for i, v in enumerate(values))


def log_range(value: persistence_pb2.GetMatchLogRequest) -> tuple[int | None, int | None]:
    """The sequences a log read is bounded by, (after, up to); None where unbounded."""
    return _bound(value, "after_sequence"), _bound(value, "up_to_sequence")


def _bound(value: Any, field: str) -> int | None:
    return count(field, getattr(value, field)) if value.HasField(field) else None


def seat(index: int, value: common_pb2.Seat) -> records.Seat:
    where = f"seats[{index}]"
    if value.seat != index:
        raise InvalidArgument(f"{where}.seat must be {index}: seats are numbered in order")
    controller = CONTROLLERS.get(value.controller)
    if controller is None:
        raise InvalidArgument(f"{where}.controller must be HUMAN or BOT")
    player_id = identifier(f"{where}.player_id", value.player_id, required=controller == "human")
    bot = identifier(f"{where}.bot", value.bot, required=controller == "bot")
    return records.Seat(index, player_id, controller, bot,
                        text(f"{where}.side", value.side, MAX_NAME),
                        name(f"{where}.campaign_team", value.campaign_team, required=False))


def name(field: str, value: str, required: bool = True) -> str:
    """A display name (a campaign team's): 1 to MAX_NAME printable characters, not only
    spaces; "" allowed when not required."""
    if not value and not required:
        return value
    if not value.strip() or len(value) > MAX_NAME or not value.isprintable():
        raise InvalidArgument(f"{field} must be 1 to {MAX_NAME} printable characters, "
                              "not only spaces")
    return value


def new_match(value: common_pb2.Match) -> records.Match:
    if not 1 <= len(value.seats) <= MAX_SEATS:
        raise InvalidArgument(f"match.seats must have 1 to {MAX_SEATS} seats")
    if value.status != common_pb2.MATCH_STATUS_ACTIVE:
        raise InvalidArgument("match.status must be ACTIVE: matches are recorded as created")
    if value.version or value.dice_seed or value.HasField("outcome"):
        raise InvalidArgument("a new match has version 0, no dice_seed and no outcome")
    if len(value.dice_commitment) != 32:
        raise InvalidArgument("match.dice_commitment must be a 32-byte SHA-256")
    campaign_id = identifier("match.campaign_id", value.campaign_id, required=False)
    if not campaign_id and any(s.campaign_team for s in value.seats):
        raise InvalidArgument("a seat has a campaign_team but the match has no campaign_id")
    return records.Match(
        match_id=identifier("match.match_id", value.match_id),
        game_id=identifier("match.game_id", value.game_id),
        scenario_id=identifier("match.scenario_id", value.scenario_id),
        seats=tuple(seat(i, s) for i, s in enumerate(value.seats)),
        dice_commitment=value.dice_commitment,
        options_json=json_text("match.options_json", value.options_json, dict, "{}"),
        decision_timeout_seconds=count("match.decision_timeout_seconds",
                                       value.decision_timeout_seconds),
        spectator_delay_actions=count("match.spectator_delay_actions",
                                      value.spectator_delay_actions),
        bot_after_missed_decisions=count("match.bot_after_missed_decisions",
                                         value.bot_after_missed_decisions),
        created_at=(when("match.create_time", value.create_time)
                    if value.HasField("create_time") else None),
        campaign_id=campaign_id, rules_revision=rules_revision(value.rules_revision))


def rules_revision(value: int) -> int:
    """0 (a rules service from before revisions were recorded) is the first edition: every
    game was at it then."""
    if value < 0:
        raise InvalidArgument("match.rules_revision must not be negative")
    return value or 1


def log_record(index: int, value: persistence_pb2.LogRecord) -> records.LogRecord:
    where = f"records[{index}]"
    if value.kind not in records.KINDS:
        raise InvalidArgument(f"{where}.kind must be one of {', '.join(records.KINDS)}")
    if value.sequence < 0 or value.seat < records.SERVER_SEAT:
        raise InvalidArgument(f"{where}: sequence must be >= 0 and seat >= -1")
    positions = list(value.random_positions)
    if len(positions) != len(value.random_values):
        raise InvalidArgument(f"{where}: random_positions and random_values differ in length")
    if any(p < 0 for p in positions) or positions != sorted(set(positions)):
        raise InvalidArgument(f"{where}.random_positions must be increasing and >= 0")
    if value.prev_hash or value.hash:
        raise InvalidArgument(f"{where}: prev_hash and hash are set by the persistence service")
    return records.LogRecord(
        sequence=value.sequence, kind=value.kind, seat=value.seat,
        action_id=text(f"{where}.action_id", value.action_id, MAX_ACTION_ID),
        request_id=identifier(f"{where}.request_id", value.request_id, required=False),
        random_positions=tuple(positions), random_values=tuple(value.random_values),
        events_json=json_text(f"{where}.events_json", value.events_json, list, "[]"),
        created_at=(when(f"{where}.create_time", value.create_time)
                    if value.HasField("create_time") else None))


def log_records(values: Sequence[persistence_pb2.LogRecord]) -> list[records.LogRecord]:
    if not 1 <= len(values) <= MAX_RECORDS:
        raise InvalidArgument(f"records must hold 1 to {MAX_RECORDS} records")
    return [log_record(i, r) for i, r in enumerate(values)]


def outcome(value: common_pb2.Outcome) -> records.Outcome:
    winners = tuple(value.winners)
    if len(set(winners)) != len(winners) or any(w < 0 for w in winners):
        raise InvalidArgument("outcome.winners must be distinct seat numbers")
    if not all(math.isfinite(s) for s in value.scores.values()):
        raise InvalidArgument("outcome.scores must be finite numbers")
    return records.Outcome(winners, value.draw, text("outcome.reason", value.reason, MAX_REASON),
                           dict(value.scores))


def dice_seed(value: bytes) -> bytes:
    if not 1 <= len(value) <= 64:
        raise InvalidArgument("dice_seed must be the revealed seed, 1 to 64 bytes")
    return value


def campaign_request(value: persistence_pb2.CreateCampaignRequest
                     ) -> tuple[str, list[records.CampaignTeam]]:
    """The game and the teams of a new campaign (campaigns.check_teams checks their shape)."""
    game_id = identifier("game_id", value.game_id)
    teams = [records.CampaignTeam(
        name(f"teams[{i}].name", t.name),
        tuple(identifier(f"teams[{i}].player_ids[{j}]", p) for j, p in enumerate(t.player_ids)))
        for i, t in enumerate(value.teams)]
    return game_id, teams


def campaign_id(caller: str, request_id: str) -> str:
    """The id a caller's request names, so that a retried creation finds its campaign."""
    key = identifier("request_id", request_id)
    return uuid.uuid5(uuid.NAMESPACE_URL, f"partida-campaign:{caller}:{key}").hex


def scenario_ids(game_id: str) -> tuple[str, ...]:
    """Every scenario of a hosted game, in the game's order: what a campaign plays."""
    return tuple(s.id for s in _hosted(game_id).info.scenarios)


def hosted_game(field: str, value: str) -> str:
    """The id of a game this server hosts: a rating of any other is no one's (it was
    answered as a newcomer's 1500, as if the game existed)."""
    _hosted(identifier(field, value), field)
    return value


def _hosted(game_id: str, field: str = "game_id") -> Any:
    try:
        return registry.get(game_id)
    except UnknownGame:
        raise InvalidArgument(f"{field}: unknown game {game_id!r}") from None
