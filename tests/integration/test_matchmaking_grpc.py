"""MatchmakingService over real gRPC (in-process server) and a real Redis store."""

import threading
import time
import uuid
from types import SimpleNamespace

import grpc
import pytest
import redis

from partida.matchmaking.matcher import ConstantRatings, Matcher
from partida.matchmaking.pools import Policy, catalog_of, form_matches
from partida.matchmaking.service import MatchmakingServicer, registration
from partida.matchmaking.store import RedisTicketStore
from partida.platform.auth import Authority
from partida.platform.server import Server
from partida.v1 import matchmaking_pb2 as pb
from partida.v1.matchmaking_pb2_grpc import MatchmakingServiceStub
from tests.unit.matchmaking.factory import RecordingCreator

AUTHORITY = Authority("player-secret-for-tests-0123456789", "service-secret-for-tests-012345",
                      {})
SEARCHING, ASSIGNED = pb.TICKET_STATUS_SEARCHING, pb.TICKET_STATUS_ASSIGNED
CANCELLED = pb.TICKET_STATUS_CANCELLED


def auth(player):
    return (("authorization", f"Bearer {AUTHORITY.player_token(player, 600)[0]}"),)


@pytest.fixture
def mm(redis_url):
    prefix = f"mm-{uuid.uuid4().hex[:8]}"
    store = RedisTicketStore(redis_url, prefix=prefix)
    servicer = MatchmakingServicer(store, ConstantRatings(1520.0), ticket_ttl_seconds=60,
                                   max_open_tickets=3, poll_seconds=0.2,
                                   cancel_wait_seconds=5)
    server = Server([registration(servicer)], AUTHORITY, "127.0.0.1:0", max_workers=8)
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    creator = RecordingCreator()
    matcher = Matcher(store, creator, Policy(catalog_of(_games())), workers=2)
    yield SimpleNamespace(stub=MatchmakingServiceStub(channel), store=store, creator=creator,
                          matcher=matcher, redis=redis.Redis.from_url(redis_url),
                          keys=lambda: redis.Redis.from_url(redis_url).keys(f"{prefix}:*"))
    channel.close()
    server.stop(0)
    matcher.stop()
    store.close()


def _games():
    import partida.engine

    return [g.info for g in partida.engine.all_games()]


def create(mm, player, request_id="r1", seats=2, **kw):
    request = pb.CreateTicketRequest(game_id="montanas", scenario_id="standard", seats=seats,
                                     request_id=request_id, **kw)
    return mm.stub.CreateTicket(request, metadata=auth(player)).ticket


def code_of(call, *args, **kw):
    with pytest.raises(grpc.RpcError) as e:
        call(*args, **kw)
    return e.value.code()


def test_a_ticket_is_opened_for_the_caller_and_read_back(mm):
    t = create(mm, "ann", fill_with_bots=True)
    assert (t.player_id, t.game_id, t.scenario_id, t.seats, t.status, t.rating) == (
        "ann", "montanas", "standard", 2, SEARCHING, 1520.0)
    assert t.fill_with_bots and t.expire_time.seconds - t.create_time.seconds == 60
    got = mm.stub.GetTicket(pb.GetTicketRequest(ticket_id=t.ticket_id), metadata=auth("ann"))
    assert got.ticket == t


def test_zero_seats_means_the_smallest_table_and_any_scenario_is_kept(mm):
    request = pb.CreateTicketRequest(game_id="montanas", request_id="r")
    t = mm.stub.CreateTicket(request, metadata=auth("ann")).ticket
    assert (t.scenario_id, t.seats) == ("", 1)


@pytest.mark.parametrize("change", [
    {"game_id": "nope"}, {"scenario_id": "nope"}, {"seats": 6}, {"seats": -1},
    {"request_id": ""}, {"request_id": "x" * 129},
])
def test_invalid_requests_are_refused_and_store_nothing(mm, change):
    fields = {"game_id": "montanas", "scenario_id": "standard", "seats": 2,
              "request_id": "r", **change}
    assert code_of(mm.stub.CreateTicket, pb.CreateTicketRequest(**fields),
                   metadata=auth("ann")) == grpc.StatusCode.INVALID_ARGUMENT
    assert mm.keys() == []


def test_a_token_is_required(mm):
    assert code_of(mm.stub.CreateTicket, pb.CreateTicketRequest(
        game_id="montanas", request_id="r")) == grpc.StatusCode.UNAUTHENTICATED


def test_create_is_idempotent_on_request_id(mm):
    first = create(mm, "ann", "same")
    assert create(mm, "ann", "same").ticket_id == first.ticket_id
    assert create(mm, "ann", "other").ticket_id != first.ticket_id
    assert create(mm, "bob", "same").ticket_id != first.ticket_id
    assert len(mm.store.searching()) == 3


