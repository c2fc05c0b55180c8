"""Leader/follower batching: calls that arrive together are handled as one batch.

The first caller to find no batch in progress becomes the leader: it takes every pending item
and hands the batch to `handle` (which sets each item's result or error); the others wait for
their own item. Once its own items are handled, a leader hands the lead to the caller of the
oldest item still pending and returns: one that went on handling batch after batch would keep
its own caller waiting behind everyone else's (a leader under steady load was seen held for
two seconds). Nothing waits for a batch to fill, so a caller alone goes through at once, and
under load one handling serves many callers. Used for the database's group commit and for the
rules service's log appends to persistence.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("partida.batching")


@dataclass
class Pending:
    key: str                                   # batches are handed over in key order
    payload: Any
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


class _Call:
    """One run_all's wait: woken when its items are all handled, or to take the lead."""

    __slots__ = ("left", "wake", "leads")

    def __init__(self, items: int) -> None:
        self.left = items
        self.wake = threading.Event()
        self.leads = False


class Batcher:
    def __init__(self, handle: Handler, max_batch: int = 256,
                 idle: Callable[[], None] = lambda: None) -> None:
        """idle: called by a leader that finds nothing more pending, before it stands down
        (so never while another handles a batch): what it kept from batch to batch goes."""
        self._handle = handle
        self._idle = idle
        self._max = max_batch
        self._lock = threading.Lock()
        self._queue: list[tuple[Pending, _Call]] = []
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
        if not pending:
            return pending
        call = _Call(len(pending))
        with self._lock:
            self._queue += [(item, call) for item in pending]
            lead = not self._leading
            self._leading = True
        while True:
            if lead:
                self._lead(call)
            call.wake.wait()
            with self._lock:
                lead, call.leads = call.leads, False
                if not lead:
                    return pending
                call.wake.clear()

    def _lead(self, mine: _Call) -> None:
        idled = False
        while True:
            with self._lock:
                if mine.left == 0 and self._queue:  # done: the oldest pending call leads next
                    heir = self._queue[0][1]
                    heir.leads = True
                    heir.wake.set()
                    return
                taken, self._queue = self._queue[:self._max], self._queue[self._max:]
                if not taken and idled:
                    self._leading = False
                    return
            if not taken:  # still leading: what arrives meanwhile waits for this leader
                idled = True
                try:
                    self._idle()
                except Exception:  # a leader that stopped here would stall every caller
                    log.exception("releasing what the batches kept failed")
                continue
            idled = False
            batch = [item for item, _ in taken]
            try:
                self._handle(sorted(batch, key=lambda p: p.key))
            except BaseException as e:  # the batch as a whole failed
                for item in batch:
                    item.error = item.error or e
            finally:
                with self._lock:  # `leads` and `left` change under the lock only
                    for _, call in taken:
                        call.left -= 1
                        if call.left == 0:
                            call.wake.set()
