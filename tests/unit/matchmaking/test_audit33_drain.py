"""MatchmakingServicer.close(), run as a stopping server begins to drain: every wait on a
ticket ends at once (see tests/integration/test_matchmaking_audit33_drain.py for the
streams over gRPC). The servicer called directly over the in-memory store."""

import threading
import time

from partida.matchmaking.matcher import ConstantRatings
from partida.matchmaking.service import MatchmakingServicer
from partida.matchmaking.store import MemoryTicketStore
from partida.platform import errors
from partida.v1 import matchmaking_pb2 as pb
from tests.unit.matchmaking.factory import CATALOG
from tests.unit.matchmaking.store_contract import pair
from tests.unit.matchmaking.test_seek import seek_request
from tests.unit.matchmaking.test_service import (
    Context,
    as_player,
    open_ticket,
    servicer,
    streaming,
    wait_for,
    watching,
)


def follow_until_unavailable(player, stream):
    """Runs the servicer stream `stream(context)` on a thread: the thread, the context (for
    the test to end the call), the tickets sent, and the UNAVAILABLE it ended with, if so."""
    context, ended = Context(), []

    def run():
        try:
            yield from stream(context)
        except errors.Unavailable as e:
            ended.append(e)

    thread, seen = streaming(player, run)
    return thread, context, seen, ended


def test_a_watch_ends_unavailable_when_the_server_stops():
    s = servicer(MemoryTicketStore(), poll_seconds=5)
    t = open_ticket(s, "ann")
    thread, context, seen, ended = follow_until_unavailable(
        "ann", lambda c: s.WatchTicket(pb.WatchTicketRequest(ticket_id=t.ticket_id), c))
    try:
        wait_for(lambda: seen)
        started = time.monotonic()
        s.close()
        thread.join(5)
        assert not thread.is_alive() and time.monotonic() - started < 2
        assert len(seen) == 1 and len(ended) == 1
    finally:
        context.active = False  # should it still run (the old code did)


def test_a_seek_after_the_close_sends_its_ticket_then_ends_unavailable():
    """The ticket is opened (a retry with the same request id follows it elsewhere)."""
    store = MemoryTicketStore()
    s = servicer(store, poll_seconds=5)
    s.close()
    thread, context, seen, ended = follow_until_unavailable(
        "ann", lambda c: s.SeekMatch(seek_request(), c))
    try:
        thread.join(2)
        assert not thread.is_alive()
        assert [t.status for t in seen] == [pb.TICKET_STATUS_SEARCHING] and len(ended) == 1
        assert len(store.searching()) == 1
    finally:
        context.active = False


def test_a_ticket_ended_meanwhile_is_still_told_rather_than_unavailable():
    store = MemoryTicketStore()
    s = servicer(store, poll_seconds=60)
    t = open_ticket(s, "ann")
    thread, seen = watching(s, "ann", t.ticket_id, Context())
    wait_for(lambda: seen)
    store.cancel(t.ticket_id)
    s.close()
    thread.join(5)
    assert [m.status for m in seen] == [pb.TICKET_STATUS_SEARCHING,
                                        pb.TICKET_STATUS_CANCELLED]


def test_a_cancel_waiting_on_a_claim_answers_at_once_when_the_server_stops():
    """ABORTED (retry), without waiting for the claim's outcome."""
    store = MemoryTicketStore()
    s = MatchmakingServicer(store, ConstantRatings(), ticket_ttl_seconds=60, catalog=CATALOG,
                            poll_seconds=60, cancel_wait_seconds=30)
    a, b = open_ticket(s, "ann"), open_ticket(s, "bob")
    assert store.claim([pair(a.ticket_id, b.ticket_id)], time.time(), 30) == [True]
    outcome = []

    def cancel():
        try:
            as_player("ann", s.CancelTicket, pb.CancelTicketRequest(ticket_id=a.ticket_id))
        except errors.ServiceError as e:
            outcome.append(e)

    thread = threading.Thread(target=cancel)
    thread.start()
    time.sleep(0.2)  # the cancel waits on the claim
    started = time.monotonic()
    s.close()
    thread.join(5)
    assert time.monotonic() - started < 2
    assert [type(e) for e in outcome] == [errors.Aborted]
