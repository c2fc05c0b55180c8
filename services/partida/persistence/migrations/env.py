"""Alembic environment: runs against the connection `db.migrate` passes in, or against
`sqlalchemy.url` when invoked from the alembic command line."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from partida.persistence.models import Base

target_metadata = Base.metadata


def _run(connection: sa.Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      # SQLite alters tables by copying them; harmless on PostgreSQL.
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = sa.create_engine(url or "sqlite:///partida.db")
    with engine.connect() as conn:
        _run(conn)
    engine.dispose()


main()
