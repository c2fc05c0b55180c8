"""PersistenceStore on SQLite: every behaviour of store_behaviours.py, and SQLite's set-up."""

import threading

import sqlalchemy as sa

from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from tests.unit.persistence.store_behaviours import StoreBehaviours


class TestStoreOnSqlite(StoreBehaviours):
    pass


def test_sqlite_runs_in_wal_mode_with_foreign_keys(engine):
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_in_memory_sqlite_is_one_database_for_all_threads():
    engine = make_engine("sqlite://")
    migrate(engine)
    store = PersistenceStore(engine)
    thread = threading.Thread(target=store.create_stream, args=("m1", b"s", b"c"))
    thread.start()
    thread.join()
    assert store.get_stream("m1").commitment == b"c"
    assert sa.inspect(engine).has_table("matches")
