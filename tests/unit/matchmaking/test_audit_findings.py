"""Bugs found auditing matchmaking, each reproduced here before it was fixed."""

import grpc
import pytest

from partida.matchmaking.matcher import ConstantRatings, Matcher
from partida.matchmaking.pools import form_matches
from partida.matchmaking.service import MatchmakingServicer, registration
from partida.matchmaking.store import MemoryTicketStore
from partida.platform import errors
from partida.platform.auth import Authority
from partida.platform.server import Server
from partida.v1 import matchmaking_pb2 as pb
from partida.v1.matchmaking_pb2_grpc import MatchmakingServiceStub
from tests.unit.matchmaking.factory import POLICY, RecordingCreator, ticket
from tests.unit.matchmaking.test_service import Context, as_player, servicer

LONG = "x" * 129  # one past validation.MAX_ID


def groups(proposals):
    return [p.ticket_ids for p in proposals]


def test_a_player_with_two_tickets_is_never_seated_twice_at_one_table():
    """Two open tickets of one player in one pool were put at the same table: the player
    was matched against themselves. Now the oldest other player's ticket joins instead, and
    the player's second ticket waits for another table."""
    tickets = [ticket("a1", created=0, player="ann"), ticket("a2", created=1, player="ann"),
               ticket("b", created=2, player="bob")]
    assert groups(form_matches(tickets, 3, POLICY)) == [("a1", "b")]
    tickets.append(ticket("c", created=3, player="cy"))
    assert groups(form_matches(tickets, 4, POLICY)) == [("a1", "b"), ("a2", "c")]


def test_a_lone_player_with_two_tickets_is_not_matched_with_themselves_end_to_end():
    """Through the servicer, the in-memory store and a matcher tick: two tickets of ann
    alone make no match (before the fix: one match, ann against ann)."""
    store = MemoryTicketStore()
    s = servicer(store)
    for request_id in ("r1", "r2"):
        as_player("ann", s.CreateTicket, pb.CreateTicketRequest(
            game_id="quest", scenario_id="forest", seats=2, request_id=request_id))
    creator = RecordingCreator()
    assert Matcher(store, creator, POLICY).tick() == 0
    assert creator.by_match() == {} and len(store.searching()) == 2


def test_a_player_skipped_at_a_bot_table_gets_a_table_of_their_own():
    """With bots, each of a player's tickets fills its own table with bots rather than
    taking the player's other ticket as the opponent."""
    tickets = [ticket("a1", created=0, player="ann", bots=True),
               ticket("a2", created=1, player="ann", bots=True)]
    proposals = form_matches(tickets, 60, POLICY)
    assert [(p.ticket_ids, p.bot_seats) for p in proposals] == [(("a1",), 1), (("a2",), 1)]


@pytest.mark.parametrize("method, request_", [
    ("GetTicket", pb.GetTicketRequest(ticket_id=LONG)),
    ("CancelTicket", pb.CancelTicketRequest(ticket_id=LONG)),
    ("GetTicket", pb.GetTicketRequest(ticket_id="t\x00")),
])
def test_an_overlong_or_unprintable_ticket_id_is_invalid_argument(method, request_):
    """Ticket ids were only checked for presence: an overlong one was quoted in full in a
    NOT_FOUND message."""
    with pytest.raises(errors.InvalidArgument):
        as_player("ann", getattr(servicer(MemoryTicketStore()), method), request_)


def test_watching_an_overlong_ticket_id_is_invalid_argument():
    """WatchTicket checks the id the same way."""
    s = servicer(MemoryTicketStore())
    with pytest.raises(errors.InvalidArgument):
        as_player("ann", lambda r, c: list(s.WatchTicket(r, c)),
                  pb.WatchTicketRequest(ticket_id=LONG), Context())


@pytest.mark.parametrize("fields", [
    {"game_id": LONG}, {"game_id": "quest", "scenario_id": LONG}, {"game_id": ""},
])
def test_an_overlong_game_or_scenario_id_is_invalid_argument_and_opens_nothing(fields):
    """game_id and scenario_id were looked up unchecked, and quoted in full when unknown."""
    store = MemoryTicketStore()
    with pytest.raises(errors.InvalidArgument):
        as_player("ann", servicer(store).CreateTicket,
                  pb.CreateTicketRequest(request_id="r", **fields))
    assert store.searching() == []


def test_over_grpc_a_huge_id_gets_invalid_argument_not_a_broken_stream():
    """The symptom over real gRPC: a refusal quoting a 20,000-character id overflowed the
    metadata limit, and the client saw RESOURCE_EXHAUSTED "Stream removed" instead of a
    clear INVALID_ARGUMENT."""
    authority = Authority("player-secret-for-tests-0123456789",
                          "service-secret-for-tests-012345", {})
    token = (("authorization", f"Bearer {authority.player_token('ann', 600)[0]}"),)
    servicer_ = MatchmakingServicer(MemoryTicketStore(), ConstantRatings(),
                                    ticket_ttl_seconds=60)
    server = Server([registration(servicer_)], authority, "127.0.0.1:0", max_workers=2)
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    try:
        stub = MatchmakingServiceStub(channel)
        huge = "x" * 20000
        for call, request in [
                (stub.GetTicket, pb.GetTicketRequest(ticket_id=huge)),
                (stub.CreateTicket, pb.CreateTicketRequest(game_id=huge, request_id="r"))]:
            with pytest.raises(grpc.RpcError) as e:
                call(request, metadata=token, timeout=10)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "longer than" in e.value.details()
    finally:
        channel.close()
        server.stop(0)
