"""Failures to reach a store (Redis, the database), told apart from bugs: a call that meets
one answers UNAVAILABLE, which tells its caller to retry, where INTERNAL would say the server
is broken. Clients, the rules service's own calls and the bot workers (ai.turns.TRANSIENT)
retry UNAVAILABLE."""

from __future__ import annotations

import redis
from sqlalchemy import exc

# SQLSTATE classes of a connection lost or refused (08) and of a server shutting down or not
# yet taking connections (57P01-57P03).
_GONE = ("08", "57P")


def out_of_reach(e: BaseException) -> str | None:
    """The store `e` says could not be reached ("the session store", "the database"), or None
    for any other failure."""
    if isinstance(e, redis.ConnectionError | redis.TimeoutError):
        return "the session store"
    if isinstance(e, exc.TimeoutError):  # no pooled connection came free in time
        return "the database"
    if isinstance(e, exc.DBAPIError) and e.connection_invalidated:  # a disconnect, by the
        return "the database"  # dialect's own reading of the driver's error
    if isinstance(e, exc.OperationalError | exc.InterfaceError):
        # psycopg gives the server's SQLSTATE, and None when no server answered at all;
        # sqlite3 gives none (its operational errors, a full disk or a lock held too long,
        # are not outages).
        state = getattr(e.orig, "sqlstate", "")
        if state is None or str(state).startswith(_GONE):
            return "the database"
    return None
