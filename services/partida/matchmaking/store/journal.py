"""The one-process server's tickets and claims, kept in its database beside its memory
(persistence.models TicketRecord and ClaimRecord). MemoryTicketStore writes each change
through before it answers and reads them all back when the process starts: a restart loses
no ticket it acknowledged, repeats of an opening call still find their ticket, and a table
claimed when the process stopped is created under the same request id once its lease runs
out (stale_claims), so its players are seated once."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from partida.matchmaking.pools import Proposal
from partida.matchmaking.tickets import Ticket
from partida.persistence import models
from partida.persistence.db import WRITE

_TICKETS = models.table(models.TicketRecord)
_CLAIMS = models.table(models.ClaimRecord)
_FIELDS = frozenset(f.name for f in dataclasses.fields(Ticket))


@dataclass(frozen=True)
class Kept:
    """A ticket as kept: with its opening call's request id, the request id of the claim
    holding it, and when it is forgotten once ended."""

    ticket: Ticket
    request_id: str
    claim: str | None = None
    forget_at: float | None = None


class TicketJournal:
    def __init__(self, engine: sa.Engine) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{WRITE: True})

    def load(self) -> tuple[list[Kept], list[tuple[float, Proposal]]]:
        """Every ticket kept, oldest first, and every claim with its lease's end."""
        with self._engine.connect() as conn:
            tickets = [Kept(_ticket(r.ticket_json), r.request_id, r.claim, r.forget_at)
                       for r in conn.execute(sa.select(_TICKETS))]
            claims = [(r.lease_end, Proposal.from_json(r.proposal_json))
                      for r in conn.execute(sa.select(_CLAIMS))]
        tickets.sort(key=lambda k: (k.ticket.created, k.ticket.ticket_id))
        return tickets, claims

    def write(self, tickets: Sequence[Kept], tickets_gone: Sequence[str],
              claims: Sequence[tuple[float, Proposal]], claims_gone: Sequence[str]) -> None:
        """One change, in one transaction: the tickets and claims as they are now, and those
        no longer kept."""
        with self._writer.begin() as conn:
            ticket_ids = [k.ticket.ticket_id for k in tickets] + list(tickets_gone)
            claim_ids = [p.request_id for _, p in claims] + list(claims_gone)
            if ticket_ids:
                conn.execute(sa.delete(_TICKETS).where(_TICKETS.c.ticket_id.in_(ticket_ids)))
            if claim_ids:
                conn.execute(sa.delete(_CLAIMS).where(_CLAIMS.c.request_id.in_(claim_ids)))
            if tickets:
                conn.execute(sa.insert(_TICKETS), [
                    {"ticket_id": k.ticket.ticket_id, "request_id": k.request_id,
                     "ticket_json": json.dumps(dataclasses.asdict(k.ticket)),
                     "claim": k.claim, "forget_at": k.forget_at} for k in tickets])
            if claims:
                conn.execute(sa.insert(_CLAIMS), [
                    {"request_id": p.request_id, "lease_end": end,
                     "proposal_json": p.to_json()} for end, p in claims])


def _ticket(text: str) -> Ticket:
    # A ticket kept before a field was added lacks it: the field keeps its default.
    return Ticket(**{k: v for k, v in json.loads(text).items() if k in _FIELDS})
