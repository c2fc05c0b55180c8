"""Group commit: appends that arrive together share one transaction (one fsync).

The first caller to find no batch in progress becomes the leader: it takes every pending
append, writes each inside its own savepoint (so one refused append fails alone), commits once
and hands each caller its own result. Callers return only after the commit, so an append is
durable when it returns, exactly as with a transaction of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa


@dataclass
class _Pending:
    key: str                                   # batches write in key order (no deadlocks)
    work: Callable[[sa.Connection], Any]
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


class GroupCommit:
    def __init__(self, engine: sa.Engine, max_batch: int = 256) -> None:
        self._engine = engine
        self._max = max_batch
        self._lock = threading.Lock()
        self._queue: list[_Pending] = []
        self._leading = False

    def run(self, key: str, work: Callable[[sa.Connection], Any]) -> Any:
        """Run `work(connection)` in a savepoint of a shared transaction; its result, or the
        exception it raised (then nothing it wrote is kept)."""
        item = _Pending(key, work)
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

    def _write(self, batch: list[_Pending]) -> None:
        try:
            with self._engine.begin() as conn:
                if len(batch) == 1:  # alone: its own transaction, no savepoint needed
                    batch[0].result = batch[0].work(conn)
                    return
                for item in batch:
                    try:
                        with conn.begin_nested():
                            item.result = item.work(conn)
                    except Exception as e:  # this append alone is refused
                        item.error = e
        except BaseException as e:  # the commit itself failed: nobody's append is durable
            for item in batch:
                item.error = item.error or e
        finally:
            for item in batch:
                item.done.set()
