"""The one-process server's matchmaking tickets and claims (matchmaking/store/journal),
which it kept in memory only: a restart lost every ticket it had acknowledged.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matchmaking_tickets",
        sa.Column("ticket_id", sa.Text(), nullable=False),
        sa.Column("request_id", sa.Text(), nullable=False),
        sa.Column("ticket_json", sa.Text(), nullable=False),
        sa.Column("claim", sa.Text(), nullable=True),
        sa.Column("forget_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("ticket_id", name=op.f("pk_matchmaking_tickets")),
    )
    op.create_table(
        "matchmaking_claims",
        sa.Column("request_id", sa.Text(), nullable=False),
        sa.Column("lease_end", sa.Float(), nullable=False),
        sa.Column("proposal_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("request_id", name=op.f("pk_matchmaking_claims")),
    )


def downgrade() -> None:
    op.drop_table("matchmaking_claims")
    op.drop_table("matchmaking_tickets")
