"""Tickets in Redis, shared by every matchmaking replica.

Keys (prefix P, a hash tag: "{mm}" by default): P:t:{id} ticket hash;
P:pool:{game}:{scenario or *}:{seats} sorted set of searching tickets by creation time, all
pools listed in the set P:pools;
P:exp sorted set by expiry time; P:open:{player} the player's unfinished tickets;
P:idem:{sha256(player, request id)} -> ticket id; P:claims sorted set of claims by lease end
with each claim's proposal at P:claim:{request id}, and a copy in each claimed ticket's hash
(should those keys be lost, the claim is recorded again from it). The state changes are Lua
scripts (lua.py).

WatchTicket notifications: every change publishes the ticket id on P:events. Each store
keeps one subscriber thread that wakes local followers, so a replica needs one extra
connection however many streams it serves. The first watch waits until the subscription is
confirmed, and every confirmation (a resubscription after the connection dropped, too)
wakes all followers, so a change published while nobody listened is still re-read; followers
also re-read on a (long) timeout as a last resort.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import redis

from partida.matchmaking.pools import Proposal
from partida.matchmaking.store.base import TooManyOpen
from partida.matchmaking.store.lua import PRELUDE, SCRIPTS
from partida.matchmaking.tickets import Ticket
from partida.platform import errors
from partida.platform.notify import Notifier, Watch
from partida.platform.outages import OUTAGE_WARNINGS

log = logging.getLogger("partida.matchmaking")

_DECODE: dict[str, Any] = {"seats": int, "seat": int, "rating": float, "created": float,
                           "expires": float, "fill_with_bots": lambda v: v == "1"}
# Per script call, which blocks Redis while it runs: a few milliseconds at most.
_CHUNK = 2000  # tickets read
_BATCH = 200  # proposals claimed, assigned or released
_SUBSCRIBE_WAIT = 1.0  # seconds the first watch waits for the subscription to be confirmed
# The subscriber's wait for a message: redis-py bounds that read by it, not by the socket
# timeout, so an idle subscription never times out; it is also how soon close() is seen.
_LISTEN_WAIT = 1.0
# Set here rather than left to redis-py's defaults. A connect to a Redis in reach takes
# milliseconds; a few seconds leave room for one lost SYN to be sent again, then the call
# fails UNAVAILABLE (_reachable) instead of holding a server thread.
CONNECT_TIMEOUT_SECONDS = 3.0
# No command of the store blocks in Redis (scripts and pipelines answer in milliseconds), so
# this only has to outlast a Redis pause (a fork, a slow fsync): silent longer, it is gone.
READ_TIMEOUT_SECONDS = 5.0
# The fields that never change, also kept as one JSON "doc" so pools read fast.
_DOC = ("ticket_id", "player_id", "game_id", "scenario_id", "seats", "fill_with_bots",
        "rating", "created", "expires", "campaign_id", "campaign_team")


class RedisTicketStore:
    """A TicketStore in Redis. Use one per thread or share it: redis-py pools connections."""

    def __init__(self, url: str, prefix: str = "{mm}", retain_seconds: int = 3600,
                 read_timeout: float = READ_TIMEOUT_SECONDS) -> None:
        # A blocking pool: with many server threads a caller waits for a connection rather
        # than failing on redis-py's default cap of 100.
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=256, timeout=10, decode_responses=True,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS, socket_timeout=read_timeout)
        self._r = redis.Redis(connection_pool=pool)
        self._p = prefix
        self._retain = retain_seconds
        self._scripts = {name: self._r.register_script(PRELUDE + src)
                         for name, src in SCRIPTS.items()}
        self._notifier = Notifier()
        self._listener: threading.Thread | None = None
        self._listener_lock = threading.Lock()
        self._subscribed = threading.Event()
        self._closed = threading.Event()

    def close(self) -> None:
        # The subscriber thread ends within _LISTEN_WAIT, or a connect under way within
        # CONNECT_TIMEOUT_SECONDS.
        self._closed.set()
        self._r.close()

    def _run(self, script: str, *args: Any, client: Any = None) -> Any:
        with _reachable():
            # The declared key only routes the call on a cluster: the script builds its keys
            # from the prefix, all in the prefix's hash slot.
            return self._scripts[script](keys=[f"{self._p}:pools"], args=[self._p, *args],
                                         client=client)

    def create(self, ticket: Ticket, request_id: str, max_open: int) -> Ticket:
        idem = hashlib.sha256(f"{ticket.player_id}\0{request_id}".encode()).hexdigest()
        idem_key = f"{self._p}:idem:{idem}"
        pool = f"{self._p}:pool:{ticket.game_id}:{ticket.scenario_id or '*'}:{ticket.seats}"
        # Until it ends, a ticket's keys outlive its expiry, so an idle sweeper loses nothing.
        ttl = math.ceil(ticket.expires - ticket.created) + self._retain
        doc = json.dumps([getattr(ticket, f) for f in _DOC])
        fields = [*_encode(ticket), "pool", pool, "idem", idem_key, "doc", doc]
        found = self._run("create", idem_key, ticket.ticket_id, repr(ticket.created),
                          repr(ticket.expires), max_open, ttl, pool, ticket.player_id, *fields)
        if found is None:
            raise TooManyOpen(ticket.player_id)
        stored = _decode(dict(zip(found[::2], found[1::2], strict=True)))
        if stored is None:
            raise RuntimeError(f"the ticket of request {request_id!r} vanished")
        return stored

    def get(self, ticket_id: str) -> Ticket | None:
        with _reachable():
            return _decode(self._r.hgetall(self._key(ticket_id)))

    def cancel(self, ticket_id: str) -> Ticket | None:
        self._run("cancel", ticket_id, self._retain)
        return self.get(ticket_id)

    def searching(self) -> list[Ticket]:
        with _reachable():
            pools = list(self._r.smembers(f"{self._p}:pools"))
            pipe = self._r.pipeline(transaction=False)
            for pool in pools:
                pipe.zcard(pool)
            sizes = pipe.execute()
            for pool, size in zip(pools, sizes, strict=True):
                for first in range(0, size, _CHUNK):
                    self._run("load", pool, first, first + _CHUNK - 1, client=pipe)
            chunks = pipe.execute()
        # Chunks are read by rank while other replicas claim, so a ticket may show up twice.
        found = {}
        for doc in (d for chunk in chunks for d in chunk):
            # A doc written before a field was added is shorter: the field keeps its default.
            t = Ticket(**dict(zip(_DOC, json.loads(doc), strict=False)))
            found[t.ticket_id] = t
        return list(found.values())

    def claim(self, proposals: Sequence[Proposal], now: float, lease: float) -> list[bool]:
        groups = [(p, p.to_json()) for p in proposals]
        return [bool(ok) for ok in self._batched("claim", [repr(now), repr(now + lease)],
                                                 groups)]

    def assign(self, done: Sequence[tuple[Proposal, str]]) -> None:
        self._batched("assign", [self._retain], done)

    def release(self, proposals: Sequence[Proposal]) -> None:
        self._batched("release", [], [(p, "") for p in proposals])

    def postpone(self, proposals: Sequence[Proposal], now: float, delay: float,
                 expired_by: float | None = None) -> None:
        by = now if expired_by is None else expired_by
        self._batched("postpone", [repr(by), repr(now + delay)], [(p, "") for p in proposals])

    def fail(self, refused: Sequence[tuple[Proposal, str]]) -> None:
        self._batched("fail", [self._retain], refused)

    def _batched(self, script: str, head: list[Any], groups: Sequence[tuple[Proposal, str]]
                 ) -> list[Any]:
        """Runs `script` over (proposal, value) groups, _BATCH groups per call, all calls in
        one round trip; returns the calls' replies joined."""
        pipe = self._r.pipeline(transaction=False)
        for start in range(0, len(groups), _BATCH):
            args = [a for p, value in groups[start:start + _BATCH]
                    for a in (p.request_id, value, len(p.ticket_ids), *p.ticket_ids)]
            self._run(script, *head, *args, client=pipe)
        if not groups:
            return []
        with _reachable():
            replies = pipe.execute()
        return [r for reply in replies for r in reply]

    def stale_claims(self, now: float, lease: float, limit: int = 100) -> list[Proposal]:
        payloads = self._run("stale", repr(now), repr(now + lease), limit)
        return [Proposal.from_json(p) for p in payloads]

    def expire(self, now: float) -> int:
        return int(self._run("expire", repr(now), self._retain))

    def watch(self, ticket_id: str) -> AbstractContextManager[Watch]:
        self._listen()
        return self._notifier.watch(ticket_id)

    def _listen(self) -> None:
        with self._listener_lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._follow, daemon=True,
                                                  name="matchmaking-events")
                self._listener.start()
        if not self._subscribed.is_set():  # Redis out of reach: the read that follows fails
            self._subscribed.wait(_SUBSCRIBE_WAIT)

    def _follow(self) -> None:
        """The subscriber thread: wakes the followers of each ticket announced."""
        pubsub = self._r.pubsub()
        try:
            while not self._closed.is_set():
                try:
                    if not pubsub.channels:  # the first SUBSCRIBE failed: try again
                        pubsub.subscribe(f"{self._p}:events")
                    message = pubsub.get_message(timeout=_LISTEN_WAIT)
                except Exception as e:  # e.g. Redis out of reach: keep the thread alive;
                    # redis-py reconnects and resubscribes on the next call
                    log.warning("matchmaking subscriber: %s; retrying", e)
                    self._closed.wait(1.0)
                    continue
                if message is None:
                    continue
                if message["type"] == "message":
                    self._notifier.notify(message["data"])
                elif message["type"] == "subscribe":  # first, or again after a drop
                    self._notifier.notify_all()  # whoever already follows re-reads
                    self._subscribed.set()
        finally:
            pubsub.close()

    def _key(self, ticket_id: str) -> str:
        return f"{self._p}:t:{ticket_id}"


@contextmanager
def _reachable() -> Iterator[None]:
    """Redis out of reach becomes UNAVAILABLE for gRPC callers (a retry may succeed)
    rather than an opaque UNKNOWN."""
    try:
        yield
    except (redis.ConnectionError, redis.TimeoutError) as e:
        # The cause (host, port) is for the logs, not for callers.
        OUTAGE_WARNINGS.warn(log, "the ticket store", str(e))
        raise errors.Unavailable("the ticket store is out of reach; try again") from e


def _encode(t: Ticket) -> list[str]:
    out = []
    for f in dataclasses.fields(t):
        v = getattr(t, f.name)
        out += [f.name, ("1" if v else "0") if isinstance(v, bool) else
                repr(v) if isinstance(v, float) else str(v)]
    return out


def _decode(h: dict[Any, Any]) -> Ticket | None:  # str -> str: decode_responses
    if not h:
        return None
    # A ticket stored before a field was added lacks it: the field keeps its default.
    return Ticket(**{f.name: _DECODE.get(f.name, str)(h[f.name])
                     for f in dataclasses.fields(Ticket) if f.name in h})
