"""partida.v1.MatchmakingService: a thin gRPC layer over a TicketStore.

It validates requests and checks ownership; forming matches is the Matcher's job. Every
ticket belongs to the player named by the caller's token, and only that player sees it.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import partida.engine
from partida.matchmaking.campaigns import CampaignSource, check_ticket
from partida.matchmaking.matcher import RatingSource
from partida.matchmaking.pools import Table, catalog_of
from partida.matchmaking.store.base import TicketStore, TooManyOpen
from partida.matchmaking.tickets import (
    ASSIGNED,
    CANCELLED,
    CLAIMED,
    EXPIRED,
    FAILED,
    Ticket,
    to_proto,
)
from partida.platform import errors
from partida.platform.auth import require_player
from partida.platform.calls import caller
from partida.platform.notify import Watch
from partida.platform.server import Registration
from partida.platform.validation import identifier
from partida.v1 import matchmaking_pb2 as pb
from partida.v1 import matchmaking_pb2_grpc

log = logging.getLogger("partida.matchmaking")

# A cancel held by a claim answers this long (at most half the time left) before the
# caller's deadline, so that its answer arrives in time.
CANCEL_ANSWER_MARGIN = 0.25


class MatchmakingServicer(matchmaking_pb2_grpc.MatchmakingServiceServicer):
    """catalog defaults to the engine's registered games. poll_seconds bounds how stale a
    WatchTicket stream can get if a change notification is lost: a last resort (the stores
    wake every follower when they may have missed one), so it is long, each re-read costing a
    store read per open stream; cancel_wait_seconds is how long CancelTicket waits for a
    matcher's claim on the ticket to resolve."""

    def __init__(self, store: TicketStore, ratings: RatingSource, *,
                 ticket_ttl_seconds: float, max_open_tickets: int = 5,
                 catalog: Mapping[str, tuple[Table, ...]] | None = None,
                 clock: Callable[[], float] = time.time, poll_seconds: float = 5.0,
                 cancel_wait_seconds: float = 5.0,
                 campaigns: CampaignSource | None = None) -> None:
        self._store, self._ratings, self._clock = store, ratings, clock
        self._campaigns = campaigns  # None: campaign tickets are refused
        self._ttl = ticket_ttl_seconds
        self._max_open = max_open_tickets
        self._catalog = catalog if catalog is not None else catalog_of(
            g.info for g in partida.engine.all_games())
        self._poll = poll_seconds
        self._cancel_wait = cancel_wait_seconds
        self._closing = False
        self._waits: set[Watch] = set()  # the streams' and cancels' waits on their tickets
        self._waits_lock = threading.Lock()

    def close(self) -> None:
        """The server is stopping: every SeekMatch and WatchTicket stream ends now,
        UNAVAILABLE, to be opened again once a server is back (the client retries it), and a
        cancel waiting on a claim answers at once. Else each of them held the shutdown for
        the whole drain grace, waiting for a change that may never come."""
        with self._waits_lock:
            self._closing = True
            waits = list(self._waits)
        for w in waits:
            w.wake()

    @contextmanager
    def _following(self, ticket_id: str) -> Iterator[Watch]:
        """The store's watch of the ticket (see TicketStore.watch), which close() wakes."""
        with self._store.watch(ticket_id) as changes:
            with self._waits_lock:
                self._waits.add(changes)
            try:
                yield changes
            finally:
                with self._waits_lock:
                    self._waits.discard(changes)

    def CreateTicket(self, request: pb.CreateTicketRequest, context: Any
                     ) -> pb.CreateTicketResponse:
        new = self._new(request, require_player(caller()).subject)
        return pb.CreateTicketResponse(ticket=to_proto(self._open(new, request.request_id)))

    def SeekMatch(self, request: pb.SeekMatchRequest, context: Any
                  ) -> Iterator[pb.SeekMatchResponse]:
        player = require_player(caller()).subject  # who asks comes before what is asked
        if not request.HasField("ticket"):
            raise errors.InvalidArgument("ticket is required")
        new = self._new(request.ticket, player)
        with self._following(new.ticket_id) as changes:  # before it exists: no change missed
            opened = self._open(new, request.ticket.request_id)
            if opened.ticket_id == new.ticket_id:
                follow = self._follow(opened, changes, context)
            else:  # a repeat: the first call's ticket, read afresh under a watch of its own
                follow = self._watch(opened.ticket_id, context)
            for t in follow:
                yield pb.SeekMatchResponse(ticket=t)

    def _new(self, request: pb.CreateTicketRequest, player: str) -> Ticket:
        """The ticket `request` asks for `player`, checked, not yet stored."""
        seats = self._seats(request)
        identifier("request_id", request.request_id)
        self._campaign(request, player)
        rating = self._rating(player, request.game_id)
        now = self._clock()
        return Ticket(uuid.uuid4().hex, player, request.game_id, request.scenario_id, seats,
                      request.fill_with_bots, rating, created=now, expires=now + self._ttl,
                      campaign_id=request.campaign_id, campaign_team=request.campaign_team)

    def _open(self, ticket: Ticket, request_id: str) -> Ticket:
        """Stores the ticket, or returns the one its player opened with `request_id`."""
        try:
            return self._store.create(ticket, request_id, self._max_open)
        except TooManyOpen:
            raise errors.ResourceExhausted(
                f"a player may have at most {self._max_open} open tickets; cancel one first"
            ) from None

    def _campaign(self, request: pb.CreateTicketRequest, player: str) -> None:
        """A campaign ticket names its scenario and the player's team in the campaign."""
        campaign_id = identifier("campaign_id", request.campaign_id, required=False)
        team = identifier("campaign_team", request.campaign_team, required=bool(campaign_id))
        if not campaign_id:
            if team:
                raise errors.InvalidArgument("campaign_team needs a campaign_id")
            return
        if not request.scenario_id:
            raise errors.InvalidArgument("a campaign ticket names its scenario")
        if self._campaigns is None:
            raise errors.FailedPrecondition("this server does not keep campaigns")
        try:
            campaign = self._campaigns.campaign(campaign_id)
        except errors.ServiceError:
            raise
        except Exception:  # e.g. the persistence service is down: a retry may succeed
            log.exception("reading campaign %s failed", campaign_id)
            raise errors.Unavailable("campaigns are unavailable; retry later") from None
        check_ticket(campaign, request.game_id, request.scenario_id, player, team)

    def _rating(self, player: str, game_id: str) -> float:
        try:
            return self._ratings.rating(player, game_id)
        except Exception:  # e.g. the persistence service is down: a retry may succeed
            log.exception("reading the rating of %s in %s failed", player, game_id)
            raise errors.Unavailable("ratings are unavailable; retry later") from None

    def _seats(self, request: pb.CreateTicketRequest) -> int:
        """The table size asked for (0: the smallest), checked against the scenarios."""
        # Checked as ids first: the refusals below quote them, and a status message quoting
        # a huge one overflows gRPC's metadata limit (the client saw RESOURCE_EXHAUSTED).
        identifier("game_id", request.game_id)
        identifier("scenario_id", request.scenario_id, required=False)
        tables = self._catalog.get(request.game_id)
        if not tables:
            raise errors.InvalidArgument(f"unknown game {request.game_id!r}")
        if request.scenario_id:
            tables = tuple(t for t in tables if t.scenario_id == request.scenario_id)
            if not tables:
                raise errors.InvalidArgument(f"game {request.game_id!r} has no scenario "
                                      f"{request.scenario_id!r}")
        seats = request.seats or min(t.min_seats for t in tables)
        if not any(t.min_seats <= seats <= t.max_seats for t in tables):
            ranges = ", ".join(f"{t.scenario_id}: {t.min_seats}-{t.max_seats}" for t in tables)
            raise errors.InvalidArgument(f"{request.seats} seats is not a table size ({ranges})")
        return seats

    def GetTicket(self, request: pb.GetTicketRequest, context: Any) -> pb.GetTicketResponse:
        return pb.GetTicketResponse(ticket=to_proto(self._owned(request.ticket_id)))

    def CancelTicket(self, request: pb.CancelTicketRequest, context: Any
                     ) -> pb.CancelTicketResponse:
        self._owned(request.ticket_id)
        t = self._cancel(request.ticket_id, context)
        if t.status == ASSIGNED:
            raise errors.FailedPrecondition(f"the ticket was assigned to match {t.match_id}")
        if t.status == EXPIRED:
            raise errors.FailedPrecondition("the ticket has expired")
        if t.status == FAILED:
            raise errors.FailedPrecondition(f"the ticket failed: {t.failure}")
        if t.status == CLAIMED:
            raise errors.Aborted("the ticket is being matched right now; retry")
        assert t.status == CANCELLED
        return pb.CancelTicketResponse(ticket=to_proto(t))

    def _cancel(self, ticket_id: str, context: Any) -> Ticket:
        """Cancels; while a matcher holds the ticket, waits (a while) to learn whether it
        was matched or released, rather than answering the caller "maybe". The wait ends
        before the caller's own deadline, so that a caller in a hurry hears ABORTED (retry)
        rather than DEADLINE_EXCEEDED, which would not say whether the cancel took."""
        wait = self._cancel_wait
        left = context.time_remaining() if context is not None else None
        if left is not None:
            wait = min(wait, left - min(CANCEL_ANSWER_MARGIN, left / 2))
        deadline = time.monotonic() + wait
        with self._following(ticket_id) as changes:
            while True:
                t = self._store.cancel(ticket_id)
                if t is None:
                    raise errors.NotFound(f"no ticket {ticket_id!r}")
                left = deadline - time.monotonic()
                if t.status != CLAIMED or left <= 0 or self._closing:
                    return t
                changes.wait(min(left, self._poll))

    def WatchTicket(self, request: pb.WatchTicketRequest, context: Any
                    ) -> Iterator[pb.WatchTicketResponse]:
        for t in self._watch(request.ticket_id, context):
            yield pb.WatchTicketResponse(ticket=t)

    def _watch(self, ticket_id: str, context: Any) -> Iterator[pb.Ticket]:
        with self._following(ticket_id) as changes:  # before the first read
            yield from self._follow(self._owned(ticket_id), changes, context)

    def _follow(self, t: Ticket | None, changes: Watch, context: Any) -> Iterator[pb.Ticket]:
        """The ticket as it is (`t`), then after each change, until it is final or the caller
        has gone (or the server stops: UNAVAILABLE)."""
        context.add_callback(changes.wake)  # the call ending wakes the wait
        last = None
        ticket_id = t.ticket_id if t is not None else ""
        while context.is_active():
            if t is None:  # gone before it was final: the store came back empty (a Redis
                # restarted without persistence, or flushed), which a stream ending as if all
                # were well would hide from the player
                raise errors.NotFound(f"ticket {ticket_id!r} is lost: the matchmaking store "
                                      "no longer holds it; open a new ticket")
            ticket = to_proto(t)
            if ticket != last:  # claims come and go unseen: same public form
                yield ticket
                last = ticket
            if t.final:
                return
            if self._closing:
                raise errors.stopping("ticket")
            changes.wait(self._poll)
            t = self._store.get(t.ticket_id)

    def _owned(self, ticket_id: str) -> Ticket:
        player = require_player(caller()).subject
        # An overlong id is refused here, not quoted in NOT_FOUND (past gRPC's metadata limit)
        identifier("ticket_id", ticket_id)
        t = self._store.get(ticket_id)
        if t is None:
            raise errors.NotFound(f"no ticket {ticket_id!r}")
        if t.player_id != player:
            raise errors.PermissionDenied("the ticket belongs to another player")
        return t


def registration(servicer: MatchmakingServicer) -> Registration:
    """The service, ready for partida.platform.server.Server."""
    return Registration("partida.v1.MatchmakingService", servicer,
                        matchmaking_pb2_grpc.add_MatchmakingServiceServicer_to_server)
