"""A process that begins to stop (drain) ends its open SeekMatch streams at once, UNAVAILABLE
(clients seek again with the same request id once a server is back), on either ticket store:
the process wires the matchmaking service's close into its draining hooks. Before, each such
stream held the stop for the whole drain grace."""

from __future__ import annotations

import threading

import grpc
import pytest

from partida.platform.assembly import authority, build
from partida.platform.config import Settings
from partida.v1 import matchmaking_pb2 as pb
from partida.v1.matchmaking_pb2_grpc import MatchmakingServiceStub

GRACE = 60.0  # a stop that waits on the stream would take all of it


@pytest.mark.parametrize("on_redis", [False, True], ids=["memory", "redis"])
def test_a_stopping_process_ends_its_seeks_unavailable(redis_url, tmp_path, on_redis):
    cfg = Settings(redis_url=redis_url if on_redis else "", metrics_port=0, port=0,
                   database_url=f"sqlite:///{tmp_path / 'partida.db'}")
    proc = build("all", cfg)
    proc.start()
    stopper = threading.Thread(target=proc.stop, kwargs={"grace": GRACE}, daemon=True)
    try:
        assert proc.ready.wait(30), "the process never became ready"
        token = authority(cfg).player_token("ana", 600)[0]
        with grpc.insecure_channel(f"127.0.0.1:{proc.server.port}") as channel:
            stream = MatchmakingServiceStub(channel).SeekMatch(
                pb.SeekMatchRequest(ticket=pb.CreateTicketRequest(
                    game_id="montanas", scenario_id="standard", seats=2, request_id="r")),
                metadata=(("authorization", f"Bearer {token}"),), timeout=GRACE)
            assert next(stream).ticket.status == pb.TICKET_STATUS_SEARCHING
            stopper.start()
            with pytest.raises(grpc.RpcError) as ended:
                next(stream)
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
            stopper.join(GRACE / 2)
            assert not stopper.is_alive(), "the stop waited on the stream"
    finally:
        if not stopper.is_alive() and stopper.ident is None:
            proc.stop(0)