def test_a_player_has_a_bounded_number_of_open_tickets(mm):
    tickets = [create(mm, "ann", f"r{i}") for i in range(3)]
    assert code_of(create, mm, "ann", "r3") == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert create(mm, "ann", "r0").ticket_id == tickets[0].ticket_id  # a retry still answers
    mm.stub.CancelTicket(pb.CancelTicketRequest(ticket_id=tickets[0].ticket_id),
                         metadata=auth("ann"))
    create(mm, "ann", "r3")


def test_only_the_owner_sees_or_cancels_a_ticket(mm):
    t = create(mm, "ann")
    for call, request in [(mm.stub.GetTicket, pb.GetTicketRequest),
                          (mm.stub.CancelTicket, pb.CancelTicketRequest)]:
        assert code_of(call, request(ticket_id=t.ticket_id),
                       metadata=auth("bob")) == grpc.StatusCode.PERMISSION_DENIED
        assert code_of(call, request(ticket_id="nope"),
                       metadata=auth("ann")) == grpc.StatusCode.NOT_FOUND
    stream = mm.stub.WatchTicket(pb.WatchTicketRequest(ticket_id=t.ticket_id),
                                 metadata=auth("bob"))
    assert code_of(next, stream) == grpc.StatusCode.PERMISSION_DENIED


def test_watch_follows_a_ticket_until_it_is_assigned(mm):
    t = create(mm, "ann")
    stream = mm.stub.WatchTicket(pb.WatchTicketRequest(ticket_id=t.ticket_id),
                                 metadata=auth("ann"), timeout=10)
    assert next(stream).ticket.status == SEARCHING
    create(mm, "bob")
    assert mm.matcher.tick() == 2
    assigned = next(stream).ticket
    assert (assigned.status, assigned.seat) == (ASSIGNED, 0)
    assert assigned.match_id in mm.creator.by_match()
    assert list(stream) == []  # the stream ends with the assignment
    assert code_of(mm.stub.CancelTicket, pb.CancelTicketRequest(ticket_id=t.ticket_id),
                   metadata=auth("ann")) == grpc.StatusCode.FAILED_PRECONDITION


def test_watch_ends_with_a_cancel(mm):
    t = create(mm, "ann")
    stream = mm.stub.WatchTicket(pb.WatchTicketRequest(ticket_id=t.ticket_id),
                                 metadata=auth("ann"), timeout=10)
    next(stream)
    mm.stub.CancelTicket(pb.CancelTicketRequest(ticket_id=t.ticket_id), metadata=auth("ann"))
    assert [m.ticket.status for m in stream] == [CANCELLED]


def test_a_watch_whose_ticket_is_lost_ends_with_not_found(mm):
    """A Redis flushed, or restarted without persistence, loses the searching tickets: their
    watchers are told so, instead of seeing their stream end as if all were well."""
    t = create(mm, "ann")
    stream = mm.stub.WatchTicket(pb.WatchTicketRequest(ticket_id=t.ticket_id),
                                 metadata=auth("ann"), timeout=10)
    assert next(stream).ticket.status == SEARCHING
    mm.redis.delete(*mm.keys())
    with pytest.raises(grpc.RpcError) as e:
        next(stream)
    assert e.value.code() == grpc.StatusCode.NOT_FOUND
    assert "open a new ticket" in e.value.details()


def test_watch_stops_when_the_client_goes_away(mm):
    t = create(mm, "ann")
    stream = mm.stub.WatchTicket(pb.WatchTicketRequest(ticket_id=t.ticket_id),
                                 metadata=auth("ann"))
    next(stream)
    watching = mm.store._notifier._watches  # the server-side follower, seen from inside
    assert t.ticket_id in watching
    stream.cancel()
    deadline = time.monotonic() + 5
    while t.ticket_id in watching and time.monotonic() < deadline:
        time.sleep(0.05)
    assert t.ticket_id not in watching


def seek(mm, player, request_id="s1", **kw):
    request = pb.SeekMatchRequest(ticket=pb.CreateTicketRequest(
        game_id="montanas", scenario_id="standard", seats=2, request_id=request_id, **kw))
    return mm.stub.SeekMatch(request, metadata=auth(player), timeout=10)


def test_seek_opens_a_ticket_and_follows_it_until_assigned(mm):
    stream = seek(mm, "ann")
    opened = next(stream).ticket
    assert (opened.status, opened.player_id, opened.rating) == (SEARCHING, "ann", 1520.0)
    got = mm.stub.GetTicket(pb.GetTicketRequest(ticket_id=opened.ticket_id),
                            metadata=auth("ann")).ticket
    assert got == opened
    bob = seek(mm, "bob")
    assert next(bob).ticket.status == SEARCHING
    assert mm.matcher.tick() == 2
    assert next(bob).ticket.status == ASSIGNED
    assigned = next(stream).ticket
    assert (assigned.ticket_id, assigned.status) == (opened.ticket_id, ASSIGNED)
    assert assigned.match_id in mm.creator.by_match()
    assert list(stream) == []


def test_a_repeated_seek_follows_the_first_ticket(mm):
    first = seek(mm, "ann", "same")
    opened = next(first).ticket
    first.cancel()
    again = seek(mm, "ann", "same")
    assert next(again).ticket.ticket_id == opened.ticket_id
    again.cancel()
    mm.stub.CancelTicket(pb.CancelTicketRequest(ticket_id=opened.ticket_id),
                         metadata=auth("ann"))


