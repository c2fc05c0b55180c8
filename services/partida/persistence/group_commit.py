"""Group commit: writes that arrive together share one transaction (one fsync).

The first caller to find no batch in progress becomes the leader: it takes every pending
write, hands the whole batch to the writer inside one transaction, commits once and gives each
caller its own result. Callers return only after the commit, so a write is durable when it
returns, exactly as with a transaction of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa


@dataclass
class Pending:
    key: str                                   # batches are handed over in key order
    payload: Any
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


# Writes a batch on the connection, setting each item's result or error; may return a hook
# to run once the transaction has committed (never if it did not).
BatchWriter = Callable[[sa.Connection, list[Pending]], Callable[[], None] | None]


def each_in_savepoint(conn: sa.Connection, batch: list[Pending]) -> None:
    """The plain writer: each payload is a `work(connection)` run in its own savepoint, so
    one refused write fails alone."""
    if len(batch) == 1:  # alone: its own transaction, no savepoint needed
        batch[0].result = batch[0].payload(conn)
        return
    for item in batch:
        try:
            with conn.begin_nested():
                item.result = item.payload(conn)
        except Exception as e:
            item.error = e


class GroupCommit:
    def __init__(self, engine: sa.Engine, write: BatchWriter = each_in_savepoint,
                 max_batch: int = 256) -> None:
        self._engine = engine
        self._write_batch = write
        self._max = max_batch
        self._lock = threading.Lock()
        self._queue: list[Pending] = []
        self._leading = False

    def run(self, key: str, payload: Any) -> Any:
        """Write `payload` with whatever else is pending; its result, or the exception its
        write raised (then nothing of it is kept)."""
        item = Pending(key, payload)
        with self._lock:
            self._queue.append(item)
            lead = not self._leading
            self._leading = self._leading or lead
        if lead:
            self._lead()
        item.done.wait()
        if item.error is not None:
            raise item.error
        return item.result

    def _lead(self) -> None:
        while True:
            with self._lock:
                batch, self._queue = self._queue[:self._max], self._queue[self._max:]
                if not batch:
                    self._leading = False
                    return
            self._write(sorted(batch, key=lambda p: p.key))

    def _write(self, batch: list[Pending]) -> None:
        try:
            with self._engine.begin() as conn:
                committed = self._write_batch(conn, batch)
            if committed is not None:
                committed()
        except BaseException as e:  # the commit itself failed: nobody's write is durable
            for item in batch:
                item.error = item.error or e
        finally:
            for item in batch:
                item.done.set()
