"""The multi-process stack's rules service as the one public address (platform/forward.py):
clients' calls for the other services pass through with their statuses; internal calls do not."""

from __future__ import annotations

import urllib.request

import grpc
import pytest

from partida.cli.remote import Remote
from partida.devstack.stack import API_KEY
from partida.v1 import dice_pb2, matchmaking_pb2, persistence_pb2, players_pb2

from .conftest import _split


@pytest.fixture(scope="module")
def split(postgres_url):
    yield from _split(postgres_url, worker=False)


def test_public_calls_pass_through_with_the_other_services_statuses(split):
    front = Remote(split.address)  # every stub at the rules service's address
    player_id = front.login(API_KEY, "front-door-user")  # PlayersService, in persistence
    assert player_id
    with pytest.raises(grpc.RpcError) as missing:
        front.call(front.persistence, "GetMatchLog",
                   persistence_pb2.GetMatchLogRequest(match_id="0" * 32))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND  # persistence's own answer
    with pytest.raises(grpc.RpcError) as no_key:
        front.players.CreatePlayer(players_pb2.CreatePlayerRequest(display_name="x",
                                                                   external_id="x"))
    assert no_key.value.code() == grpc.StatusCode.UNAUTHENTICATED
    front.close()


def test_seek_match_streams_through_the_front_door(split):
    front = Remote(split.address)
    front.login(API_KEY, "front-door-seeker")
    stream = front.find_match("montanas", "standard", 2, False, "front-door-seek")
    ticket = next(stream)  # matchmaking's stream, passed on message by message
    assert ticket.status == matchmaking_pb2.TICKET_STATUS_SEARCHING and ticket.ticket_id
    front.call(front.matchmaking, "CancelTicket",
               matchmaking_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id))
    assert [t.status for t in stream] == [matchmaking_pb2.TICKET_STATUS_CANCELLED]
    with pytest.raises(grpc.RpcError) as bad:
        next(front.find_match("no-such-game", "", 2, False, "front-door-bad-seek"))
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # matchmaking's own answer
    front.close()


def test_internal_calls_are_not_served_at_the_front_door(split):
    front = Remote(split.address)
    front.login(API_KEY, "front-door-prober")
    for stub, method, request in [
            (front.persistence, "AppendLog", persistence_pb2.AppendLogRequest(match_id="m")),
            (front.dice, "Draw", dice_pb2.DrawRequest(match_id="m", count=1)),
            (front.dice, "Reveal", dice_pb2.RevealRequest(match_id="m"))]:
        with pytest.raises(grpc.RpcError) as refused:
            front.call(stub, method, request)
        assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED, method
    front.close()


def test_each_call_through_the_front_door_goes_on_with_its_own_callers_token(split):
    """The servers' interceptors wrap each method's handler once and reuse it for every call
    (platform/calls.PerMethod): the token passed on must still be this call's, not the
    first caller's."""
    players = [Remote(split.address) for _ in range(3)]
    ids = [p.login(API_KEY, f"front-door-caller-{i}") for i, p in enumerate(players)]
    for round_ in range(2):
        for remote, player_id in zip(players, ids, strict=True):
            ticket = remote.call(remote.matchmaking, "CreateTicket",
                                 matchmaking_pb2.CreateTicketRequest(
                                     game_id="montanas", scenario_id="standard", seats=4,
                                     request_id=f"own-token-{round_}")).ticket
            assert ticket.player_id == player_id  # opened for the caller who asked
            remote.call(remote.matchmaking, "CancelTicket",
                        matchmaking_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id))
    anonymous = Remote(split.address)  # after all those tokens, a call with none is refused
    with pytest.raises(grpc.RpcError) as refused:
        anonymous.call(anonymous.matchmaking, "CreateTicket",
                       matchmaking_pb2.CreateTicketRequest(game_id="montanas", seats=4,
                                                           request_id="no-token"))
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    for remote in (*players, anonymous):
        remote.close()


def test_only_the_methods_of_a_passed_service_are_served_at_the_front_door(split):
    """A service passed whole (matchmaking, players) was served under any method name: each
    made-up name got a handler kept for good by the server's interceptors and a series of
    its own in the front door's metrics, so a client making names up grew the rules process
    without end. A method its service does not have is now unknown at the front door."""
    front = Remote(split.address)
    front.login(API_KEY, "front-door-namer")
    channel = next(iter(front._channels.values()))
    for i in range(3):
        with pytest.raises(grpc.RpcError) as refused:
            channel.unary_unary(f"/partida.v1.MatchmakingService/MadeUp{i}")(
                b"", metadata=front.metadata, timeout=10)
        assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
    with urllib.request.urlopen(f"http://{split.metrics['rules']}/metrics", timeout=10) as r:
        assert "MadeUp" not in r.read().decode()
    front.close()
