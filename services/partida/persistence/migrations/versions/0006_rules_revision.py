"""The edition of its game's rules each match was created under (GameInfo.rules_revision),
so an audit by a later server can tell a rule changed since from a log that lies.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Matches recorded before were all created under their game's first edition: no game's
    # revision had been raised before this column.
    op.add_column("matches", sa.Column("rules_revision", sa.Integer(), nullable=False,
                                       server_default="1"))


def downgrade() -> None:
    # DROP COLUMN in place (SQLite 3.35+), as in 0002 to 0004.
    op.execute("ALTER TABLE matches DROP COLUMN rules_revision")
