"""Appending to match logs in batches: the writer the store's group commit uses.

An action's append is the hot path of the whole platform, so a batch costs one locking read
of the batch's match rows and one INSERT run over all its rows, whatever its size (psycopg
sends them in one pipeline; in a trial, one multi-VALUES statement built per batch cost the
caller more than twice the CPU per batch of nine rows). The head of each log
(last sequence and hash) is remembered between batches. A remembered head can only be behind
the database (records are never removed), and then the INSERT of the next sequence collides
with the primary key: the batch falls back to appending one by one from heads read afresh,
which also tells each caller exactly why its own append was refused. Only a refusal is one
append's alone: a failure of the database (the connection lost) fails the whole batch, as the
outage it is, since nothing more can be written in its transaction.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from partida.persistence import hashchain, models, records, rows
from partida.persistence.db import on_driver
from partida.platform import jsonio
from partida.platform.batching import Pending
from partida.platform.errors import (
    Aborted,
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    ServiceError,
)

_MATCH = models.table(models.Match)
_LOG = models.table(models.LogRecord)
# Built once: every action's append runs them (see _Driver).
_INSERT = sa.insert(_LOG)
_HEAD = (sa.select(_LOG.c.sequence, _LOG.c.hash).where(_LOG.c.match_id == sa.bindparam("m"))
         .order_by(_LOG.c.sequence.desc()).limit(1))

Head = tuple[int, bytes]  # last sequence (-1: empty log) and its hash

# The batch's match rows, locked (SQLite locks the whole database at BEGIN IMMEDIATE).
# Written out per dialect: an expanding IN would be compiled again for every batch size.
_LOCK_SQL = {
    "postgresql": f"SELECT match_id, status, seats_json FROM {_MATCH.name} "
                  "WHERE match_id = ANY(%s) ORDER BY match_id FOR UPDATE",
    "sqlite": f"SELECT match_id, status, seats_json FROM {_MATCH.name} "
              "WHERE match_id IN (SELECT value FROM json_each(?)) ORDER BY match_id",
}


class _Locked(NamedTuple):
    match_id: str
    status: str
    seats_json: str


class _Driver:
    """The append's two statements for one dialect, run on the driver's cursor (db.on_driver):
    SQLAlchemy's work per execution cost about a tenth of an embedded server's action. The
    insert is compiled by SQLAlchemy (once) and its values pass through the columns' bind
    processors, so the rows are those a Core insert writes."""

    def __init__(self, dialect: sa.Dialect) -> None:
        insert = _INSERT.compile(dialect=dialect, column_keys=[c.key for c in _LOG.c])
        self._insert = insert.string
        self._order = list(insert.positiontup or ()) if insert.positional else None
        self._process = [(c.key, p) for c in _LOG.c
                         if (p := c.type.dialect_impl(dialect).bind_processor(dialect))]
        self._lock = _LOCK_SQL[dialect.name]
        self._json_ids = dialect.name == "sqlite"

    def lock(self, conn: sa.Connection, ids: list[str]) -> dict[str, _Locked]:
        """The rows of matches `ids`, locked until the transaction ends."""
        params = (jsonio.dumps(ids) if self._json_ids else ids,)
        rows = on_driver(conn, self._lock, params, then=lambda cur: cur.fetchall())
        return {r[0]: _Locked(*r) for r in rows}

    def insert(self, conn: sa.Connection, values: list[dict[str, Any]]) -> None:
        for row in values:
            for key, process in self._process:
                row[key] = process(row[key])
        rows = ([tuple(row[k] for k in self._order) for row in values]
                if self._order is not None else values)
        on_driver(conn, self._insert, rows, many=True)


class Heads:
    """The remembered heads of recently appended logs (bounded, least recently used out)."""

    def __init__(self, size: int = 50_000) -> None:
        self._size = size
        self._heads: OrderedDict[str, Head] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str) -> Head | None:
        with self._lock:
            return self._heads.get(match_id)

    def put_all(self, heads: dict[str, Head]) -> None:
        with self._lock:
            for match_id, head in heads.items():
                self._heads[match_id] = head
                self._heads.move_to_end(match_id)
            while len(self._heads) > self._size:
                self._heads.popitem(last=False)

    def forget(self, match_ids: Sequence[str]) -> None:
        with self._lock:
            for m in match_ids:
                self._heads.pop(m, None)


class LogAppender:
    """`write` is a group-commit BatchWriter; each payload is (match_id, records, who made
    their actions for their seats: "human", "bot", or "" unchecked)."""

    def __init__(self) -> None:
        self.heads = Heads()
        self._drivers: dict[str, _Driver] = {}

    def _driver(self, conn: sa.Connection) -> _Driver:
        found = self._drivers.get(conn.dialect.name)
        if found is None:
            found = self._drivers[conn.dialect.name] = _Driver(conn.dialect)
        return found

    def started(self, match_id: str) -> None:
        """`match_id` was just recorded, so its log is empty: its first append need not read
        the head (should another replica append first, the head is read afresh as usual)."""
        self.heads.put_all({match_id: (-1, records.GENESIS)})

    def write(self, conn: sa.Connection, batch: list[Pending]) -> Callable[[], None]:
        ids = sorted({item.payload[0] for item in batch})
        # Locks the batch's matches (in id order: no deadlocks), so none finishes meanwhile.
        found = self._driver(conn).lock(conn, ids)
        return self._write(conn, batch, ids, found)

    def write_first(self, conn: sa.Connection, match: Any,
                    new: Sequence[records.LogRecord]) -> Callable[[], None]:
        """Writes the first records of the log of `match`, a row this transaction has just
        inserted (so it holds the row's lock, and the log is empty). Raises the refusal."""
        item = Pending(match.match_id, (match.match_id, new, ""))
        after = self.write_firsts(conn, {match.match_id: match}, [item])
        if item.error is not None:
            raise item.error
        return after

    def write_firsts(self, conn: sa.Connection, matches: dict[str, Any],
                     batch: list[Pending]) -> Callable[[], None]:
        """`write_first` for several matches at once, rows this transaction has just
        inserted (by id), in one statement; each item's refusal is set as its error."""
        for match_id in matches:
            self.started(match_id)
        return self._write(conn, batch, sorted(matches), matches)

    def _write(self, conn: sa.Connection, batch: list[Pending], ids: list[str],
               found: dict[str, Any]) -> Callable[[], None]:
        heads: dict[str, Head] = {}
        values: list[dict[str, Any]] = []
        for item in batch:
            match_id, new, controller = item.payload
            try:
                _check_controller(found.get(match_id), new, controller)
                item.result, item_values = self._chain(conn, found, heads, match_id, new)
            except ServiceError as e:  # this append alone is refused
                item.error = e
                continue
            heads[match_id] = item.result
            values += item_values
        if not values:
            return lambda: None
        try:
            if len(batch) == 1:  # alone: a refusal rolls the whole transaction back
                self._driver(conn).insert(conn, values)
            else:
                with conn.begin_nested():
                    self._driver(conn).insert(conn, values)
        except IntegrityError as e:  # a remembered head was behind, or a request id is reused
            self.heads.forget(ids)
            if len(batch) == 1:
                raise _refusal(ids[0], e) from None
            return self._one_by_one(conn, batch, found)
        return lambda: self.heads.put_all(heads)

    def _chain(self, conn: sa.Connection, found: dict[str, Any], heads: dict[str, Head],
               match_id: str, new: Sequence[records.LogRecord]
               ) -> tuple[Head, list[dict[str, Any]]]:
        """`_chain` from the head this batch knows, else the remembered one, else the
        database's. A remembered head may be behind: a gap it shows is checked afresh."""
        if match_id in heads:
            return _chain(found.get(match_id), heads[match_id], match_id, new)
        remembered = self.heads.get(match_id)
        if remembered is not None:
            try:
                return _chain(found.get(match_id), remembered, match_id, new)
            except FailedPrecondition:
                pass
        return _chain(found.get(match_id), _read_head(conn, match_id), match_id, new)

    def _one_by_one(self, conn: sa.Connection, batch: list[Pending],
                    found: dict[str, Any]) -> Callable[[], None]:
        kept: dict[str, Head] = {}
        for item in batch:
            if item.error is not None:
                continue
            match_id, new, controller = item.payload
            try:
                _check_controller(found.get(match_id), new, controller)
                with conn.begin_nested():
                    item.result, item_values = _chain(found.get(match_id),
                                                      _read_head(conn, match_id), match_id, new)
                    conn.execute(_INSERT, item_values)
                kept[match_id] = item.result
            except IntegrityError as e:
                item.error = _refusal(match_id, e)
            except ServiceError as e:
                item.error = e
        return lambda: self.heads.put_all(kept)


def _read_head(conn: sa.Connection, match_id: str) -> Head:
    head = conn.execute(_HEAD, {"m": match_id}).first()
    return (head.sequence, bytes(head.hash)) if head else (-1, records.GENESIS)


def _chain(match: Any, head: Head | None, match_id: str, new: Sequence[records.LogRecord]
           ) -> tuple[Head, list[dict[str, Any]]]:
    """Checks that `new` may follow `head` and returns the new head and the rows to insert."""
    if match is None or head is None:
        raise NotFound(f"no match {match_id!r}")
    if match.status == models.FINISHED:
        raise FailedPrecondition(f"match {match_id!r} is finished")
    seats = len(rows.controllers(match.seats_json))
    for record in new:
        if not records.SERVER_SEAT <= record.seat < seats:
            raise InvalidArgument(f"record {record.sequence}: seat {record.seat} is not a seat "
                                  f"of the match (-1 to {seats - 1})")
    last, prev = head
    first = new[0].sequence
    if first <= last:
        raise AlreadyExists(f"sequence {first} is already taken: the log ends at {last}")
    if first > last + 1:
        raise FailedPrecondition(f"the log ends at {last}; the next sequence is {last + 1}, "
                                 f"not {first}")
    values = []
    for record in new:
        digest = hashchain.record_hash(prev, match_id, record)
        values.append(rows.log_values(match_id, record, prev, digest))
        prev = digest
    return (new[-1].sequence, prev), values


def _check_controller(match: Any, new: Sequence[records.LogRecord], controller: str) -> None:
    """Refuses records whose actions `controller` made ("" unchecked) for a seat the match's
    record says is no longer so played: the rules replica that made them read the match
    before the seat changed hands (SetSeatController on another replica), e.g. a bot's action
    taken after its seat was given back to its player. The match's row is locked by this
    transaction, so a change of hands commits wholly before the append or after it."""
    if not controller or match is None:
        return
    now = rows.controllers(match.seats_json)
    if any(0 <= r.seat < len(now) and now[r.seat] != controller for r in new):
        raise Aborted("the seat changed hands while its action was being made; read the "
                      "match again")


def _refusal(match_id: str, e: IntegrityError) -> AlreadyExists:
    what = "request id" if "request" in str(e.orig) else "sequence"
    return AlreadyExists(f"a {what} of these records is already taken in match "
                         f"{match_id!r}; nothing was written")
