"""SeekMatch (open a ticket and follow it in one call), the servicer called directly over
the in-memory store; over gRPC and Redis in tests/integration/test_matchmaking_grpc.py."""

import pytest

from partida.matchmaking.matcher import Matcher
from partida.matchmaking.store import MemoryTicketStore
from partida.platform import errors
from partida.v1 import matchmaking_pb2 as pb
from tests.unit.matchmaking.factory import POLICY, RecordingCreator
from tests.unit.matchmaking.test_service import (
    Context,
    as_player,
    open_ticket,
    servicer,
    streaming,
    wait_for,
)

SEARCHING, ASSIGNED = pb.TICKET_STATUS_SEARCHING, pb.TICKET_STATUS_ASSIGNED


def seek_request(request_id="r", game="quest"):
    return pb.SeekMatchRequest(ticket=pb.CreateTicketRequest(
        game_id=game, scenario_id="forest", seats=2, request_id=request_id))


def seek_all(s, player, request):
    """Every message of a SeekMatch run to its end (or its refusal)."""
    return as_player(player, lambda r, c: list(s.SeekMatch(r, c)), request)


def seeking(s, player, request, context):
    return streaming(player, lambda: s.SeekMatch(request, context))


def test_seek_opens_a_ticket_and_streams_it_until_assigned():
    store = MemoryTicketStore()
    s = servicer(store)
    thread, seen = seeking(s, "ann", seek_request(), Context())
    wait_for(lambda: seen)
    assert seen[0].status == SEARCHING and seen[0].player_id == "ann"
    assert [t.ticket_id for t in store.searching()] == [seen[0].ticket_id]
    open_ticket(s, "bob")
    Matcher(store, RecordingCreator(), POLICY).tick()
    thread.join(5)
    assert [t.status for t in seen] == [SEARCHING, ASSIGNED] and not thread.is_alive()
    assert seen[1].ticket_id == seen[0].ticket_id and seen[1].match_id


class AssignsAtOnce(MemoryTicketStore):
    """A store whose matcher assigns a new ticket before its creator reads it back."""

    def __init__(self):
        super().__init__()
        self.matcher = Matcher(self, RecordingCreator(), POLICY)

    def create(self, ticket, request_id, max_open):
        created = super().create(ticket, request_id, max_open)
        self.matcher.tick()
        return created


def test_an_assignment_made_as_the_ticket_is_opened_is_not_missed():
    """The watch starts before the ticket exists: with the poll (the last resort) at 60 s,
    the stream still ends at once with the assignment."""
    store = AssignsAtOnce()
    s = servicer(store, poll_seconds=60)
    open_ticket(s, "bob")  # waiting alone (the matcher needs two)
    thread, seen = seeking(s, "ann", seek_request("r2"), Context())
    thread.join(5)
    assert not thread.is_alive()
    assert [t.status for t in seen] == [SEARCHING, ASSIGNED]


def test_a_repeated_seek_follows_the_ticket_the_first_one_opened():
    store = MemoryTicketStore()
    s = servicer(store)
    first_context = Context()
    thread, first = seeking(s, "ann", seek_request(), first_context)
    wait_for(lambda: first)
    first_context.active = False  # the first call's client went away
    thread.join(5)
    again_context = Context()
    thread, again = seeking(s, "ann", seek_request(), again_context)
    wait_for(lambda: again)
    again_context.active = False
    thread.join(5)
    assert again[0].ticket_id == first[0].ticket_id
    assert len(store.searching()) == 1


def test_a_ticket_opened_by_create_is_followed_by_a_seek_with_its_request_id():
    s = servicer(MemoryTicketStore())
    opened = open_ticket(s, "ann")  # request id "r"
    context = Context()
    thread, seen = seeking(s, "ann", seek_request("r"), context)
    wait_for(lambda: seen)
    context.active = False
    thread.join(5)
    assert seen[0].ticket_id == opened.ticket_id


@pytest.mark.parametrize("request_", [
    pb.SeekMatchRequest(),
    seek_request(game="nope"),
    seek_request(request_id=""),
    pb.SeekMatchRequest(ticket=pb.CreateTicketRequest(game_id="quest", seats=9,
                                                      request_id="r")),
])
def test_a_bad_seek_is_refused_and_opens_nothing(request_):
    store = MemoryTicketStore()
    with pytest.raises(errors.InvalidArgument):
        seek_all(servicer(store), "ann", request_)
    assert store.searching() == []


def test_a_seek_beyond_the_open_ticket_limit_is_refused():
    store = MemoryTicketStore()
    s = servicer(store, max_open=1)
    open_ticket(s, "ann")
    with pytest.raises(errors.ResourceExhausted):
        seek_all(s, "ann", seek_request("other"))
    assert len(store.searching()) == 1


def test_seek_needs_a_player():
    store = MemoryTicketStore()
    with pytest.raises(errors.ServiceError):
        list(servicer(store).SeekMatch(seek_request(), Context()))
    assert store.searching() == []
