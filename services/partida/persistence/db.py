"""Engines, sessions and migrations for SQLite and PostgreSQL (psycopg 3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

MIGRATIONS = Path(__file__).with_name("migrations")
# Execution option marking a connection that will write (see _sqlite_begin).
WRITE = "partida_write"
# Arbitrary key of the PostgreSQL advisory lock that serializes concurrent `migrate` calls.
_MIGRATION_LOCK = 0x7061727469_6461


def make_engine(url: str, **kwargs: Any) -> sa.Engine:
    """An engine for `url`; a bare postgresql:// URL is given the psycopg 3 driver.

    A failed statement's error names the statement but not its values, which hold secrets
    (a dice stream's seed before the reveal, events hidden from some seats): the error is
    logged."""
    kwargs.setdefault("hide_parameters", True)
    parsed = sa.make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed, **kwargs)
    options: dict[str, Any] = {"pool_pre_ping": True, "pool_size": 10, "max_overflow": 20,
                               "pool_recycle": 1800}
    return sa.create_engine(parsed, **(options | kwargs))


def _sqlite_engine(url: sa.URL, **kwargs: Any) -> sa.Engine:
    # Connections move between gRPC worker threads; the busy timeout makes a writer wait
    # for another instead of failing at once.
    connect_args = {"check_same_thread": False, "timeout": 30}
    database = url.database or ""
    memory = database in ("", ":memory:")
    if memory:  # one connection for all threads, or each would see its own empty database
        kwargs.setdefault("poolclass", StaticPool)
    elif not url.query.get("uri"):
        # SQLite makes a missing file but not its folder ("unable to open database file",
        # naming neither): a server would wait for ever for a database it can never open.
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control from pysqlite so that _sqlite_begin decides how to begin.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _sqlite_begin(conn: sa.Connection) -> None:
        # A deferred transaction that reads and then writes fails with "database is locked"
        # (no retry) when another writer committed in between; writers therefore take the
        # write lock up front, which also serializes them like PostgreSQL's row locks do.
        immediate = conn.get_execution_options().get(WRITE, False)
        on_driver(conn, "BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def on_driver(conn: sa.Connection, sql: str, params: Any = (), many: bool = False,
              then: Callable[[Any], Any] = lambda _: None) -> Any:
    """`then(cursor)` after `sql` has run on the driver's own cursor of `conn`: for the hottest
    statements, where SQLAlchemy's work per execution (its context, compiled cache, result
    set-up) cost more CPU than the database's. What of it matters is kept: cursor-execute
    listeners (tracing, tests counting statements) are told, and a driver's error is raised as
    SQLAlchemy raises it, a lost connection invalidated, so that refusals and outages read the
    same. Parameters go to the driver as they are (no bind processing)."""
    dbapi_conn = conn.connection.dbapi_connection
    assert dbapi_conn is not None  # a connection in a transaction holds its driver's
    events = conn.dispatch
    cursor = dbapi_conn.cursor()
    try:
        if events.before_cursor_execute:
            events.before_cursor_execute(conn, cursor, sql, params, None, many)
        (cursor.executemany if many else cursor.execute)(sql, params)
        if events.after_cursor_execute:
            events.after_cursor_execute(conn, cursor, sql, params, None, many)
        return then(cursor)
    except conn.dialect.loaded_dbapi.Error as e:
        lost = conn.dialect.is_disconnect(e, dbapi_conn, cursor)
        if lost:
            conn.invalidate(e)
        raise sa.exc.DBAPIError.instance(sql, None, e, conn.dialect.loaded_dbapi.Error,
                                         hide_parameters=True, connection_invalidated=lost,
                                         dialect=conn.dialect) from e
    finally:
        cursor.close()


def session_factory(engine: sa.Engine, write: bool = False) -> sessionmaker[Session]:
    """Sessions on `engine`; `write=True` for transactions that will write."""
    bind = engine.execution_options(**{WRITE: True}) if write else engine
    return sessionmaker(bind=bind, expire_on_commit=False)


def dialect_insert(on: Session | sa.Connection | sa.Engine, table: Any) -> Any:
    """An INSERT of the session's, connection's or engine's dialect, which can be told
    ON CONFLICT DO NOTHING."""
    bind = on.get_bind() if isinstance(on, Session) else on
    dialect = postgresql if bind.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """An Alembic configuration built in code: no alembic.ini is needed at run time."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def migrate(engine_or_url: sa.Engine | str) -> None:
    """Brings the schema to the newest revision (`alembic upgrade head`)."""
    engine = make_engine(engine_or_url) if isinstance(engine_or_url, str) else engine_or_url
    try:
        with engine.execution_options(**{WRITE: True}).begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
            command.upgrade(alembic_config(conn), "head")
    finally:
        if isinstance(engine_or_url, str):
            engine.dispose()
