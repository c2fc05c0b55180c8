"""Conversions between rows (ORM objects, or Core rows with the same column names) and the
store's dataclasses, so no ORM object escapes."""

from __future__ import annotations

import functools
import json
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from partida.persistence import models, records


def utc(when: datetime) -> datetime:
    """In UTC. SQLite drops the zone of what it stores, so everything is written in UTC and
    naive values read back are UTC."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def player(row: models.Player) -> records.Player:
    return records.Player(row.player_id, row.integrator, row.external_id, row.display_name,
                          utc(row.created_at))


def seats_json(seats: tuple[records.Seat, ...]) -> str:
    return json.dumps([asdict(s) for s in seats], separators=(",", ":"))


def seats(text: str) -> tuple[records.Seat, ...]:
    return tuple(records.Seat(**s) for s in json.loads(text))


@functools.lru_cache(maxsize=4096)
def controllers(text: str) -> tuple[str, ...]:
    """Who controls each seat of a match's seats_json: every log append checks its records'
    seats against them, so the JSON is parsed once per change of hands, not per append."""
    return tuple(s.controller for s in seats(text))


def outcome_json(outcome: records.Outcome) -> str:
    data = asdict(outcome) | {"winners": sorted(outcome.winners),
                              "scores": {str(k): v for k, v in sorted(outcome.scores.items())}}
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def outcome(text: str) -> records.Outcome:
    data = json.loads(text)
    return records.Outcome(tuple(data["winners"]), data["draw"], data["reason"],
                           {int(k): v for k, v in data["scores"].items()})


def match(row: models.Match | sa.Row[Any], version: int) -> records.Match:
    return records.Match(
        match_id=row.match_id, game_id=row.game_id, scenario_id=row.scenario_id,
        seats=seats(row.seats_json), dice_commitment=row.dice_commitment,
        options_json=row.options_json, decision_timeout_seconds=row.decision_timeout_seconds,
        spectator_delay_actions=row.spectator_delay_actions,
        bot_after_missed_decisions=row.bot_after_missed_decisions, status=row.status,
        version=version, dice_seed=row.dice_seed,
        outcome=outcome(row.outcome_json) if row.outcome_json else None,
        created_at=utc(row.created_at),
        finished_at=utc(row.finished_at) if row.finished_at else None,
        campaign_id=row.campaign_id or "", rules_revision=row.rules_revision)


def match_values(value: records.Match) -> dict[str, Any]:
    """The columns of a new matches row, for a Core insert."""
    return dict(
        match_id=value.match_id, game_id=value.game_id, scenario_id=value.scenario_id,
        options_json=value.options_json, seats_json=seats_json(value.seats),
        status=models.ACTIVE, dice_commitment=value.dice_commitment,
        decision_timeout_seconds=value.decision_timeout_seconds,
        spectator_delay_actions=value.spectator_delay_actions,
        bot_after_missed_decisions=value.bot_after_missed_decisions,
        rules_revision=value.rules_revision,
        created_at=utc(value.created_at or models.utcnow()), campaign_id=value.campaign_id or None)


def seat_values(value: records.Match) -> list[dict[str, Any]]:
    """The match_seats rows of a new match, for a Core insert."""
    return [dict(match_id=value.match_id, seat=s.seat, player_id=s.player_id or None,
                 bot=s.bot, campaign_team=s.campaign_team or None)
            for s in value.seats]


def log_record(row: models.LogRecord) -> records.LogRecord:
    return records.LogRecord(
        sequence=row.sequence, kind=row.kind, seat=row.seat, action_id=row.action_id,
        request_id=row.request_id, random_positions=tuple(row.random_positions),
        random_values=tuple(int(v) for v in row.random_values), events_json=row.events_json,
        created_at=utc(row.created_at), match_id=row.match_id, prev_hash=row.prev_hash,
        hash=row.hash)


def log_values(match_id: str, value: records.LogRecord, prev_hash: bytes,
               hash_: bytes) -> dict[str, Any]:
    """The columns of a log_records row, for a Core insert."""
    return dict(
        match_id=match_id, sequence=value.sequence, kind=value.kind, seat=value.seat,
        action_id=value.action_id, request_id=value.request_id,
        random_positions=list(value.random_positions),
        random_values=[str(v) for v in value.random_values], events_json=value.events_json,
        prev_hash=prev_hash, hash=hash_, created_at=utc(value.created_at or models.utcnow()))


def rating(row: models.Rating | sa.Row[Any]) -> records.Rating:
    return records.Rating(row.player_id, row.game_id, row.rating, row.deviation,
                          row.volatility, row.matches)


def dice_stream(row: models.DiceStream | sa.Row[Any]) -> records.DiceStream:
    return records.DiceStream(row.match_id, row.seed, row.commitment, row.next_position,
                              row.revealed)
