"""The ticket store contract, and the in-process change notifier both stores share.

A ticket's life: SEARCHING -> CLAIMED (a matcher holds it while the match is created) ->
ASSIGNED, or back to SEARCHING when the claim is released; SEARCHING -> CANCELLED or EXPIRED.
A claim also records its proposal with a lease, so that if the claiming matcher dies another
one can finish the same proposal (same request id, hence the same match) instead of leaving
the tickets stuck.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

from partida.matchmaking.pools import Proposal
from partida.matchmaking.tickets import Ticket


class TooManyOpen(Exception):
    """The player already has as many open tickets as allowed."""


class TicketStore(Protocol):
    def create(self, ticket: Ticket, request_id: str, max_open: int) -> Ticket:
        """Store a new searching ticket; if this player already opened one with request_id,
        return that one instead. Raises TooManyOpen."""
        ...

    def get(self, ticket_id: str) -> Ticket | None: ...

    def cancel(self, ticket_id: str) -> Ticket | None:
        """Cancel the ticket if it is searching. Returns it as it is afterwards (its status
        says whether the cancel happened), None if unknown."""
        ...

    def searching(self) -> list[Ticket]:
        """Every ticket waiting in a pool."""
        ...

    def claim(self, proposals: Sequence[Proposal], now: float, lease: float) -> list[bool]:
        """For each proposal, atomically claim all of its tickets or none: it succeeds only
        if every one is still searching and unexpired."""
        ...

    def assign(self, done: Sequence[tuple[Proposal, str]]) -> None:
        """Give each claimed proposal's tickets their match and seats; ends the claims."""
        ...

    def release(self, proposals: Sequence[Proposal]) -> None:
        """Put claimed tickets back in their pools; ends the claims."""
        ...

    def stale_claims(self, now: float, lease: float) -> list[Proposal]:
        """Claims whose lease ran out (their matcher died), each handed to this caller
        alone with a fresh lease, to be assigned or released."""
        ...

    def expire(self, now: float) -> int:
        """Expire searching tickets past their expiry time; returns how many."""
        ...

    def watch(self, ticket_id: str) -> AbstractContextManager[Watch]:
        """Follow a ticket's changes; enter it before reading so no change is missed."""
        ...


class Watch:
    """One follower of one ticket."""

    def __init__(self, cond: threading.Condition) -> None:
        self.cond = cond
        self.changes = 0
        self._seen = 0

    def wait(self, timeout: float) -> bool:
        """Block until the ticket changed since the last wait, or timeout; True if it did."""
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
    """Wakes the followers of a ticket when it changes. One condition per follower, so a
    change wakes only those who follow that ticket."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[str, list[Watch]] = {}

    def notify(self, ticket_id: str) -> None:
        with self._lock:
            for w in self._watches.get(ticket_id, ()):
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
    def watch(self, ticket_id: str) -> Iterator[Watch]:
        w = Watch(threading.Condition(self._lock))
        with self._lock:
            self._watches.setdefault(ticket_id, []).append(w)
        try:
            yield w
        finally:
            with self._lock:
                ws = self._watches[ticket_id]
                ws.remove(w)
                if not ws:
                    del self._watches[ticket_id]
