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


def test_an_outage_is_warned_of_once_every_interval_per_store_with_the_calls_since(caplog):
    """Every call meets an outage: one warning each buried the log. At most one per store
    every `every` seconds, each saying how many calls met it since the one before."""
    import logging

    from partida.platform.outages import OutageWarnings

    clock = [0.0]
    warnings = OutageWarnings(every=10.0, clock=lambda: clock[0])
    log = logging.getLogger("partida.test-outage-warnings")
    caplog.set_level(logging.WARNING, logger=log.name)
    for at in (0.0, 1.0, 2.0, 9.9):
        clock[0] = at
        warnings.warn(log, "the session store", "ConnectionError")
    warnings.warn(log, "the database", "OperationalError")  # another store: its own
    clock[0] = 10.0
    warnings.warn(log, "the session store", "ConnectionError")
    clock[0] = 25.0
    warnings.warn(log, "the session store", "ConnectionError")
    assert [r.getMessage() for r in caplog.records if r.name == log.name] == [
        "the session store is out of reach (ConnectionError)",
        "the database is out of reach (OperationalError)",
        "the session store is out of reach (ConnectionError); 3 more calls met it since the "
        "last warning",
        "the session store is out of reach (ConnectionError)",
    ]
