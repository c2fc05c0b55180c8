"""Failed authentications counted in Redis (platform/shared_failures): one bucket per client
address for every replica, refilled by Redis's clock, gone once full again; counted in the
process while Redis does not answer."""

import socket
import time

import pytest
import redis

from partida.devstack.servers import free_port
from partida.platform.assembly import auth_failures
from partida.platform.config import Settings
from partida.platform.ratelimit import RateLimiter
from partida.platform.shared_failures import PREFIX, RETRY_SECONDS, SharedFailures


def test_two_replicas_share_one_bucket_per_address(redis_url):
    a = SharedFailures.from_url(redis_url, 0.001, 3)
    b = SharedFailures.from_url(redis_url, 0.001, 3)
    for limiter in (a, b, a):
        assert not b.empty("10.0.0.1")
        limiter.charge("10.0.0.1")
    assert a.empty("10.0.0.1") and b.empty("10.0.0.1")
    assert not b.empty("10.0.0.2")  # another address has its own bucket


def test_a_bucket_refills_at_the_rate_and_goes_once_full(redis_url):
    limiter = SharedFailures.from_url(redis_url, 50, 1)
    limiter.charge("10.0.1.1")
    assert limiter.empty("10.0.1.1")
    ttl = redis.Redis.from_url(redis_url).ttl(PREFIX + "10.0.1.1")
    assert 0 < ttl <= 2  # one token short at 50/s: full again within a second, plus one
    time.sleep(0.1)  # five tokens' worth at 50/s, capped at the burst of one
    assert not limiter.empty("10.0.1.1")


def test_charges_owed_when_empty_keep_the_bucket_empty_longer(redis_url):
    limiter = SharedFailures.from_url(redis_url, 10, 1)
    for _ in range(4):  # calls that found it not empty together are all charged
        limiter.charge("10.0.2.1")
    time.sleep(0.15)  # 1.5 tokens back: still owing
    assert limiter.empty("10.0.2.1")


def test_without_redis_each_process_counts_its_own():
    gone = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    limiter = SharedFailures.from_url(gone, 0.001, 2)
    limiter.charge("10.0.3.1")
    assert not limiter.empty("10.0.3.1")
    limiter.charge("10.0.3.1")
    assert limiter.empty("10.0.3.1")
    assert not limiter.empty("10.0.3.2")


def test_a_rate_of_zero_holds_nobody_back(redis_url):
    limiter = SharedFailures.from_url(redis_url, 0, 1)
    for _ in range(5):
        limiter.charge("10.0.4.1")
    assert not limiter.empty("10.0.4.1")
    assert not redis.Redis.from_url(redis_url).exists(PREFIX + "10.0.4.1")


def test_rules_and_matchmaking_count_in_redis_when_it_is_configured(redis_url):
    with_redis = Settings(redis_url=redis_url)
    for role in ("all", "rules", "matchmaking"):
        assert isinstance(auth_failures(with_redis, role), SharedFailures)
        assert isinstance(auth_failures(Settings(), role), RateLimiter)
    for role in ("persistence", "dice"):  # no way to Redis in the manifests
        assert isinstance(auth_failures(with_redis, role), RateLimiter)


def test_after_redis_fails_to_answer_it_is_not_asked_again_for_a_while():
    """A Redis gone silent (it accepts, never answers) would cost every unproven call its
    timeout; after one such, the process counts alone until RETRY_SECONDS have passed."""
    now = [0.0]
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        limiter = SharedFailures(redis.Redis.from_url(url, socket_timeout=0.2,
                                                      socket_connect_timeout=0.2),
                                 0.001, 2, clock=lambda: now[0])
        limiter.charge("10.0.5.1")  # times out: counted here
        first, _ = silent.accept()
        silent.setblocking(False)
        limiter.charge("10.0.5.1")
        assert limiter.empty("10.0.5.1")  # both counted here, Redis not asked
        with pytest.raises(BlockingIOError):
            silent.accept()  # no new connection was tried
        now[0] = RETRY_SECONDS
        limiter.empty("10.0.5.1")  # asked again (and times out again)
        again, _ = silent.accept()
        first.close()
        again.close()
