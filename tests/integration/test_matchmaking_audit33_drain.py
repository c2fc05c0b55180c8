"""A stopping server (drain) held open SeekMatch and WatchTicket streams for its whole
grace: they waited for their ticket to change. MatchmakingServicer.close(), run as draining
begins (as Process.stop runs its `draining` hooks before stopping the server), ends them at
once with UNAVAILABLE, which clients retry. Over real gRPC, with the in-memory store and
with the Redis one."""

import threading
import time
import uuid

import grpc
import pytest

from partida.matchmaking.matcher import ConstantRatings
from partida.matchmaking.service import MatchmakingServicer, registration
from partida.matchmaking.store import MemoryTicketStore, RedisTicketStore
from partida.platform.server import Server
from partida.v1 import matchmaking_pb2 as pb
from partida.v1.matchmaking_pb2_grpc import MatchmakingServiceStub
from tests.integration.test_matchmaking_grpc import AUTHORITY, auth
from tests.unit.matchmaking.factory import CATALOG

GRACE = 20.0  # seconds the server would wait for its calls


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        yield MemoryTicketStore()
        return
    s = RedisTicketStore(request.getfixturevalue("redis_url"),
                         prefix=f"{{mm-{uuid.uuid4().hex[:8]}}}")
    yield s
    s.close()


def ticket_request(request_id):
    return pb.CreateTicketRequest(game_id="quest", scenario_id="forest", seats=2,
                                  request_id=request_id)


class Follower:
    """Reads a response stream on a thread: the tickets it sent, and how it ended."""

    def __init__(self, stream):
        self.tickets, self.code, self.details = [], None, ""
        self.first = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(stream,))
        self.thread.start()

    def _read(self, stream):
        try:
            for m in stream:
                self.tickets.append(m.ticket)
                self.first.set()
        except grpc.RpcError as e:
            self.code, self.details = e.code(), e.details()
        finally:
            self.first.set()


def test_a_stopping_server_ends_ticket_streams_at_once_with_unavailable(store):
    servicer = MatchmakingServicer(store, ConstantRatings(), ticket_ttl_seconds=300,
                                   catalog=CATALOG, poll_seconds=60)
    server = Server([registration(servicer)], AUTHORITY, "127.0.0.1:0", max_workers=8)
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    stub = MatchmakingServiceStub(channel)
    try:
        bob = stub.CreateTicket(ticket_request("w"), metadata=auth("bob")).ticket
        seeking = Follower(stub.SeekMatch(pb.SeekMatchRequest(ticket=ticket_request("s")),
                                          metadata=auth("ann")))
        watching = Follower(stub.WatchTicket(pb.WatchTicketRequest(ticket_id=bob.ticket_id),
                                             metadata=auth("bob")))
        assert seeking.first.wait(5) and watching.first.wait(5)
        assert [len(seeking.tickets), len(watching.tickets)] == [1, 1]
        started = time.monotonic()
        servicer.close()  # draining begins
        server.stop(GRACE)
        stopped = time.monotonic() - started
        for f in (seeking, watching):
            f.thread.join(5)
            assert (f.code, f.details) == (grpc.StatusCode.UNAVAILABLE,
                                           "the server is stopping; follow the ticket again "
                                           "shortly")
        assert stopped < 5  # not the grace
        # Nothing was lost: both tickets are still searching, for the next server to follow
        assert [store.get(t.ticket_id).status for t in (seeking.tickets[0], bob)] == [
            "SEARCHING", "SEARCHING"]
    finally:
        channel.close()
        server.stop(0)
