"""Telling followers that something they wait on changed: a ticket (matchmaking's stores), a
match's events (the embedded session store). Each follower has a condition of its own, so a
change wakes only the followers of its key, however many others wait in the process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Watch:
    """One follower of one key."""

    def __init__(self, cond: threading.Condition) -> None:
        self.cond = cond
        self.changes = 0
        self._seen = 0

    def wait(self, timeout: float) -> bool:
        """Block until the key changed since the last wait, or timeout; True if it did."""
        with self.cond:
            if self.changes == self._seen:
                self.cond.wait(timeout)
            changed, self._seen = self.changes != self._seen, self.changes
            return changed

    def wake(self) -> None:
        """Ends the current wait now (its follower looks again, e.g. to find its caller
        gone: the stream then frees its server thread at once)."""
        with self.cond:
            self.changes += 1
            self.cond.notify_all()


class Notifier:
    """Wakes the followers of a key when it changes. One condition per follower, so a
    change wakes only those who follow that key."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[str, list[Watch]] = {}

    def notify(self, key: str) -> None:
        with self._lock:
            for w in self._watches.get(key, ()):
                w.changes += 1
                w.cond.notify_all()

    def notify_all(self) -> None:
        """Wakes every follower, for changes that may have gone unannounced."""
        with self._lock:
            for ws in self._watches.values():
                for w in ws:
                    w.changes += 1
                    w.cond.notify_all()

    @contextmanager
    def watch(self, key: str) -> Iterator[Watch]:
        w = Watch(threading.Condition(self._lock))
        with self._lock:
            self._watches.setdefault(key, []).append(w)
        try:
            yield w
        finally:
            with self._lock:
                ws = self._watches[key]
                ws.remove(w)
                if not ws:
                    del self._watches[key]
