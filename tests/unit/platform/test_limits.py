"""Audit findings on the platform's limits: integrators' API-key calls are rate limited per
integrator; channels between services, and the CLI's, receive as much as a server may send (the rate
limiter's own findings are in test_ratelimit)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from partida.cli.remote import Remote
from partida.platform.assembly import _channel, build
from partida.platform.config import Settings
from partida.v1 import players_pb2, players_pb2_grpc
from tests.unit.platform.support import one_method_server


@pytest.fixture
def embedded(tmp_path: Path):
    cfg = Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", port=0, metrics_port=0,
                   api_keys="k1=acme,k2=acme,k3=globex",
                   integrator_rate_limit=0.001, integrator_rate_burst=2)
    process = build("all", cfg)
    process.start()
    assert process.ready.wait(30)
    with grpc.insecure_channel(f"127.0.0.1:{process.server.port}") as channel:
        yield players_pb2_grpc.PlayersServiceStub(channel)
    process.stop(0)


def test_api_key_calls_are_rate_limited_per_integrator(embedded):
    def create(key: str, external_id: str) -> grpc.StatusCode:
        try:
            embedded.CreatePlayer(players_pb2.CreatePlayerRequest(
                display_name="Ana", external_id=external_id), metadata=(("x-api-key", key),),
                timeout=10)
        except grpc.RpcError as e:
            assert e.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or "API key" in e.details()
            return e.code()
        return grpc.StatusCode.OK

    assert [create("k1", f"u{i}") for i in range(3)] == [
        grpc.StatusCode.OK, grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED]
    assert create("k2", "u9") == grpc.StatusCode.RESOURCE_EXHAUSTED  # acme's other key
    assert create("k3", "u1") == grpc.StatusCode.OK  # another integrator
    assert create("wrong", "u1") == grpc.StatusCode.UNAUTHENTICATED  # refused as before


@pytest.mark.parametrize("made_by", ["service", "cli"])
def test_a_channel_receives_what_a_server_may_send(made_by: str):
    """gRPC's default would refuse over 4 MB; a server sends up to 8 times its 1 MB. Both the
    channels between services and the CLI's (`partida client replay` of a long match)."""
    big = b"x" * (5 << 20)
    server = one_method_server("test.Big", "Get", lambda request, context: big)
    server.start()
    address = f"127.0.0.1:{server.port}"
    channel = (_channel(Settings(), address) if made_by == "service"
               else next(iter(Remote(address)._channels.values())))
    try:
        assert channel.unary_unary("/test.Big/Get")(b"", timeout=10) == big
    finally:
        channel.close()
        server.stop(0)
