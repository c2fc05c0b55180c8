"""The schema, as SQLAlchemy typed declarative models.

migrations/versions/ must create exactly this (a test compares them). Timestamps are UTC;
SQLite hands them back naive, so readers attach UTC (see store.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Deterministic constraint names, so that migrations can name what they create or drop.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ACTIVE, FINISHED = "active", "finished"
WIN, LOSS, DRAW = "win", "loss", "draw"


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING)
    type_annotation_map = {
        datetime: sa.DateTime(timezone=True),
        bytes: sa.LargeBinary(),
        dict[str, Any]: sa.JSON(),
        list[int]: sa.JSON(),
        list[str]: sa.JSON(),
    }


def table(model: type[Base]) -> sa.Table:
    """A model's table, for Core statements (typed as a plain FromClause on the class)."""
    found = model.__table__
    assert isinstance(found, sa.Table)
    return found


def _match_fk() -> sa.ForeignKey:
    return sa.ForeignKey("matches.match_id", ondelete="CASCADE")


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (sa.UniqueConstraint("integrator", "external_id"),)

    player_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    integrator: Mapped[str] = mapped_column(sa.Text)
    external_id: Mapped[str] = mapped_column(sa.Text)
    display_name: Mapped[str] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (
        sa.CheckConstraint(f"status IN ('{ACTIVE}', '{FINISHED}')", name="status"),
        # Keyset pages of finished matches, per game and across games, newest first.
        sa.Index("ix_matches_game_finished", "game_id", "finished_at", "match_id"),
        sa.Index("ix_matches_finished", "finished_at", "match_id"),
        # A campaign's matches in finishing order, for its standings.
        sa.Index("ix_matches_campaign", "campaign_id", "finished_at", "match_id"),
    )

    match_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.Text)
    scenario_id: Mapped[str] = mapped_column(sa.Text)
    options_json: Mapped[str] = mapped_column(sa.Text)
    # The seats exactly as recorded (controller, side...); match_seats is the queryable copy.
    seats_json: Mapped[str] = mapped_column(sa.Text)
    # The seats as first recorded, kept by the first UpdateSeat (NULL: seats_json still is
    # them), for telling a retried RecordMatch from another record.
    first_seats_json: Mapped[str | None] = mapped_column(sa.Text)
    status: Mapped[str] = mapped_column(sa.Text)
    dice_commitment: Mapped[bytes]
    dice_seed: Mapped[bytes | None]
    outcome_json: Mapped[str | None] = mapped_column(sa.Text)
    decision_timeout_seconds: Mapped[int]
    spectator_delay_actions: Mapped[int]
    bot_after_missed_decisions: Mapped[int] = mapped_column(default=0, server_default="0")
    rules_revision: Mapped[int] = mapped_column(default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # The campaign the match counts for (campaigns.py checks it when recording; no foreign
    # key, which SQLite could only add by copying this table).
    campaign_id: Mapped[str | None] = mapped_column(sa.Text)


class MatchSeat(Base):
    __tablename__ = "match_seats"
    __table_args__ = (sa.Index("ix_match_seats_player", "player_id", "match_id"),)

    match_id: Mapped[str] = mapped_column(sa.Text, _match_fk(), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(sa.Text)  # NULL: a seat created for a bot
    bot: Mapped[str] = mapped_column(sa.Text)  # bot name, "" when a person plays it
    campaign_team: Mapped[str | None] = mapped_column(sa.Text)  # NULL: scores for no team


class LogRecord(Base):
    __tablename__ = "log_records"
    __table_args__ = (
        # The primary key is the UNIQUE (match_id, sequence) that decides append races.
        # A retried request must not apply twice; "" means the record has no request id.
        sa.Index("uq_log_records_request", "match_id", "request_id", unique=True,
                 postgresql_where=sa.text("request_id <> ''"),
                 sqlite_where=sa.text("request_id <> ''")),
    )

    match_id: Mapped[str] = mapped_column(sa.Text, _match_fk(), primary_key=True)
    sequence: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)
    kind: Mapped[str] = mapped_column(sa.Text)
    seat: Mapped[int]
    action_id: Mapped[str] = mapped_column(sa.Text)
    request_id: Mapped[str] = mapped_column(sa.Text)
    random_positions: Mapped[list[int]]
    # Unsigned 64-bit values overflow BIGINT and lose precision as JSON numbers in some
    # readers, so they are kept as decimal strings.
    random_values: Mapped[list[str]]
    events_json: Mapped[str] = mapped_column(sa.Text)
    prev_hash: Mapped[bytes]
    hash: Mapped[bytes]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Result(Base):
    __tablename__ = "results"
    __table_args__ = (
        sa.CheckConstraint(f"result IN ('{WIN}', '{LOSS}', '{DRAW}')", name="result"),
    )

    match_id: Mapped[str] = mapped_column(sa.Text, _match_fk(), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(sa.Text)
    result: Mapped[str] = mapped_column(sa.Text)
    score: Mapped[float | None] = mapped_column(sa.Float)
    # The seat's player's rating after this match, as FinishMatch answered it, so that a
    # retry answers the same. NULL for a bot's seat, and in matches finished before
    # migration 0003 (their retries answer the current ratings).
    rating: Mapped[float | None] = mapped_column(sa.Float)
    deviation: Mapped[float | None] = mapped_column(sa.Float)
    volatility: Mapped[float | None] = mapped_column(sa.Float)
    matches: Mapped[int | None]


class Rating(Base):
    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    rating: Mapped[float] = mapped_column(sa.Float)
    deviation: Mapped[float] = mapped_column(sa.Float)
    volatility: Mapped[float] = mapped_column(sa.Float)
    matches: Mapped[int]


class DiceStream(Base):
    """Owned by the dice service; it lives here so that one database holds the match."""

    __tablename__ = "dice_streams"

    match_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    seed: Mapped[bytes]
    commitment: Mapped[bytes]
    next_position: Mapped[int] = mapped_column(sa.BigInteger)
    revealed: Mapped[bool]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Campaign(Base):
    """A campaign: teams playing every scenario of a game, a point per scenario won."""

    __tablename__ = "campaigns"

    campaign_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.Text)
    # The game's scenarios when the campaign was opened: the campaign is over once each
    # has a finished match in it.
    scenario_ids: Mapped[list[str]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


def _campaign_fk() -> sa.ForeignKey:
    return sa.ForeignKey("campaigns.campaign_id", ondelete="CASCADE")


class CampaignTeam(Base):
    __tablename__ = "campaign_teams"

    campaign_id: Mapped[str] = mapped_column(sa.Text, _campaign_fk(), primary_key=True)
    name: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    position: Mapped[int]  # the order the teams were given in


class CampaignMember(Base):
    """A player's team in a campaign; the key keeps a player in one team only."""

    __tablename__ = "campaign_members"
    __table_args__ = (
        sa.ForeignKeyConstraint(["campaign_id", "team"],
                                ["campaign_teams.campaign_id", "campaign_teams.name"],
                                ondelete="CASCADE"),
    )

    campaign_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    player_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    team: Mapped[str] = mapped_column(sa.Text)
    position: Mapped[int]  # the player's place in the team's list


class TicketRecord(Base):
    """A matchmaking ticket of the one-process server (matchmaking/store/journal), which has
    no Redis: kept so that a restart loses no ticket it acknowledged. Owned by its
    matchmaker; the split stack keeps its tickets in Redis instead."""

    __tablename__ = "matchmaking_tickets"

    ticket_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    request_id: Mapped[str] = mapped_column(sa.Text)  # the opening call's, for its repeats
    ticket_json: Mapped[str] = mapped_column(sa.Text)
    claim: Mapped[str | None] = mapped_column(sa.Text)  # the request id of its claim
    forget_at: Mapped[float | None] = mapped_column(sa.Float)  # ended: forgotten then


class ClaimRecord(Base):
    """A table the matchmaker has claimed tickets for and is creating (TicketRecord)."""

    __tablename__ = "matchmaking_claims"

    request_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    lease_end: Mapped[float] = mapped_column(sa.Float)
    proposal_json: Mapped[str] = mapped_column(sa.Text)
