"""The ticket store contract (both stores tell followers of changes with platform/notify).

A ticket's life: SEARCHING -> CLAIMED (a matcher holds it while the match is created) ->
ASSIGNED or FAILED, or back to SEARCHING when the claim is released; SEARCHING -> CANCELLED
or EXPIRED. A claim also records its proposal with a lease, so that if the claiming matcher
dies another one can finish the same proposal (same request id, hence the same match) instead
of leaving the tickets stuck; a claim postponed is finished the same way, sooner.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from partida.matchmaking.pools import Proposal
from partida.matchmaking.tickets import Ticket
from partida.platform.notify import Watch


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

    def postpone(self, proposals: Sequence[Proposal], now: float, delay: float,
                 expired_by: float | None = None) -> None:
        """Keep each claim, for stale_claims to hand out again `delay` seconds after `now`;
        a claim whose tickets had all expired by `expired_by` (default: `now`) is released
        instead (the next sweep expires them)."""
        ...

    def fail(self, refused: Sequence[tuple[Proposal, str]]) -> None:
        """End each refused proposal's claimed tickets as FAILED, with the reason given;
        ends the claims."""
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
