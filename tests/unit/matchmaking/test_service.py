"""The servicer called directly over the in-memory store (the embedded server's set-up);
the gRPC surface itself is tested against Redis in tests/integration."""

import threading
import time

import pytest

from partida.matchmaking.matcher import ConstantRatings, Matcher
from partida.matchmaking.service import MatchmakingServicer
from partida.matchmaking.store import MemoryTicketStore
from partida.platform import errors
from partida.platform.auth import PLAYER, Principal
from partida.platform.calls import principal_var
from partida.v1 import matchmaking_pb2 as pb
from tests.unit.matchmaking.factory import CATALOG, POLICY, RecordingCreator


class Context:
    """The part of a gRPC servicer context the servicer uses."""

    def __init__(self, time_remaining=None):
        self.active = True
        self.callbacks = []
        self.left = time_remaining  # None: the call has no deadline

    def time_remaining(self):
        return self.left

    def is_active(self):
        return self.active

    def add_callback(self, callback):
        self.callbacks.append(callback)
        return True


def as_player(player, method, request, context=None):
    token = principal_var.set(Principal(PLAYER, player))
    try:
        return method(request, context or Context())
    finally:
        principal_var.reset(token)


def servicer(store, ratings=None, poll_seconds=0.05, max_open=5):
    return MatchmakingServicer(store, ratings or ConstantRatings(), ticket_ttl_seconds=60,
                               catalog=CATALOG, poll_seconds=poll_seconds,
                               max_open_tickets=max_open)


def open_ticket(s, player):
    request = pb.CreateTicketRequest(game_id="quest", scenario_id="forest", seats=2,
                                     request_id="r")
    return as_player(player, s.CreateTicket, request).ticket


class BrokenRatings:
    def rating(self, player_id, game_id):
        raise ConnectionError("persistence is down")


def test_ratings_out_of_reach_make_create_unavailable():
    store = MemoryTicketStore()
    with pytest.raises(errors.Unavailable):
        open_ticket(servicer(store, BrokenRatings()), "ann")
    assert store.searching() == []


def streaming(player, stream):
    """Runs the servicer stream `stream()` as `player` on a thread, as gRPC would; returns
    the thread and the tickets it has sent so far."""
    seen = []

    def run():
        token = principal_var.set(Principal(PLAYER, player))
        try:
            seen.extend(m.ticket for m in stream())
        finally:
            principal_var.reset(token)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, seen


def watching(s, player, ticket_id, context):
    return streaming(player, lambda: s.WatchTicket(pb.WatchTicketRequest(ticket_id=ticket_id),
                                                   context))


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_watch_over_the_memory_store_sees_the_assignment():
    store = MemoryTicketStore()
    s = servicer(store)
    t = open_ticket(s, "ann")
    thread, seen = watching(s, "ann", t.ticket_id, Context())
    wait_for(lambda: seen)
    open_ticket(s, "bob")
    Matcher(store, RecordingCreator(), POLICY).tick()
    thread.join(5)
    assert [m.status for m in seen] == [pb.TICKET_STATUS_SEARCHING, pb.TICKET_STATUS_ASSIGNED]
    assert seen[-1].match_id and not thread.is_alive()


def test_watch_stops_once_the_client_has_gone():
    s = servicer(MemoryTicketStore())
    t = open_ticket(s, "ann")
    context = Context()
    thread, seen = watching(s, "ann", t.ticket_id, context)
    wait_for(lambda: seen)
    context.active = False
    thread.join(5)
    assert not thread.is_alive() and len(seen) == 1
