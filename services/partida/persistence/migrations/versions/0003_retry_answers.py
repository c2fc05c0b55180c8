"""What retries are answered from: the seats a match was first recorded with (kept once
UpdateSeat changes one) and, per result, the rating its player left the match with.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_RATED = (("rating", sa.Float()), ("deviation", sa.Float()), ("volatility", sa.Float()),
          ("matches", sa.Integer()))


def upgrade() -> None:
    # Plain ADD COLUMNs: SQLite adds them in place, without copying the tables. Earlier rows
    # keep NULL: nothing recorded then can fill them in.
    op.add_column("matches", sa.Column("first_seats_json", sa.Text(), nullable=True))
    for name, type_ in _RATED:
        op.add_column("results", sa.Column(name, type_, nullable=True))


def downgrade() -> None:
    # DROP COLUMN in place (SQLite 3.35+), as in 0002: a batch copy would drop `matches`, and
    # with it, through the cascading foreign keys, every seat, log record and result.
    for name, _ in _RATED:
        op.execute(f"ALTER TABLE results DROP COLUMN {name}")
    op.execute("ALTER TABLE matches DROP COLUMN first_seats_json")
