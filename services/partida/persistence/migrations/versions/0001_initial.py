"""The initial schema: players, matches, seats, logs, results, ratings, dice streams.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TEXT, BYTES, WHEN = sa.Text(), sa.LargeBinary(), sa.DateTime(timezone=True)


def _col(name: str, type_: sa.types.TypeEngine, nullable: bool = False) -> sa.Column:
    return sa.Column(name, type_, nullable=nullable)


def _match_of(table: str) -> list[sa.Column | sa.ForeignKeyConstraint]:
    """The match_id column and its cascading foreign key, for the match's child tables."""
    return [_col("match_id", TEXT),
            sa.ForeignKeyConstraint(["match_id"], ["matches.match_id"], ondelete="CASCADE",
                                    name=op.f(f"fk_{table}_match_id_matches"))]


def _pk(table: str, *columns: str) -> sa.PrimaryKeyConstraint:
    return sa.PrimaryKeyConstraint(*columns, name=op.f(f"pk_{table}"))


def upgrade() -> None:
    op.create_table(
        "players",
        _col("player_id", TEXT), _col("integrator", TEXT), _col("external_id", TEXT),
        _col("display_name", TEXT), _col("created_at", WHEN),
        _pk("players", "player_id"),
        sa.UniqueConstraint("integrator", "external_id",
                            name=op.f("uq_players_integrator_external_id")),
    )
    op.create_table(
        "matches",
        _col("match_id", TEXT), _col("game_id", TEXT), _col("scenario_id", TEXT),
        _col("options_json", TEXT), _col("seats_json", TEXT), _col("status", TEXT),
        _col("dice_commitment", BYTES), _col("dice_seed", BYTES, nullable=True),
        _col("outcome_json", TEXT, nullable=True),
        _col("decision_timeout_seconds", sa.Integer()),
        _col("spectator_delay_actions", sa.Integer()),
        _col("created_at", WHEN), _col("finished_at", WHEN, nullable=True),
        _pk("matches", "match_id"),
        sa.CheckConstraint("status IN ('active', 'finished')", name=op.f("ck_matches_status")),
    )
    op.create_index("ix_matches_game_finished", "matches", ["game_id", "finished_at", "match_id"])
    op.create_index("ix_matches_finished", "matches", ["finished_at", "match_id"])
    op.create_table(
        "match_seats",
        *_match_of("match_seats"), _col("seat", sa.Integer()),
        _col("player_id", TEXT, nullable=True), _col("bot", TEXT),
        _pk("match_seats", "match_id", "seat"),
    )
    op.create_index("ix_match_seats_player", "match_seats", ["player_id", "match_id"])
    op.create_table(
        "log_records",
        *_match_of("log_records"), _col("sequence", sa.BigInteger()), _col("kind", TEXT),
        _col("seat", sa.Integer()), _col("action_id", TEXT), _col("request_id", TEXT),
        _col("random_positions", sa.JSON()), _col("random_values", sa.JSON()),
        _col("events_json", TEXT), _col("prev_hash", BYTES), _col("hash", BYTES),
        _col("created_at", WHEN),
        _pk("log_records", "match_id", "sequence"),
    )
    op.create_index("uq_log_records_request", "log_records", ["match_id", "request_id"],
                    unique=True, postgresql_where=sa.text("request_id <> ''"),
                    sqlite_where=sa.text("request_id <> ''"))
    op.create_table(
        "results",
        *_match_of("results"), _col("seat", sa.Integer()),
        _col("player_id", TEXT, nullable=True), _col("result", TEXT),
        _col("score", sa.Float(), nullable=True),
        _pk("results", "match_id", "seat"),
        sa.CheckConstraint("result IN ('win', 'loss', 'draw')", name=op.f("ck_results_result")),
    )
    op.create_table(
        "ratings",
        _col("player_id", TEXT), _col("game_id", TEXT), _col("rating", sa.Float()),
        _col("deviation", sa.Float()), _col("volatility", sa.Float()),
        _col("matches", sa.Integer()),
        _pk("ratings", "player_id", "game_id"),
    )
    op.create_table(
        "dice_streams",
        _col("match_id", TEXT), _col("seed", BYTES), _col("commitment", BYTES),
        _col("next_position", sa.BigInteger()), _col("revealed", sa.Boolean()),
        _col("created_at", WHEN),
        _pk("dice_streams", "match_id"),
    )


def downgrade() -> None:
    for table in ("dice_streams", "ratings", "results", "log_records", "match_seats",
                  "matches", "players"):
        op.drop_table(table)  # their indexes go with them
