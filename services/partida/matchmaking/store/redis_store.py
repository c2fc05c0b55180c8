"""Tickets in Redis, shared by every matchmaking replica.

Keys (prefix P, "mm" by default): P:t:{id} ticket hash; P:pool:{game}:{scenario or *}:{seats}
sorted set of searching tickets by creation time, all pools listed in the set P:pools;
P:exp sorted set by expiry time; P:open:{player} the player's unfinished tickets;
P:idem:{sha256(player, request id)} -> ticket id; P:claims sorted set of claims by lease end
with each claim's proposal at P:claim:{request id}. The state changes are Lua scripts (lua.py).

WatchTicket notifications: every change publishes the ticket id on P:events. Each store
keeps one subscriber thread that wakes local followers, so a replica needs one extra
connection however many streams it serves; followers also re-read on a short timeout, which
covers a message lost while the subscriber reconnects.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import redis

from partida.matchmaking.pools import Proposal
from partida.matchmaking.store.base import Notifier, TooManyOpen, Watch
from partida.matchmaking.store.lua import PRELUDE, SCRIPTS
from partida.matchmaking.tickets import SEARCHING, Ticket

log = logging.getLogger("partida.matchmaking")

_DECODE: dict[str, Any] = {"seats": int, "seat": int, "rating": float, "created": float,
                           "expires": float, "fill_with_bots": lambda v: v == "1"}
_CHUNK = 1000  # commands per pipeline round trip when loading many tickets


class RedisTicketStore:
    """A TicketStore in Redis. Use one per thread or share it: redis-py pools connections."""

    def __init__(self, url: str, prefix: str = "mm", retain_seconds: int = 3600) -> None:
        self._r = redis.Redis.from_url(url, decode_responses=True)
        self._p = prefix
        self._retain = retain_seconds
        self._scripts = {name: self._r.register_script(PRELUDE + src)
                         for name, src in SCRIPTS.items()}
        self._notifier = Notifier()
        self._listener: Any = None
        self._listener_lock = threading.Lock()

    def close(self) -> None:
        if self._listener is not None:
            self._listener.stop()
        self._r.close()

    def _run(self, script: str, *args: Any, client: Any = None) -> Any:
        return self._scripts[script](args=[self._p, *args], client=client)

    def create(self, ticket: Ticket, request_id: str, max_open: int) -> Ticket:
        idem = hashlib.sha256(f"{ticket.player_id}\0{request_id}".encode()).hexdigest()
        idem_key = f"{self._p}:idem:{idem}"
        pool = f"{self._p}:pool:{ticket.game_id}:{ticket.scenario_id or '*'}:{ticket.seats}"
        # Until it ends, a ticket's keys outlive its expiry, so an idle sweeper loses nothing.
        ttl = math.ceil(ticket.expires - ticket.created) + self._retain
        fields = [*_encode(ticket), "pool", pool, "idem", idem_key]
        found = self._run("create", idem_key, ticket.ticket_id, repr(ticket.created),
                          repr(ticket.expires), max_open, ttl, pool, ticket.player_id, *fields)
        if found is None:
            raise TooManyOpen(ticket.player_id)
        stored = self.get(found)
        if stored is None:
            raise RuntimeError(f"ticket {found} vanished while being created")
        return stored

    def get(self, ticket_id: str) -> Ticket | None:
        return _decode(self._r.hgetall(self._key(ticket_id)))

    def cancel(self, ticket_id: str) -> Ticket | None:
        self._run("cancel", ticket_id, self._retain)
        return self.get(ticket_id)

    def searching(self) -> list[Ticket]:
        pipe = self._r.pipeline(transaction=False)
        for pool in self._r.smembers(f"{self._p}:pools"):
            pipe.zrange(pool, 0, -1)
        ids = [i for pool in pipe.execute() for i in pool]
        return [t for t in self._load(ids) if t.status == SEARCHING]

    def _load(self, ids: Sequence[str]) -> Iterable[Ticket]:
        for start in range(0, len(ids), _CHUNK):
            pipe = self._r.pipeline(transaction=False)
            for i in ids[start:start + _CHUNK]:
                pipe.hgetall(self._key(i))
            yield from (t for h in pipe.execute() if (t := _decode(h)) is not None)

    def claim(self, proposals: Sequence[Proposal], now: float, lease: float) -> list[bool]:
        pipe = self._r.pipeline(transaction=False)
        for p in proposals:
            payload = json.dumps(dataclasses.asdict(p))
            self._run("claim", p.request_id, repr(now + lease), payload, repr(now),
                      *p.ticket_ids, client=pipe)
        return [bool(ok) for ok in pipe.execute()] if proposals else []

    def assign(self, done: Sequence[tuple[Proposal, str]]) -> None:
        pipe = self._r.pipeline(transaction=False)
        for p, match_id in done:
            self._run("assign", p.request_id, match_id, self._retain, *p.ticket_ids,
                      client=pipe)
        pipe.execute()

    def release(self, proposals: Sequence[Proposal]) -> None:
        pipe = self._r.pipeline(transaction=False)
        for p in proposals:
            self._run("release", p.request_id, *p.ticket_ids, client=pipe)
        pipe.execute()

    def stale_claims(self, now: float, lease: float, limit: int = 100) -> list[Proposal]:
        payloads = self._run("stale", repr(now), repr(now + lease), limit)
        return [_proposal(json.loads(p)) for p in payloads]

    def expire(self, now: float) -> int:
        return int(self._run("expire", repr(now), self._retain))

    def watch(self, ticket_id: str) -> AbstractContextManager[Watch]:
        self._listen()
        return self._notifier.watch(ticket_id)

    def _listen(self) -> None:
        with self._listener_lock:
            if self._listener is not None:
                return
            pubsub = self._r.pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(**{f"{self._p}:events":
                                lambda m: self._notifier.notify(m["data"])})
            self._listener = pubsub.run_in_thread(
                sleep_time=1.0, daemon=True, exception_handler=_pause)

    def _key(self, ticket_id: str) -> str:
        return f"{self._p}:t:{ticket_id}"


def _pause(error: BaseException, pubsub: Any, thread: Any) -> None:
    """Keeps the subscriber alive through a Redis outage; followers poll meanwhile."""
    log.warning("matchmaking subscriber: %s; retrying", error)
    time.sleep(1.0)


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
    return Ticket(**{f.name: _DECODE.get(f.name, str)(h[f.name])
                     for f in dataclasses.fields(Ticket)})


def _proposal(d: dict[str, Any]) -> Proposal:
    return Proposal(**{**d, "ticket_ids": tuple(d["ticket_ids"]),
                       "player_ids": tuple(d["player_ids"])})
