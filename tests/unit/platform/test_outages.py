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
