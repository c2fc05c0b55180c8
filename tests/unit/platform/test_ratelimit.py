"""Per-player request rates are bounded (ARCHITECTURE.md, "Security")."""

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.ratelimit import RateLimiter
from partida.platform.server import Registration, Server
from partida.rules.service import RulesServicer
from partida.v1 import rules_pb2, rules_pb2_grpc


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_its_rate_up_to_its_burst():
    clock = Clock()
    limiter = RateLimiter(per_second=2, burst=3, clock=clock)
    assert [limiter.allow("p") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("q")  # another player has a bucket of its own
    clock.now += 1.0
    assert [limiter.allow("p") for _ in range(3)] == [True, True, False]
    clock.now += 100
    assert sum(limiter.allow("p") for _ in range(10)) == 3  # never more than the burst


def test_zero_means_unlimited():
    limiter = RateLimiter(per_second=0, burst=1)
    assert all(limiter.allow("p") for _ in range(1000))


@pytest.fixture
def server():
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.RulesService", RulesServicer(matches=None),
                       rules_pb2_grpc.add_RulesServiceServicer_to_server)
    srv = Server([reg], auth, "127.0.0.1:0", limiter=RateLimiter(per_second=0.001, burst=3))
    srv.start()
    yield auth, srv.port
    srv.stop(0)


def test_a_player_over_the_limit_gets_resource_exhausted_and_services_do_not(server):
    auth, port = server
    player = (("authorization", f"Bearer {auth.player_token('p1', 60)[0]}"),)
    service = (("authorization", f"Bearer {auth.service_token('bots')}"),)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = rules_pb2_grpc.RulesServiceStub(channel)
        for _ in range(3):
            stub.ListGames(rules_pb2.ListGamesRequest(), metadata=player)
        with pytest.raises(grpc.RpcError) as err:
            stub.ListGames(rules_pb2.ListGamesRequest(), metadata=player)
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        for _ in range(10):
            stub.ListGames(rules_pb2.ListGamesRequest(), metadata=service)
