"""Leader/follower batching: calls that arrive together are handled as one batch.

The first caller to find no batch in progress becomes the leader: it takes every pending item,
hands the batch to `handle` (which sets each item's result or error) and repeats until nothing
is pending; the others wait for their own item. Nothing waits for a batch to fill, so a caller
alone goes through at once, and under load one handling serves many callers. Used for the
database's group commit and for the rules service's log appends to persistence.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("partida.batching")


@dataclass
class Pending:
    key: str                                   # batches are handed over in key order
    payload: Any
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


# Handles a batch (in key order; items of one key in arrival order), setting each item's
# result or error. An exception it raises becomes the error of every item without one.
Handler = Callable[[list[Pending]], None]


def first_of_each_key(batch: list[Pending]) -> dict[str, Pending]:
    """The first item of each key, in the batch's (key) order: writers that insert one row per
    key take these, and settle the other items of a key as repeats. Two writers' batches then
    wait on each other's rows in one order, never in a cycle."""
    first: dict[str, Pending] = {}
    for item in batch:
        first.setdefault(item.key, item)
    return first


class Batcher:
    def __init__(self, handle: Handler, max_batch: int = 256,
                 idle: Callable[[], None] = lambda: None) -> None:
        """idle: called by a leader that finds nothing more pending, before it stands down
        (so never while another handles a batch): what it kept from batch to batch goes."""
        self._handle = handle
        self._idle = idle
        self._max = max_batch
        self._lock = threading.Lock()
        self._queue: list[Pending] = []
        self._leading = False

    def run(self, key: str, payload: Any) -> Any:
        """Handle `payload` with whatever else is pending; its result, or its error raised."""
        item = self.run_all([(key, payload)])[0]
        if item.error is not None:
            raise item.error
        return item.result

    def run_all(self, items: Sequence[tuple[str, Any]]) -> list[Pending]:
        """Handle several payloads (in one batch when they fit); each with its own outcome."""
        pending = [Pending(key, payload) for key, payload in items]
        with self._lock:
            self._queue += pending
            lead = not self._leading
            self._leading = True
        if lead:
            self._lead()
        for item in pending:
            item.done.wait()
        return pending

    def _lead(self) -> None:
        idled = False
        while True:
            with self._lock:
                batch, self._queue = self._queue[:self._max], self._queue[self._max:]
                if not batch and idled:
                    self._leading = False
                    return
            if not batch:  # still leading: what arrives meanwhile waits for this leader
                idled = True
                try:
                    self._idle()
                except Exception:  # a leader that stopped here would stall every caller
                    log.exception("releasing what the batches kept failed")
                continue
            idled = False
            try:
                self._handle(sorted(batch, key=lambda p: p.key))
            except BaseException as e:  # the batch as a whole failed
                for item in batch:
                    item.error = item.error or e
            finally:
                for item in batch:
                    item.done.set()
