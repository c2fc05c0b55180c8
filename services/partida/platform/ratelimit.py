"""Per-player request rate limits: a token bucket per player, in this process.

Each replica keeps its own buckets, so a player spread over N replicas gets up to N times the
rate; the limit is there to stop a runaway client, not to meter fairly across a cluster.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    def __init__(self, per_second: float, burst: float,
                 clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.clock = per_second, burst, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last refill)
        self._lock = threading.Lock()
        self._max_keys = max_keys

    def allow(self, key: str) -> bool:
        """Take one token from `key`'s bucket; False when it is empty."""
        if self.rate <= 0:
            return True
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if len(self._buckets) >= self._max_keys and key not in self._buckets:
                self._buckets.clear()  # forget idle players rather than grow without bound
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1, now)
            return True
