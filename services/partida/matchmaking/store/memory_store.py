"""Tickets in this process's memory, for the embedded single-process server; with a journal,
also in its database, so that a restart loses none (store/journal)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from partida.matchmaking.pools import Proposal
from partida.matchmaking.store.base import TooManyOpen
from partida.matchmaking.store.journal import Kept, TicketJournal
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
    are forgotten with their idempotency keys, so a long-running server does not grow.

    With a `journal`, every change is written through to it before the call that made it
    returns, and `recover` (once the database is migrated, before any other call) reads back
    what an earlier process kept."""

    def __init__(self, retain_seconds: float = 3600.0,
                 clock: Callable[[], float] = time.time,
                 journal: TicketJournal | None = None) -> None:
        self._retain = retain_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._journal = journal
        self._recovered = journal is None
        self._changed: set[str] = set()  # tickets changed by the call under way
        self._claims_changed: set[str] = set()  # and claims (request ids)
        self._forget_at: dict[str, float] = {}  # ended ticket -> when it is forgotten
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
        with self._change():
            if key in self._idem:
                return self._tickets[self._idem[key]]
            opened = self._open.setdefault(ticket.player_id, set())
            if len(opened) >= max_open:
                raise TooManyOpen(ticket.player_id)
            opened.add(ticket.ticket_id)
            self._tickets[ticket.ticket_id] = ticket
            self._changed.add(ticket.ticket_id)
            self._searching[ticket.ticket_id] = None
            self._idem[key], self._idem_of[ticket.ticket_id] = ticket.ticket_id, key
            return ticket

    def get(self, ticket_id: str) -> Ticket | None:
        with self._lock:
            return self._tickets.get(ticket_id)

    def cancel(self, ticket_id: str) -> Ticket | None:
        with self._change():
            t = self._tickets.get(ticket_id)
            if t is not None and t.status == SEARCHING:
                t = self._finish(t, CANCELLED)
            return t

    def searching(self) -> list[Ticket]:
        with self._lock:
            return [self._tickets[i] for i in self._searching]

    def claim(self, proposals: Sequence[Proposal], now: float, lease: float) -> list[bool]:
        with self._change():
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
        self._claims_changed.add(p.request_id)
        return True

    def assign(self, done: Sequence[tuple[Proposal, str]]) -> None:
        with self._change():
            for p, match_id in done:
                for seat, t in enumerate(self._end_claim(p)):
                    if t is not None:
                        self._finish(t, ASSIGNED, match_id=match_id, seat=seat)

    def fail(self, refused: Sequence[tuple[Proposal, str]]) -> None:
        with self._change():
            for p, reason in refused:
                for t in self._end_claim(p):
                    if t is not None:
                        self._finish(t, FAILED, failure=reason)

    def release(self, proposals: Sequence[Proposal]) -> None:
        with self._change():
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
        with self._change():
            for p in proposals:
                if p.request_id not in self._claims:  # ended meanwhile
                    continue
                if any(self._holder.get(i) == p.request_id and self._tickets[i].expires > by
                       for i in p.ticket_ids):
                    self._claims[p.request_id] = (now + delay, p)
                    self._claims_changed.add(p.request_id)
                else:
                    self._release(p)

    def _end_claim(self, p: Proposal) -> list[Ticket | None]:
        """Drops the claim; the proposal's tickets in seat order, None where this claim
        does not hold the ticket (any more)."""
        self._claims.pop(p.request_id, None)
        self._claims_changed.add(p.request_id)
        held: list[Ticket | None] = []
        for i in p.ticket_ids:
            mine = self._holder.get(i) == p.request_id
            if mine:
                del self._holder[i]
                self._changed.add(i)
            held.append(self._tickets[i] if mine else None)
        return held

    def stale_claims(self, now: float, lease: float) -> list[Proposal]:
        with self._change():
            stale = [p for end, p in self._claims.values() if end <= now]
            for p in stale:
                self._claims[p.request_id] = (now + lease, p)
                self._claims_changed.add(p.request_id)
            return stale

    def expire(self, now: float) -> int:
        with self._change():
            due = [t for i in self._searching if (t := self._tickets[i]).expires <= now]
            for t in due:
                self._finish(t, EXPIRED)
            self._forget_ended()
            return len(due)

    def watch(self, ticket_id: str) -> AbstractContextManager[Watch]:
        return self._notifier.watch(ticket_id)

    def _put(self, t: Ticket) -> Ticket:
        self._tickets[t.ticket_id] = t
        self._changed.add(t.ticket_id)
        self._notifier.notify(t.ticket_id)
        return t

    def _finish(self, t: Ticket, status: str, **changes: object) -> Ticket:
        self._searching.pop(t.ticket_id, None)
        self._open.get(t.player_id, set()).discard(t.ticket_id)
        forget_at = self._clock() + self._retain
        self._ended.append((forget_at, t.ticket_id))
        self._forget_at[t.ticket_id] = forget_at
        return self._put(t.with_status(status, **changes))

    def _forget_ended(self) -> None:
        now = self._clock()
        while self._ended and self._ended[0][0] <= now:
            ticket_id = self._ended.popleft()[1]
            t = self._tickets.pop(ticket_id)
            self._forget_at.pop(ticket_id, None)
            self._changed.add(ticket_id)
            self._idem.pop(self._idem_of.pop(ticket_id), None)
            if not self._open.get(t.player_id):
                self._open.pop(t.player_id, None)

    # ----- the journal --------------------------------------------------------------------
    @contextmanager
    def _change(self) -> Iterator[None]:
        """The lock, for a call that may change tickets or claims: what it changed is
        written to the journal before the lock is let go. Should that fail, the call fails
        (unacknowledged), and the next change writes it again."""
        with self._lock:
            try:
                yield
            finally:
                self._write_through()

    def _write_through(self) -> None:
        if self._journal is None or not (self._changed or self._claims_changed):
            self._changed.clear()  # nothing to keep them for (no journal), or nothing changed
            self._claims_changed.clear()
            return
        kept = [i for i in self._changed if i in self._tickets]
        claims = [i for i in self._claims_changed if i in self._claims]
        self._journal.write(
            [Kept(self._tickets[i], self._idem_of[i][1], self._holder.get(i),
                  self._forget_at.get(i)) for i in kept],
            [i for i in self._changed if i not in self._tickets],
            [self._claims[i] for i in claims],
            [i for i in self._claims_changed if i not in self._claims])
        self._changed.clear()
        self._claims_changed.clear()

    def recover(self) -> None:
        """Read back what the journal kept (once; later calls do nothing)."""
        with self._lock:
            if self._recovered or self._journal is None:
                return
            tickets, claims = self._journal.load()
            for k in tickets:  # oldest first, as they were opened
                t = k.ticket
                self._tickets[t.ticket_id] = t
                key = (t.player_id, k.request_id)
                self._idem[key], self._idem_of[t.ticket_id] = t.ticket_id, key
                if t.status == SEARCHING:
                    self._searching[t.ticket_id] = None
                if not t.final:
                    self._open.setdefault(t.player_id, set()).add(t.ticket_id)
                if k.claim is not None:
                    self._holder[t.ticket_id] = k.claim
                if k.forget_at is not None:
                    self._forget_at[t.ticket_id] = k.forget_at
            self._ended = deque(sorted((at, i) for i, at in self._forget_at.items()))
            self._claims = {p.request_id: (end, p) for end, p in claims}
            self._recovered = True
