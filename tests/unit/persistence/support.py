"""Builders of matches and log records, and an in-process gRPC server, for the store's tests
on SQLite (here) and PostgreSQL (tests/integration/test_persistence_pg.py)."""

from __future__ import annotations

import contextlib
import hashlib
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from partida.persistence import records
from partida.persistence.db import make_engine, migrate
from partida.persistence.models import Base
from partida.persistence.service import registrations
from partida.persistence.store import PersistenceStore
from partida.platform.auth import Authority
from partida.platform.server import Server
from tests.support.serving import channel_to

SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).digest()
U64_MAX = 2**64 - 1
AUTHORITY = Authority("player-secret-for-the-persistence-tests-0123456789",
                      "service-secret-for-the-persistence-tests-0123456789",
                      {"key-acme": "acme", "key-globex": "globex"})


def a_match(match_id: str = "m1", players: tuple[str, ...] = ("p1", "p2"), bots: int = 0,
            game_id: str = "montanas", **fields: Any) -> records.Match:
    seats = [records.Seat(i, p) for i, p in enumerate(players)]
    seats += [records.Seat(len(seats) + i, "", "bot", "heuristic") for i in range(bots)]
    return records.Match(match_id, game_id, "base", tuple(seats), COMMITMENT, **fields)


def setup_record() -> records.LogRecord:
    return records.LogRecord(0, records.SETUP, events_json='[{"kind":"setup"}]')


def action(sequence: int, seat: int = 0, request_id: str | None = None) -> records.LogRecord:
    return records.LogRecord(
        sequence, records.ACTION, seat, f"play:{sequence}",
        f"req-{sequence}" if request_id is None else request_id,
        (2 * sequence, 2 * sequence + 1), (U64_MAX, sequence), '[{"kind":"moved"}]')


def started(store: PersistenceStore, match: records.Match, actions: int = 3) -> None:
    store.record_match(match)
    store.append_log(match.match_id, [setup_record(), *(action(i) for i in range(1, actions + 1))])


def finished(store: PersistenceStore, match: records.Match, winners: tuple[int, ...] = (0,),
             **outcome: Any) -> list[records.Rating]:
    started(store, match, actions=1)
    return store.finish_match(match.match_id, records.Outcome(winners, **outcome), SEED)


def race(workers: int, attempt: Callable[[int], Any]) -> list[Any]:
    """Runs attempt(i) on `workers` threads released together; returns results or errors."""
    barrier = threading.Barrier(workers)
    results: list[Any] = [None] * workers

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = attempt(i)
        except Exception as e:  # the caller sorts results from errors
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@contextlib.contextmanager
def serving(store: PersistenceStore) -> Iterator[grpc.Channel]:
    """Both servicers on a free loopback port; yields a channel to them."""
    with channel_to(Server(registrations(store, AUTHORITY), AUTHORITY, "127.0.0.1:0",
                           max_workers=16)) as channel:
        yield channel


@contextlib.contextmanager
def fresh_schema(admin_url: str) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL schema (first on the search path); dropped after.

    A schema costs a millisecond where a database costs half a second to create.
    """
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{name}"')
        url = sa.make_url(admin_url).update_query_dict({"options": f"-csearch_path={name}"})
        yield url.render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{name}" CASCADE')
    finally:
        admin.dispose()


@contextlib.contextmanager
def migrated_schema(admin_url: str) -> Iterator[sa.Engine]:
    """An engine on a fresh schema (fresh_schema), migrated; disposed after."""
    with fresh_schema(admin_url) as url:
        engine = make_engine(url)
        migrate(engine)
        yield engine
        engine.dispose()


def schema_differences(engine: sa.Engine) -> list[Any]:
    """What autogenerate would change to make the database match the models."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))
