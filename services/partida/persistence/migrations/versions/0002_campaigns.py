"""Campaigns (Dynamit Joe 9): campaigns, their teams and members, the campaign of a match
and the campaign team of each seat.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TEXT, WHEN = sa.Text(), sa.DateTime(timezone=True)


def _col(name: str, type_: sa.types.TypeEngine, nullable: bool = False) -> sa.Column:
    return sa.Column(name, type_, nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "campaigns",
        _col("campaign_id", TEXT), _col("game_id", TEXT), _col("scenario_ids", sa.JSON()),
        _col("created_at", WHEN),
        sa.PrimaryKeyConstraint("campaign_id", name=op.f("pk_campaigns")),
    )
    op.create_table(
        "campaign_teams",
        _col("campaign_id", TEXT), _col("name", TEXT), _col("position", sa.Integer()),
        sa.PrimaryKeyConstraint("campaign_id", "name", name=op.f("pk_campaign_teams")),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.campaign_id"], ondelete="CASCADE",
                                name=op.f("fk_campaign_teams_campaign_id_campaigns")),
    )
    op.create_table(
        "campaign_members",
        _col("campaign_id", TEXT), _col("player_id", TEXT), _col("team", TEXT),
        _col("position", sa.Integer()),
        sa.PrimaryKeyConstraint("campaign_id", "player_id", name=op.f("pk_campaign_members")),
        sa.ForeignKeyConstraint(
            ["campaign_id", "team"], ["campaign_teams.campaign_id", "campaign_teams.name"],
            ondelete="CASCADE", name=op.f("fk_campaign_members_campaign_id_campaign_teams")),
    )
    # Plain ADD COLUMNs: SQLite adds them in place, without copying the tables.
    op.add_column("matches", _col("campaign_id", TEXT, nullable=True))
    op.create_index("ix_matches_campaign", "matches", ["campaign_id", "finished_at", "match_id"])
    op.add_column("match_seats", _col("campaign_team", TEXT, nullable=True))


def downgrade() -> None:
    # DROP COLUMN in place (SQLite 3.35+): a batch copy would drop `matches`, and with it,
    # through the cascading foreign keys, every seat, log record and result.
    op.drop_index("ix_matches_campaign", "matches")
    op.execute("ALTER TABLE match_seats DROP COLUMN campaign_team")
    op.execute("ALTER TABLE matches DROP COLUMN campaign_id")
    for table in ("campaign_members", "campaign_teams", "campaigns"):
        op.drop_table(table)
