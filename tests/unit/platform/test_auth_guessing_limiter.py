"""Failed authentications are limited per client address (platform/calls): the limiter's
buckets checked without taking and charged after a failure, the address a gRPC peer stands
for, and the expired tokens that do not count as guesses."""

from __future__ import annotations

import time

import pytest

from partida.platform.auth import Authority, Principal, TokenExpired
from partida.platform.errors import Unauthenticated
from partida.platform.ratelimit import RateLimiter, client_address
from tests.support.clock import ManualClock


def test_charged_failures_empty_a_bucket_that_refills_at_its_rate():
    clock = ManualClock(1000.0)
    failures = RateLimiter(per_second=0.5, burst=3, clock=clock)
    assert not failures.empty("1.2.3.4")  # never charged: full
    for _ in range(3):
        assert not failures.empty("1.2.3.4")
        failures.charge("1.2.3.4")
    assert failures.empty("1.2.3.4")
    assert not failures.empty("5.6.7.8")  # another address has a bucket of its own
    clock.now += 1.9
    assert failures.empty("1.2.3.4")  # 0.95 of a token
    clock.now += 0.1
    assert not failures.empty("1.2.3.4")


def test_looking_at_a_bucket_takes_nothing_from_it():
    failures = RateLimiter(per_second=0.001, burst=2, clock=ManualClock(1000.0))
    failures.charge("a")
    assert not any(failures.empty("a") for _ in range(100))
    failures.charge("a")
    assert failures.empty("a")


def test_failures_charged_to_an_empty_bucket_are_owed():
    """Calls that found the bucket not empty together fail together: each is charged, and
    the bucket stays empty until it has earned them all back."""
    clock = ManualClock(1000.0)
    failures = RateLimiter(per_second=1, burst=2, clock=clock)
    for _ in range(5):  # all admitted at once, before any failed
        failures.charge("a")
    clock.now += 3.5  # back to 0.5 token: the three owed are paid, not forgotten
    assert failures.empty("a")
    clock.now += 0.5
    assert not failures.empty("a")


def test_a_zero_rate_holds_no_address_back():
    failures = RateLimiter(per_second=0, burst=1, clock=ManualClock(1000.0))
    for _ in range(100):
        failures.charge("a")
    assert not failures.empty("a")


@pytest.mark.parametrize("peer, address", [
    ("ipv4:203.0.113.7:50123", "203.0.113.7"),
    ("ipv6:%5B2001:db8:1:2:aaaa::1%5D:50123", "2001:db8:1:2::/64"),  # brackets encoded
    ("ipv6:[2001:db8:1:2:bbbb::9]:6", "2001:db8:1:2::/64"),  # one site, another host
    ("ipv6:%5B2001:db8:1:3::1%5D:50123", "2001:db8:1:3::/64"),
    ("ipv6:%5B::ffff:203.0.113.7%5D:1", "203.0.113.7"),  # IPv4 mapped into IPv6
    ("ipv6:%5Bfe80::1%25eth0%5D:1", "fe80::/64"),  # with a zone
    ("unix:/run/partida.sock", "unix:/run/partida.sock"),
    ("ipv6:%5Bnot-an-address%5D:1", "ipv6:%5Bnot-an-address%5D:1"),
])
def test_a_peer_stands_for_its_host_without_the_port(peer: str, address: str):
    assert client_address(peer) == address


def test_the_port_of_each_connection_makes_no_new_address():
    assert len({client_address(f"ipv4:198.51.100.2:{port}") for port in range(1000, 1100)}) == 1


def test_an_expired_token_is_told_apart_from_an_invalid_one():
    clock = ManualClock(1000.0)
    authority = Authority("p" * 32, "s" * 32, {}, clock=clock)
    stale, _ = authority.player_token("ana", 60, now=0)  # expired when first seen
    with pytest.raises(TokenExpired):
        authority.verify(stale)
    clock.now = time.time()  # the signature's check reads the real time, the cache the clock
    live, _ = authority.player_token("ana", 60, now=clock.now)
    authority.verify(live)
    clock.now += 100  # expired once proven
    with pytest.raises(TokenExpired):
        authority.verify(live)
    forged = Authority("q" * 32, "s" * 32, {}).player_token("ana", 60, now=0)[0]
    for wrong in (forged, "not-a-token"):
        with pytest.raises(Unauthenticated) as refused:
            authority.verify(wrong)
        assert not isinstance(refused.value, TokenExpired)


def test_proven_names_only_tokens_verified_here_and_still_live():
    clock = ManualClock(1000.0)
    clock.now = time.time()
    authority = Authority("p" * 32, "s" * 32, {}, clock=clock)
    token, _ = authority.player_token("ana", 60, now=clock.now)
    assert authority.proven(token) is None  # valid, but not verified yet
    authority.verify(token)
    assert authority.proven(token) == Principal("player", "ana")
    assert authority.proven("not-a-token") is None
    clock.now += 60
    assert authority.proven(token) is None
