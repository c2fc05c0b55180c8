"""Per-player request rates are bounded (ARCHITECTURE.md, "Security")."""

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.ratelimit import RateLimiter
from partida.platform.server import Registration, Server
from partida.rules.service import RulesServicer
from partida.v1 import rules_pb2, rules_pb2_grpc
from tests.support.clock import ManualClock


def test_a_bucket_refills_at_its_rate_up_to_its_burst():
    clock = ManualClock()
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


def test_a_full_limiter_forgets_idle_buckets_and_not_a_throttled_one():
    """It used to forget every bucket, handing throttled players a fresh burst."""
    clock = ManualClock()
    limiter = RateLimiter(per_second=1, burst=3, clock=clock, max_keys=3)
    limiter.allow("a")
    clock.now = 0.1
    limiter.allow("b")
    clock.now = 0.5
    assert sum(limiter.allow("p") for _ in range(5)) == 3  # throttled
    clock.now = 2.0  # "a" and "b" have refilled, "p" has 1.5 tokens
    for key in ("n1", "n2"):  # room for both, made by forgetting "a" and "b"
        assert limiter.allow(key)
    assert sum(limiter.allow("p") for _ in range(5)) == 1  # still throttled
    assert list(limiter._buckets) == ["n1", "n2", "p"]


def test_with_no_idle_bucket_the_least_recently_used_is_forgotten():
    clock = ManualClock()
    limiter = RateLimiter(per_second=1, burst=3, clock=clock, max_keys=2)
    for key in ("p", "q", "p"):  # "p" used last
        clock.now += 0.1
        while limiter.allow(key):
            pass
    assert limiter.allow("new")  # room made by forgetting "q", not "p"
    assert not limiter.allow("p")
    assert sum(limiter.allow("q") for _ in range(5)) == 3  # forgotten: a fresh bucket


def test_many_new_keys_keep_the_limiter_within_its_bound():
    clock = ManualClock()
    limiter = RateLimiter(per_second=10, burst=2, clock=clock, max_keys=100)
    for i in range(5_000):
        clock.now = i / 1000  # some buckets idle, some not, at every eviction
        assert limiter.allow(f"p{i}")
    assert len(limiter._buckets) <= 100


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
