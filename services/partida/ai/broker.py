"""kombu's Redis transport with one command client per channel (`broker_transport`).

The stock channel builds a new `redis.Redis` for every publish, every ack and every
delivered message's unacked bookkeeping; with redis-py 8 each build fills a table of ~170
response callbacks, which was the largest single cost of queueing a bot turn (rules
process) and of receiving and acking it (worker). A `redis.Redis` is only a front to its
connection pool and safe to share between threads, so one per pool serves the same
commands on the same connections. Everything else (unacked hash, visibility timeout,
restore of a dead worker's messages) is kombu's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _shared: tuple[Any, Any] | None = None  # (pool, client built on it)

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        pool = self.pool
        # kombu drops its pools on disconnect; a client on a dropped pool is not reused.
        if self._shared is None or self._shared[0] is not pool:
            self._shared = (pool, self._create_client())
        yield self._shared[1]


class Transport(redis.Transport):
    Channel = Channel
