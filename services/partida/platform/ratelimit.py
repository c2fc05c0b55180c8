"""Request rate limits: a token bucket per key (a player, an integrator, a client address
that failed authentication), in this process.

Each replica keeps its own buckets, so a player spread over N replicas gets up to N times the
rate; the limit is there to stop a runaway client, not to meter fairly across a cluster.
Failed authentications are the exception where Redis is configured: a guesser is held back
by every replica alike (platform/shared_failures).
"""

from __future__ import annotations

import ipaddress
import threading
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol


class Failures(Protocol):
    """Where failed authentications are counted: a RateLimiter, or shared_failures'."""

    def empty(self, key: str) -> bool: ...

    def charge(self, key: str) -> None: ...


class RateLimiter:
    def __init__(self, per_second: float, burst: float,
                 clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.clock = per_second, burst, clock
        # key -> (tokens, last refill), least recently used first.
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._max_keys = max_keys

    def allow(self, key: str) -> bool:
        """Take one token from `key`'s bucket; False when it is empty."""
        return self._take(key, owe=False)

    def empty(self, key: str) -> bool:
        """Whether `key`'s bucket holds less than one token now; takes none."""
        if self.rate <= 0:
            return False
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(key)
            return bucket is not None and self._refilled(bucket, now) < 1

    def charge(self, key: str) -> None:
        """Take one token from `key`'s bucket for something already done, owing it when the
        bucket is empty: calls that found it not `empty` together are all charged, and the
        debt keeps it empty for as much longer (at most the calls in flight at once)."""
        self._take(key, owe=True)

    def _take(self, key: str, owe: bool) -> bool:
        if self.rate <= 0:
            return True
        now = self.clock()
        with self._lock:
            bucket = self._buckets.pop(key, None)  # put back last: the most recently used
            if bucket is None:
                tokens = self.burst
                if self._buckets and len(self._buckets) >= self._max_keys:
                    self._evict(now)
            else:
                tokens = self._refilled(bucket, now)
            allowed = tokens >= 1
            self._buckets[key] = (tokens - 1 if allowed or owe else tokens, now)
            return allowed

    def _refilled(self, bucket: tuple[float, float], now: float) -> float:
        tokens, last = bucket
        return min(self.burst, tokens + (now - last) * self.rate)

    def _evict(self, now: float) -> None:
        """Make room for a new key without handing anyone a fresh burst (clearing every
        bucket did, throttled clients' too). A full bucket is as good as none, and every
        bucket unused for burst/rate seconds is full, so those lead the order: forget the
        full ones at the front, or else the least recently used, which is not full only if
        every bucket was used within burst/rate seconds. Each bucket is forgotten at most
        once per insertion: O(1) per call, amortized."""
        full = 0
        for bucket in self._buckets.values():
            if self._refilled(bucket, now) < self.burst:
                break
            full += 1
        for _ in range(max(full, 1)):
            self._buckets.popitem(last=False)


def client_address(peer: str) -> str:
    """The key of a gRPC peer ("ipv4:1.2.3.4:5678", "ipv6:%5B2001:db8::1%5D:5678") for
    limits per client: its host without the port, which changes with every connection. An
    IPv6 host stands for its /64, the block one site is usually given, which it could
    otherwise go through address by address; an IPv4 address mapped into IPv6 is that IPv4
    address. Anything else (a Unix socket) is one key as it is."""
    kind, _, rest = peer.partition(":")
    host = urllib.parse.unquote(rest.rpartition(":")[0]).strip("[]")
    if kind == "ipv4" and host:
        return host
    if kind != "ipv6":
        return peer
    try:
        ip = ipaddress.IPv6Address(host.partition("%")[0])  # without a zone ("%eth0")
    except ValueError:
        return peer
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))
