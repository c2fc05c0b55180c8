"""Tickets in this process's memory, for the embedded single-process server."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from partida.matchmaking.pools import Proposal
from partida.matchmaking.store.base import TooManyOpen
from partida.matchmaking.tickets import (
    ASSIGNED,
    CANCELLED,
    CLAIMED,
    EXPIRED,
    FAILED,
    SEARCHING,
    Ticket,
)
from partida.platform.notify import Notifier, Watch


class MemoryTicketStore:
    """A TicketStore behind one lock. Ended tickets stay readable for retain_seconds, then
    are forgotten with their idempotency keys, so a long-running server does not grow."""

    def __init__(self, retain_seconds: float = 3600.0,
                 clock: Callable[[], float] = time.time) -> None:
        self._retain = retain_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._tickets: dict[str, Ticket] = {}
        self._searching: dict[str, None] = {}  # insertion-ordered set
        self._open: dict[str, set[str]] = {}  # player -> unfinished tickets
        self._idem: dict[tuple[str, str], str] = {}
        self._idem_of: dict[str, tuple[str, str]] = {}
        self._claims: dict[str, tuple[float, Proposal]] = {}  # request id -> (lease end, p)
        self._holder: dict[str, str] = {}  # ticket -> request id of its claim
        self._ended: deque[tuple[float, str]] = deque()  # (forget at, ticket)
        self._notifier = Notifier()

    def create(self, ticket: Ticket, request_id: str, max_open: int) -> Ticket:
        key = (ticket.player_id, request_id)
        with self._lock:
            if key in self._idem:
                return self._tickets[self._idem[key]]
            opened = self._open.setdefault(ticket.player_id, set())
            if len(opened) >= max_open:
                raise TooManyOpen(ticket.player_id)
            opened.add(ticket.ticket_id)
            self._tickets[ticket.ticket_id] = ticket
            self._searching[ticket.ticket_id] = None
            self._idem[key], self._idem_of[ticket.ticket_id] = ticket.ticket_id, key
            return ticket

    def get(self, ticket_id: str) -> Ticket | None:
        with self._lock:
            return self._tickets.get(ticket_id)

    def cancel(self, ticket_id: str) -> Ticket | None:
        with self._lock:
            t = self._tickets.get(ticket_id)
            if t is not None and t.status == SEARCHING:
                t = self._finish(t, CANCELLED)
            return t

    def searching(self) -> list[Ticket]:
        with self._lock:
            return [self._tickets[i] for i in self._searching]

    def claim(self, proposals: Sequence[Proposal], now: float, lease: float) -> list[bool]:
        with self._lock:
            return [self._claim(p, now, lease) for p in proposals]

    def _claim(self, p: Proposal, now: float, lease: float) -> bool:
        tickets = [self._tickets.get(i) for i in p.ticket_ids]
        if not all(t and t.status == SEARCHING and t.expires > now for t in tickets):
            return False
        for t in tickets:
            assert t is not None
            self._put(t.with_status(CLAIMED))
            del self._searching[t.ticket_id]
            self._holder[t.ticket_id] = p.request_id
        self._claims[p.request_id] = (now + lease, p)
        return True

    def assign(self, done: Sequence[tuple[Proposal, str]]) -> None:
        with self._lock:
            for p, match_id in done:
                for seat, t in enumerate(self._end_claim(p)):
                    if t is not None:
                        self._finish(t, ASSIGNED, match_id=match_id, seat=seat)

    def fail(self, refused: Sequence[tuple[Proposal, str]]) -> None:
        with self._lock:
            for p, reason in refused:
                for t in self._end_claim(p):
                    if t is not None:
                        self._finish(t, FAILED, failure=reason)

    def release(self, proposals: Sequence[Proposal]) -> None:
        with self._lock:
            for p in proposals:
                self._release(p)

    def _release(self, p: Proposal) -> None:
        for t in self._end_claim(p):
            if t is not None:
                self._put(t.with_status(SEARCHING))
                self._searching[t.ticket_id] = None

    def postpone(self, proposals: Sequence[Proposal], now: float, delay: float,
                 expired_by: float | None = None) -> None:
        by = now if expired_by is None else expired_by
        with self._lock:
            for p in proposals:
                if p.request_id not in self._claims:  # ended meanwhile
                    continue
                if any(self._holder.get(i) == p.request_id and self._tickets[i].expires > by
                       for i in p.ticket_ids):
                    self._claims[p.request_id] = (now + delay, p)
                else:
                    self._release(p)

    def _end_claim(self, p: Proposal) -> list[Ticket | None]:
        """Drops the claim; the proposal's tickets in seat order, None where this claim
        does not hold the ticket (any more)."""
        self._claims.pop(p.request_id, None)
        held: list[Ticket | None] = []
        for i in p.ticket_ids:
            mine = self._holder.get(i) == p.request_id
            if mine:
                del self._holder[i]
            held.append(self._tickets[i] if mine else None)
        return held

    def stale_claims(self, now: float, lease: float) -> list[Proposal]:
        with self._lock:
            stale = [p for end, p in self._claims.values() if end <= now]
            for p in stale:
                self._claims[p.request_id] = (now + lease, p)
            return stale

    def expire(self, now: float) -> int:
        with self._lock:
            due = [t for i in self._searching if (t := self._tickets[i]).expires <= now]
            for t in due:
                self._finish(t, EXPIRED)
            self._forget_ended()
            return len(due)

    def watch(self, ticket_id: str) -> AbstractContextManager[Watch]:
        return self._notifier.watch(ticket_id)

    def _put(self, t: Ticket) -> Ticket:
        self._tickets[t.ticket_id] = t
        self._notifier.notify(t.ticket_id)
        return t

    def _finish(self, t: Ticket, status: str, **changes: object) -> Ticket:
        self._searching.pop(t.ticket_id, None)
        self._open.get(t.player_id, set()).discard(t.ticket_id)
        self._ended.append((self._clock() + self._retain, t.ticket_id))
        return self._put(t.with_status(status, **changes))

    def _forget_ended(self) -> None:
        now = self._clock()
        while self._ended and self._ended[0][0] <= now:
            ticket_id = self._ended.popleft()[1]
            t = self._tickets.pop(ticket_id)
            self._idem.pop(self._idem_of.pop(ticket_id), None)
            if not self._open.get(t.player_id):
                self._open.pop(t.player_id, None)
