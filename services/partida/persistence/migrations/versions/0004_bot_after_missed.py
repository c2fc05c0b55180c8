"""How many decisions in a row a player's seat may let run out before its bot takes it
(rules service, Matches._apply); 0: never.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, in place on SQLite too. Matches recorded before keep 0: they were
    # created when no seat was ever handed over by itself.
    op.add_column("matches", sa.Column("bot_after_missed_decisions", sa.Integer(),
                                       nullable=False, server_default="0"))


def downgrade() -> None:
    # DROP COLUMN in place (SQLite 3.35+), as in 0002 and 0003.
    op.execute("ALTER TABLE matches DROP COLUMN bot_after_missed_decisions")
