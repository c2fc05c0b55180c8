"""Which failures are a store out of reach (UNAVAILABLE: retry) and which are not (INTERNAL):
platform.outages. The whole path, with Redis and PostgreSQL really stopped, is
tests/integration/test_outages.py."""

from __future__ import annotations

import sqlite3

import pytest
import redis
from sqlalchemy import exc

from partida.platform.outages import out_of_reach


class DriverError(Exception):
    """A DB-API error as psycopg raises one: with the server's SQLSTATE, or None."""

    def __init__(self, sqlstate: str | None) -> None:
        super().__init__("driver error")
        self.sqlstate = sqlstate


def wrapped(kind: type[exc.DBAPIError], orig: Exception, invalidated: bool = False):
    return kind("SELECT 1", {}, orig, connection_invalidated=invalidated)


@pytest.mark.parametrize("error, gone", [
    (redis.ConnectionError("refused"), "the session store"),
    (redis.TimeoutError("timed out"), "the session store"),
    (exc.TimeoutError("QueuePool limit reached"), "the database"),
    (wrapped(exc.OperationalError, DriverError(None)), "the database"),  # no server answered
    (wrapped(exc.InterfaceError, DriverError(None)), "the database"),  # connection closed
    (wrapped(exc.OperationalError, DriverError("08006")), "the database"),  # connection lost
    (wrapped(exc.OperationalError, DriverError("57P01")), "the database"),  # shutting down
    (wrapped(exc.DBAPIError, DriverError("XX000"), invalidated=True), "the database"),
    (wrapped(exc.OperationalError, DriverError("53100")), None),  # a full disk
    (wrapped(exc.ProgrammingError, DriverError(None)), None),  # a bug, whatever its state
    (wrapped(exc.OperationalError, sqlite3.OperationalError("database is locked")), None),
    (redis.ResponseError("WRONGTYPE"), None),
    (ValueError("a bug"), None),
])
def test_only_a_store_out_of_reach_is_an_outage(error, gone):
    assert out_of_reach(error) == gone


def test_background_rounds_tell_an_outage_once_and_a_bug_every_time(caplog, monkeypatch):
    """platform.outages.run_rounds, which runs the turn clocks and the matchmaker: rounds
    failing on a store out of reach (a store's own error or an Unavailable) are one outage,
    told when it starts and when it ends; a bug is logged with its traceback each time."""
    import logging
    import threading

    from partida.platform import outages
    from partida.platform.errors import Unavailable

    monkeypatch.setattr(outages, "OUTAGE_WAIT_SECONDS", 0.0)
    failures = [redis.ConnectionError("refused"), Unavailable("out of reach"),
                redis.TimeoutError("timed out"), None, ValueError("a bug"), ValueError("a bug"),
                None, redis.ConnectionError("refused"), None]
    stop = threading.Event()

    def work() -> None:
        failure = failures.pop(0)
        if not failures:
            stop.set()
        if failure is not None:
            raise failure

    log = logging.getLogger("partida.test-rounds")
    caplog.set_level(logging.INFO, logger=log.name)
    outages.run_rounds(work, stop, 0.0, log, "the test rounds")
    told = [(r.levelname, r.getMessage().split(" (")[0].split(":")[0], bool(r.exc_info))
            for r in caplog.records if r.name == log.name]
    assert told == [
        ("WARNING", "the test rounds paused by an outage", False),
        ("INFO", "the test rounds resumed", False),
        ("ERROR", "the test rounds failed", True),
        ("ERROR", "the test rounds failed", True),
        ("WARNING", "the test rounds paused by an outage", False),
        ("INFO", "the test rounds resumed", False),
    ]