def test_a_bad_seek_is_refused_with_invalid_argument(mm):
    for request in [pb.SeekMatchRequest(),
                    pb.SeekMatchRequest(ticket=pb.CreateTicketRequest(game_id="nope",
                                                                      request_id="r"))]:
        stream = mm.stub.SeekMatch(request, metadata=auth("ann"), timeout=10)
        assert code_of(next, stream) == grpc.StatusCode.INVALID_ARGUMENT
    stream = mm.stub.SeekMatch(pb.SeekMatchRequest(), timeout=10)
    assert code_of(next, stream) == grpc.StatusCode.UNAUTHENTICATED
    assert mm.store.searching() == []


class SlowCreator(RecordingCreator):
    """Holds every creation until `go` is set, failing it if `fail_held` is set."""

    def __init__(self):
        super().__init__()
        self.go, self.holding, self.fail_held = threading.Event(), threading.Event(), False

    def create_match(self, *args):
        self.holding.set()
        self.go.wait(10)
        if self.fail_held:
            raise RuntimeError("rules service unavailable")
        return super().create_match(*args)


@pytest.mark.parametrize("fail", [False, True])
def test_cancel_during_a_claim_waits_for_its_outcome(mm, fail):
    """A cancel waits (cancel_wait_seconds) for the claim to end. A creation that failed
    keeps the claim (the match may have been made all the same; it is asked again later),
    so the cancel is refused with ABORTED when the wait runs out; it used to go through,
    the player perhaps seated in the match."""
    creator = SlowCreator()
    creator.fail_held = fail
    matcher = Matcher(mm.store, creator, Policy(catalog_of(_games())))
    t = create(mm, "ann")
    create(mm, "bob")
    ticking = threading.Thread(target=matcher.tick)
    ticking.start()
    assert creator.holding.wait(5)  # both tickets are claimed now
    threading.Timer(0.3, creator.go.set).start()
    cancel = pb.CancelTicketRequest(ticket_id=t.ticket_id)
    if fail:  # perhaps made all the same: the claim is kept, asked again later
        assert code_of(mm.stub.CancelTicket, cancel,
                       metadata=auth("ann")) == grpc.StatusCode.ABORTED
    else:  # the match is made: too late to cancel
        assert code_of(mm.stub.CancelTicket, cancel,
                       metadata=auth("ann")) == grpc.StatusCode.FAILED_PRECONDITION
    ticking.join()
    matcher.stop()


def test_a_cancel_held_by_a_claim_answers_before_the_callers_deadline(mm):
    """The cancel's wait for a claim (5 s here) ends before a shorter deadline of the
    caller's: ABORTED (retry) says the ticket was not cancelled, where DEADLINE_EXCEEDED
    would leave the caller not knowing whether it was."""
    policy = Policy(catalog_of(_games()))
    t = create(mm, "ann")
    create(mm, "bob")
    [p] = form_matches(mm.store.searching(), time.time(), policy)
    assert mm.store.claim([p], time.time(), 30.0) == [True]  # a matcher holds it
    assert code_of(mm.stub.CancelTicket, pb.CancelTicketRequest(ticket_id=t.ticket_id),
                   metadata=auth("ann"), timeout=1.5) == grpc.StatusCode.ABORTED
    got = mm.stub.GetTicket(pb.GetTicketRequest(ticket_id=t.ticket_id), metadata=auth("ann"))
    assert got.ticket.status == SEARCHING  # still held, not cancelled


def test_a_cancel_during_a_claim_left_by_a_dead_matcher_ends_in_bounded_time(mm):
    """A matcher died holding the claim: the cancel is refused (ABORTED: retry) once
    cancel_wait_seconds (5 s here) have passed, not held until the call's deadline, and the
    claim is finished by the next matcher after its lease, with the match the dead one
    made."""
    policy = Policy(catalog_of(_games()))
    t = create(mm, "ann")
    create(mm, "bob")
    [p] = form_matches(mm.store.searching(), time.time(), policy)
    assert mm.store.claim([p], time.time(), 30.0) == [True]
    [made] = mm.creator.create_matches([p])  # ... and the matcher died here
    started = time.monotonic()  # the call's own deadline (30 s) bounds the wait from above
    assert code_of(mm.stub.CancelTicket, pb.CancelTicketRequest(ticket_id=t.ticket_id),
                   metadata=auth("ann"), timeout=30) == grpc.StatusCode.ABORTED
    assert time.monotonic() - started > 4.5  # it waited for the claim's outcome first
    later = Matcher(mm.store, mm.creator, policy, clock=lambda: time.time() + 31)
    assert later.tick() == 2
    got = mm.stub.GetTicket(pb.GetTicketRequest(ticket_id=t.ticket_id), metadata=auth("ann"))
    assert (got.ticket.status, got.ticket.match_id) == (ASSIGNED, made)
    later.stop()
