"""Bounded response streams (platform/stream_slots): each open stream holds a server thread,
so streams beyond the bounds are refused at once, and the server keeps threads of its own for
other calls."""

from __future__ import annotations

import threading
import time
from collections import Counter

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from partida.matchmaking.matcher import ConstantRatings
from partida.matchmaking.service import MatchmakingServicer, registration
from partida.matchmaking.store import MemoryTicketStore
from partida.platform.auth import Authority
from partida.platform.errors import ResourceExhausted, Unavailable
from partida.platform.server import Server
from partida.platform.stream_slots import StreamSlots
from partida.v1 import matchmaking_pb2 as pb
from partida.v1.matchmaking_pb2_grpc import MatchmakingServiceStub

AUTHORITY = Authority("player-secret-for-tests-0123456789", "service-secret-for-tests-012345",
                      {})


def test_slots_bound_streams_in_all_and_per_player():
    slots = StreamSlots(total=3, per_player=2)
    slots.take("ann")
    slots.take("ann")
    with pytest.raises(ResourceExhausted):  # ann's quota: hers to free
        slots.take("ann")
    slots.take(None)  # a service: bound by the total only
    with pytest.raises(Unavailable):  # the server's: retry later
        slots.take("bob")
    slots.give("ann")
    slots.take("bob")
    assert slots.open == 3
    for owner in ("ann", None, "bob"):
        slots.give(owner)
    slots.take("ann")
    assert slots.open == 1


def auth(player):
    return (("authorization", f"Bearer {AUTHORITY.player_token(player, 86400)[0]}"),)


@pytest.fixture
def serve():
    servers = []

    def start(streams, per_player=16):
        servicer = MatchmakingServicer(MemoryTicketStore(), ConstantRatings(),
                                       ticket_ttl_seconds=600, poll_seconds=30)
        server = Server([registration(servicer)], AUTHORITY, "127.0.0.1:0",
                        max_workers=2, max_streams=streams, streams_per_player=per_player)
        server.start()
        channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
        servers.append((server, channel))
        return server, MatchmakingServiceStub(channel)

    yield start
    for server, channel in servers:
        channel.close()
        server.stop(0)


def seek(stub, player, request_id="r"):
    """An open SeekMatch stream (a 2-seat table no one else wants: it waits), and its first
    message, or the status it was refused with."""
    stream = stub.SeekMatch(pb.SeekMatchRequest(ticket=pb.CreateTicketRequest(
        game_id="montanas", scenario_id="standard", seats=2, request_id=request_id)),
        metadata=auth(player), timeout=30)
    try:
        return stream, next(stream).ticket
    except grpc.RpcError as e:
        return stream, e.code()


def wait_for(condition):
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_full_server_refuses_a_stream_yet_answers_other_calls(serve):
    server, stub = serve(streams=2)  # and 2 threads for other calls
    first, ticket = seek(stub, "ann")
    second, _ = seek(stub, "bob")  # kept: a stream dropped by its caller ends
    _, code = seek(stub, "carl")
    assert code == grpc.StatusCode.UNAVAILABLE
    got = stub.GetTicket(pb.GetTicketRequest(ticket_id=ticket.ticket_id), metadata=auth("ann"),
                         timeout=5)  # a thread was kept for it
    assert got.ticket == ticket
    first.cancel()  # a closed stream gives its slot back (at once: its wait is woken)
    wait_for(lambda: server.streams.open == 1)
    _, again = seek(stub, "carl", "r2")
    assert again.status == pb.TICKET_STATUS_SEARCHING and second.is_active()


def test_one_player_may_hold_only_so_many_streams(serve):
    _, stub = serve(streams=14, per_player=1)
    kept, mine = seek(stub, "ann")
    _, code = seek(stub, "ann", "r2")
    assert mine.status == pb.TICKET_STATUS_SEARCHING
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    _, theirs = seek(stub, "bob")
    assert theirs.status == pb.TICKET_STATUS_SEARCHING and kept.is_active()


