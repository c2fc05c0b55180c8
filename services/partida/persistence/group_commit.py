"""Group commit: writes that arrive together share one transaction (one fsync).

A batch of pending writes (platform/batching) is handed to the writer inside one transaction,
committed once, and each caller gets its own result. Callers return only after the commit, so a
write is durable when it returns, exactly as with a transaction of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa

from partida.platform.batching import Batcher, Pending

# Writes a batch on the connection, setting each item's result or error; may return a hook
# to run once the transaction has committed (never if it did not).
BatchWriter = Callable[[sa.Connection, list[Pending]], Callable[[], None] | None]


def each_in_savepoint(conn: sa.Connection, batch: list[Pending]) -> None:
    """The plain writer: each payload is a `work(connection)` run in its own savepoint, so
    one refused write fails alone. A lost connection fails the batch: what follows on it
    would fail on the broken transaction (PendingRollbackError, read as a bug), not on the
    outage."""
    if len(batch) == 1:  # alone: its own transaction, no savepoint needed
        batch[0].result = batch[0].payload(conn)
        return
    for item in batch:
        try:
            with conn.begin_nested():
                item.result = item.payload(conn)
        except Exception as e:
            if conn.invalidated:
                raise
            item.error = e


class GroupCommit:
    def __init__(self, engine: sa.Engine, write: BatchWriter = each_in_savepoint,
                 max_batch: int = 256) -> None:
        self._engine = engine
        self._write_batch = write
        self._batcher = Batcher(self._write, max_batch, idle=self._release)
        self._conn: sa.Connection | None = None  # the leader's, from batch to batch

    def run(self, key: str, payload: Any) -> Any:
        """Write `payload` with whatever else is pending; its result, or the exception its
        write raised (then nothing of it is kept)."""
        return self._batcher.run(key, payload)

    def run_all(self, items: Sequence[tuple[str, Any]]) -> list[Pending]:
        """Write several payloads, each kept or refused alone (`result` or `error` set)."""
        return self._batcher.run_all(items)

    def _release(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()

    def _write(self, batch: list[Pending]) -> None:
        # If the commit itself fails, the batcher gives its error to every item: nobody's
        # write is durable.
        # A leader writing batch after batch keeps its connection (until the batcher finds it
        # idle): a checkout and check-in per batch (with PostgreSQL, the pool's pre-ping
        # too) cost about as much CPU as the batch's own statements.
        if self._conn is None or self._conn.invalidated:  # lost: a new one (pre-pinged)
            self._release()
            self._conn = self._engine.connect()
        with self._conn.begin():
            committed = self._write_batch(self._conn, batch)
        if committed is not None:
            committed()
