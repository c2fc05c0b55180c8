"""Failed authentications counted in Redis, so that every replica holds a guesser back alike.

Each process's own buckets (platform/ratelimit) let a guesser spread over N replicas make N
times the failed attempts. With Redis configured, the buckets of failures per client address
live there instead: one token bucket per address, refilled by Redis's own clock (the
replicas' clocks need not agree), gone once it would be full again (a full bucket is as good
as none). Only calls whose credentials this process has not proven yet ask Redis (see
CallContextInterceptor._authenticate): a player's calls, once their token is proven, never do.

Should Redis not answer, the process's own buckets decide meanwhile: authentication goes on,
held back per replica as without Redis, rather than failing every unproven caller; Redis is
asked again RETRY_SECONDS later (a Redis gone silent would otherwise cost every such call
its timeout).

Only the processes that use Redis anyway count there (assembly.auth_failures): rules, the
front door clients come in by, and matchmaking. Persistence and dice keep their own buckets:
they are not given a way to Redis (k8s/base/networkpolicy.yaml).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import redis

from partida.platform.outages import OUTAGE_WARNINGS
from partida.platform.ratelimit import RateLimiter

log = logging.getLogger("partida.auth")
STORE = "the Redis that counts failed authentications"  # as outage warnings name it

PREFIX = "partida:auth-failures:"
TIMEOUT_SECONDS = 1.0  # a Redis slower than this is treated as out of reach for this call
RETRY_SECONDS = 5.0  # after Redis failed to answer, the process counts alone this long

# KEYS: the address's bucket. ARGV: rate per second, burst, "1" to charge one failure (owing
# it when empty), "0" to ask only. Returns 1 when the bucket holds less than one token.
_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local kept = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if kept[1] then
  tokens = math.min(burst, tonumber(kept[1]) + (now - tonumber(kept[2])) * rate)
end
if ARGV[3] == '1' then
  tokens = tokens - 1
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('EXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1)
end
if tokens < 1 then return 1 end
return 0
"""


class SharedFailures:
    """RateLimiter's `empty` and `charge` over Redis (see the module's docstring)."""

    def __init__(self, client: Any, per_second: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst = per_second, burst
        self._bucket = client.register_script(_BUCKET)
        self._local = RateLimiter(per_second, burst)  # while Redis does not answer
        self._clock = clock
        self._retry_at = 0.0  # Redis is not asked before then (it failed to answer)

    @classmethod
    def from_url(cls, url: str, per_second: float, burst: float) -> SharedFailures:
        return cls(redis.Redis.from_url(url, socket_timeout=TIMEOUT_SECONDS,
                                        socket_connect_timeout=TIMEOUT_SECONDS),
                   per_second, burst)

    def empty(self, key: str) -> bool:
        if self.rate <= 0:
            return False
        held = self._ask(key, charge=False)
        return self._local.empty(key) if held is None else held

    def charge(self, key: str) -> None:
        if self.rate > 0 and self._ask(key, charge=True) is None:
            self._local.charge(key)

    def _ask(self, key: str, charge: bool) -> bool | None:
        """Whether the shared bucket is empty (after charging it), or None out of reach."""
        if self._clock() < self._retry_at:
            return None
        try:
            return bool(self._bucket(keys=[PREFIX + key],
                                     args=[self.rate, self.burst, "1" if charge else "0"]))
        except redis.RedisError as e:
            OUTAGE_WARNINGS.warn(log, STORE, f"{e}; each process counts its own meanwhile")
            self._retry_at = self._clock() + RETRY_SECONDS
            return None