def test_health_watches_hold_slots_too(serve):
    """A health watch needs no token, and holds a thread like any stream: it is bounded."""
    server, stub = serve(streams=2)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    health = health_pb2_grpc.HealthStub(channel)
    request = health_pb2.HealthCheckRequest(service="")
    watches = [health.Watch(request, timeout=30) for _ in range(2)]
    assert [next(w).status for w in watches] == [health_pb2.HealthCheckResponse.NOT_SERVING] * 2
    with pytest.raises(grpc.RpcError) as refused:
        next(health.Watch(request, timeout=30))
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    assert health.Check(request, timeout=5).status == health_pb2.HealthCheckResponse.NOT_SERVING
    _, code = seek(stub, "ann")
    assert code == grpc.StatusCode.UNAVAILABLE
    for w in watches:
        w.cancel()
    channel.close()


def test_the_client_cli_waits_for_a_free_stream(serve):
    """partida client play seeks with the same request id again while the server is full."""
    from partida.cli.remote import Remote

    server, stub = serve(streams=2)
    held = [seek(stub, p)[0] for p in ("ann", "bob")]
    remote = Remote(f"127.0.0.1:{server.port}")
    remote.metadata = auth("carl")
    found = remote.find_match("montanas", "standard", 2, False, "carl-1", retry_seconds=10)
    first: list = []
    waiting = threading.Thread(target=lambda: first.append(next(found)))
    waiting.start()
    time.sleep(0.5)
    assert not first  # refused so far, and retrying
    held[0].cancel()
    waiting.join(5)
    assert first and first[0].player_id == "carl" and first[0].status == pb.TICKET_STATUS_SEARCHING
    remote.close()
    held[1].cancel()


def test_the_client_cli_gives_up_after_its_retry_time(serve):
    from partida.cli.remote import Remote

    server, stub = serve(streams=2)
    held = [seek(stub, p)[0] for p in ("ann", "bob")]
    remote = Remote(f"127.0.0.1:{server.port}")
    remote.metadata = auth("carl")
    with pytest.raises(grpc.RpcError) as refused:
        next(remote.find_match("montanas", "standard", 2, False, "carl-1", retry_seconds=0.3))
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    remote.close()
    for stream in held:
        stream.cancel()


def first_of_health_watches(server: Server, burst: int) -> list:
    """Starts `server`, opens `burst` health watches on it at once, and gives each one's
    first message, or its refusal; then stops the server."""
    import asyncio

    async def watch_all() -> list:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest(service="")
            calls = [health.Watch(request, timeout=60) for _ in range(burst)]
            try:
                return await asyncio.gather(*(c.read() for c in calls),
                                            return_exceptions=True)
            finally:
                for c in calls:
                    c.cancel()

    server.start()
    try:
        return asyncio.run(watch_all())
    finally:
        server.stop(0)


def test_a_burst_of_streams_is_taken_up_not_cancelled():
    """Feeds reconnecting at once after a restart: gRPC cancels calls waiting for a thread
    beyond 1,000 unless told the server takes more (platform/server)."""
    burst = 1200
    server = Server([], AUTHORITY, "127.0.0.1:0", max_workers=2, max_streams=burst + 10)
    first = first_of_health_watches(server, burst)
    failed = [r for r in first if isinstance(r, Exception)]
    assert not failed, f"{len(failed)} of {burst} refused, e.g. {failed[0]!r}"
    assert {r.status for r in first} == {health_pb2.HealthCheckResponse.NOT_SERVING}


def test_a_burst_beyond_the_servers_streams_is_refused_unavailable_never_cancelled():
    """More streams at once than the server follows: those past its slots are refused
    UNAVAILABLE, which a client retries with backoff. gRPC itself sheds calls waiting for the
    server to take them up past its pending-call limits, answering CANCELLED, as if the
    client had given up; that happened to bursts of a few hundred calls on a small server
    (platform/server)."""
    burst, streams = 400, 4
    server = Server([], AUTHORITY, "127.0.0.1:0", max_workers=2, max_streams=streams)
    first = first_of_health_watches(server, burst)
    codes = [r.code() for r in first if isinstance(r, grpc.aio.AioRpcError)]
    assert len(first) - len(codes) == streams  # each slot serves one watch
    assert set(codes) == {grpc.StatusCode.UNAVAILABLE}, Counter(c.name for c in codes)
