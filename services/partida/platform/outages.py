"""Failures to reach a store (Redis, the database), told apart from bugs: a call that meets
one answers UNAVAILABLE, which tells its caller to retry, where INTERNAL would say the server
is broken. Clients, the rules service's own calls and the bot workers (ai.turns.TRANSIENT)
retry UNAVAILABLE."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from sqlalchemy import exc

from partida.platform.errors import Unavailable

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


class OutageWarnings:
    """Warnings of a store out of reach, at most one every `every` seconds for each store. An
    outage meets every call, and a warning for each of them buried the log (a thousand
    clients retrying once a second, a thousand lines a second); each warning now says how
    many calls met the outage since the one before."""

    def __init__(self, every: float = 10.0, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self._every, self._clock = every, clock
        self._lock = threading.Lock()
        self._last: dict[str, tuple[float, int]] = {}  # store -> (last warned, calls since)

    def warn(self, log: logging.Logger, store: str, detail: str) -> None:
        """One call met `store` out of reach (`detail`: the error, for the log)."""
        now = self._clock()
        with self._lock:
            last, since = self._last.get(store, (None, 0))
            if last is not None and now - last < self._every:
                self._last[store] = (last, since + 1)
                return
            self._last[store] = (now, 0)
        more = f"; {since} more calls met it since the last warning" if since else ""
        log.warning("%s is out of reach (%s)%s", store, detail, more)


OUTAGE_WARNINGS = OutageWarnings()

# How often background rounds are tried while what they need is out of reach.
OUTAGE_WAIT_SECONDS = 1.0


def run_rounds(work: Callable[[], Any], stop: threading.Event, seconds: float,
               log: logging.Logger, name: str) -> None:
    """Runs `work` every `seconds` until `stop` is set. A round that meets an outage (an
    Unavailable, or a store out of reach) is told once, when the outage starts, and once
    more when a round goes through again; meanwhile rounds are tried every
    OUTAGE_WAIT_SECONDS. Each of them had logged its traceback as a bug, as often as ten
    times a second. Any other failure is logged, with its traceback, and the rounds go on."""
    outage = False
    while not stop.wait(OUTAGE_WAIT_SECONDS if outage else seconds):
        try:
            work()
        except Exception as e:
            if not isinstance(e, Unavailable) and out_of_reach(e) is None:
                log.exception("%s failed", name)
            elif not outage:
                log.warning("%s paused by an outage (%s); trying again every %g s", name, e,
                            OUTAGE_WAIT_SECONDS)
                outage = True
            continue
        if outage:
            log.info("%s resumed: the outage is over", name)
        outage = False
