"""Live session state of matches: the state, its version and the recent events.

Two stores share one small interface: `MemorySessionStore` for the embedded server and
`RedisSessionStore` for replicas. The database log is the truth; a session is a cache that
can be rebuilt from it, so losing one (expiry, a flush) loses nothing acknowledged.

Both let a match go IDLE_TTL after its last write, and a finished one FINISHED_TTL after its
end: a finished match is only read now and then (its last view, a late follower), and a read
after that rebuilds it from the log, so it need not hold memory for as long as a match that
may yet go on.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from partida.platform import jsonio
from partida.platform.errors import stopping
from partida.platform.notify import Notifier

# Live events kept per match (about ten actions of Las Montañas); a follower further behind
# reads the older ones from the log. Each costs Redis about 160 bytes per live match.
EVENTS_KEPT = 32
IDLE_TTL = 7 * 24 * 3600  # seconds a match may go unplayed before its session goes
FINISHED_TTL = 3600       # seconds a finished match's session stays after its end
MAX_MISSED = 100          # the most decisions in a row a match may let a seat miss


def ttl_of(session: Session, idle_ttl: float, finished_ttl: float) -> float:
    """How long `session`, just written, is kept."""
    return finished_ttl if session.status == "finished" else idle_ttl


def unbroken(found: list[dict[str, Any]], after_seq: int) -> bool:
    """Whether `found` are the events right after `after_seq`, none missing between them.
    The events of an action whose session commit was lost (a replica that lost the log race
    invalidated the session meanwhile) are in the log but never reach the store: the match
    is rebuilt and the next action's events follow, so a store can hold old events and new
    ones with a hole between, and must not claim to hold every event after `after_seq`."""
    return all(e["seq"] == after_seq + i for i, e in enumerate(found, 1))


@dataclass
class SeatMeta:
    player_id: str = ""
    controller: str = "human"  # "human" or "bot"
    bot: str = ""
    campaign_team: str = ""  # the campaign team the seat plays for, if any
    side: str = ""  # the side dealt to the seat at the set-up (Game.seat_side)
    missed: int = 0  # its decisions run out in a row (Matches._miss); not recorded, replayed

    def tally(self, kind: str, every: int) -> bool:
        """Count a decision of the seat's: run out ("timeout") or taken, whoever took it. True
        when `every` (0: never) have run out in a row: the count then starts afresh, as it
        does when the seat is handed over (Matches._miss), live or replayed."""
        self.missed = self.missed + 1 if kind == "timeout" else 0
        if not every or self.missed < every:
            return False
        self.missed = 0
        return True


def played_by_bots(seats: Sequence[SeatMeta], to_act: Iterable[int]) -> list[int]:
    """Those of the seats `to_act` whose decision a bot takes."""
    return [i for i in to_act if seats[i].controller == "bot"]


@dataclass
class Session:
    """Everything the rules service needs to continue a match without the database."""

    match_id: str
    game_id: str
    scenario_id: str
    seats: list[SeatMeta]
    options: dict[str, Any]
    commitment: str                 # hex
    created_at: float
    decision_timeout: int
    spectator_delay: int
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    buffer: list[list[int]] = field(default_factory=list)  # prefetched [position, value]
    event_seq: int = 0
    status: str = "active"          # "active" or "finished"
    outcome: dict[str, Any] | None = None
    seed: str = ""                  # hex, once revealed at the end
    deadline: float = 0.0
    indexed: float = 0.0            # the wake time last written to the index (Matches._index)
    asked_at: float = 0.0           # when the current decision arose
    spectator: dict[str, Any] | None = None  # lagged state for delayed spectators
    campaign_id: str = ""           # the campaign the match counts for, if any
    bot_after_missed: int = 0       # a player's seat missing that many in a row goes to its bot
    rules_revision: int = 1         # GameInfo.rules_revision when the match was created

    def to_json(self) -> str:
        data = dict(self.__dict__)
        data["seats"] = [seat.__dict__ for seat in self.seats]
        return jsonio.dumps(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> Session:
        data = jsonio.loads(text)
        try:  # read on every call of a match: the plain way first
            return cls(**{**data, "seats": [SeatMeta(**s) for s in data["seats"]]})
        except TypeError:  # fields a newer replica added (a rolling upgrade): left out
            data["seats"] = [SeatMeta(**{k: v for k, v in s.items() if k in _SEAT_FIELDS})
                             for s in data["seats"]]
            return cls(**{k: v for k, v in data.items() if k in _SESSION_FIELDS})


_SEAT_FIELDS = frozenset(f.name for f in fields(SeatMeta))
_SESSION_FIELDS = frozenset(f.name for f in fields(Session))


def seats_mark(seats: list[SeatMeta]) -> str:
    """Who plays each seat (its player, or which bot), compared by a commit beside the
    version: a seat changing hands leaves the version as it is, and a write from a session
    read before the change (another replica's action) must not undo it."""
    return ",".join(f"{m.controller}:{m.bot}" for m in seats)


class Wake:
    """Ends a follower's wait early, when its caller has gone: the stream then frees its
    server thread at once instead of at the end of a long wait. A store waiting arms it with
    how to interrupt that wait; `set` (from any thread) marks it and interrupts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._interrupt: Callable[[], None] | None = None

    def set(self) -> None:
        with self._lock:
            self._set = True
            interrupt = self._interrupt
        if interrupt is not None:  # outside the lock: it takes the store's locks
            interrupt()  # late (the wait just ended), it costs at most a spurious wake-up

    def is_set(self) -> bool:
        return self._set

    def arm(self, interrupt: Callable[[], None]) -> bool:
        """Until `disarm`, `set` calls `interrupt`; False if already set (do not wait)."""
        with self._lock:
            self._interrupt = None if self._set else interrupt
            return not self._set

    def disarm(self) -> None:
        with self._lock:
            self._interrupt = None


class SessionStore(Protocol):
    def close(self) -> None:
        """The server is stopping: every wait in events_after ends now, and every later
        call of it, with platform.errors.stopping's UNAVAILABLE."""

    def load(self, match_id: str) -> Session | None: ...

    def create(self, session: Session) -> bool: ...

    def commit(self, session: Session, expected_version: int, events: list[dict[str, Any]],
               request_id: str, response: str, seats_before: str | None = None) -> bool:
        """Writes `session` if the stored one is at `expected_version` with its seats played
        as `seats_before` says (a seats_mark; None: as in `session`, unchanged)."""

    def invalidate(self, match_id: str) -> None: ...

    def load_with_response(self, match_id: str, request_id: str
                           ) -> tuple[Session | None, str | None]:
        """The session, and the last request's response if `request_id` was that request."""

    def recent(self, match_id: str, request_id: str) -> tuple[Session, str | None] | None:
        """As load_with_response, from this process's copy of what it last wrote or read,
        without asking the store (None: no copy). The copy may be behind the store: another
        replica may have moved the match on since, and only a compare-and-set (the log's
        sequence, the session's version and seats) finds out (see Matches.submit)."""

    def forget(self, match_id: str) -> None:
        """Drop the copy `recent` would answer (it misled a caller)."""

    def events_after(self, match_id: str, after_seq: int, wait_seconds: float,
                     after_version: int = -1, wake: Wake | None = None,
                     seen_seats: str | None = None) -> tuple[list[dict[str, Any]], bool]:
        """Events with seq > after_seq, waiting up to `wait_seconds` for one, or (when
        `after_version` is given) until the session moves past that version, as an action
        without events does, or (when `seen_seats` is given) until a seat changes hands
        (seats_mark), or until `wake` is set; the flag says whether the store still holds
        every event after `after_seq` (else: read the log)."""

    def set_deadline(self, match_id: str, when: float) -> None: ...

    def set_deadlines(self, match_ids: list[str], when: float) -> None: ...

    def due_deadlines(self, now: float, limit: int) -> list[str]: ...

    def index_whole(self) -> bool:
        """Whether the deadline index still holds every live match: False once the store
        has come back empty (a Redis restarted without persistence or flushed, an embedded
        server restarted), until `mark_index_whole`."""

    def mark_index_whole(self) -> None: ...


class MemorySessionStore:
    """In-process sessions for the embedded server; thread-safe."""

    def __init__(self, idle_ttl: float = IDLE_TTL, finished_ttl: float = FINISHED_TTL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = (idle_ttl, finished_ttl)
        self._clock = clock
        # When each match's session goes, in one queue per lifetime (by its length): within a
        # queue, the order of the last writes is the order of the expiries.
        self._expiries: dict[float, OrderedDict[str, float]] = {
            ttl: OrderedDict() for ttl in self._ttl}
        self._lock = threading.Lock()
        # A commit wakes only the followers of its own match, not every feed of the process.
        self._changes = Notifier()
        # match -> (version, seats_mark, session JSON)
        self._sessions: dict[str, tuple[int, str, str]] = {}
        self._events: dict[str, deque[dict[str, Any]]] = defaultdict(
            lambda: deque(maxlen=EVENTS_KEPT))
        self._requests: dict[str, tuple[str, str]] = {}  # match -> last (request id, response)
        self._deadlines: dict[str, float] = {}
        self._index_whole = False  # a new process knows none of the matches in play
        self._closed = False

    def close(self) -> None:
        """The server is stopping: every follower's wait ends now, UNAVAILABLE, to follow
        again once it is back. Else each live feed would hold the shutdown for the whole
        drain grace, waiting for an event that no longer comes."""
        self._closed = True
        self._changes.notify_all()

    def load(self, match_id: str) -> Session | None:
        with self._lock:
            kept = self._sessions.get(match_id)
        return None if kept is None else Session.from_json(kept[2])

    def create(self, session: Session) -> bool:
        with self._lock:
            self._expire()
            if session.match_id in self._sessions:
                return False
            self._sessions[session.match_id] = (session.version, seats_mark(session.seats),
                                                 session.to_json())
            self._keep(session)
            return True

    def commit(self, session: Session, expected_version: int, events: list[dict[str, Any]],
               request_id: str, response: str, seats_before: str | None = None) -> bool:
        seats = seats_mark(session.seats)
        expected = (expected_version, seats if seats_before is None else seats_before)
        with self._lock:
            self._expire()
            current = self._sessions.get(session.match_id)
            if current is None or current[:2] != expected:  # no need to parse it
                return False
            self._sessions[session.match_id] = (session.version, seats, session.to_json())
            self._events[session.match_id].extend(events)
            if request_id:
                self._requests[session.match_id] = (request_id, response)
            self._keep(session)
        self._changes.notify(session.match_id)
        return True

    def _keep(self, session: Session) -> None:
        """(Under the lock.) `session` was just written: its lifetime starts again."""
        ttl = ttl_of(session, *self._ttl)
        for queue in self._expiries.values():
            queue.pop(session.match_id, None)
        self._expiries[ttl][session.match_id] = self._clock() + ttl

    def _expire(self) -> None:
        """(Under the lock.) Drops every session whose time is up, as Redis expires keys."""
        now = self._clock()
        for queue in self._expiries.values():
            while queue and next(iter(queue.values())) <= now:
                self._drop(queue.popitem(last=False)[0])

    def _drop(self, match_id: str) -> None:
        self._sessions.pop(match_id, None)
        self._events.pop(match_id, None)
        self._requests.pop(match_id, None)

    def invalidate(self, match_id: str) -> None:
        with self._lock:
            self._sessions.pop(match_id, None)

    def load_with_response(self, match_id: str, request_id: str
                           ) -> tuple[Session | None, str | None]:
        with self._lock:
            kept = self._sessions.get(match_id)
            rid, response = self._requests.get(match_id, ("", ""))
        session = None if kept is None else Session.from_json(kept[2])
        return session, (response if rid == request_id else None)

    def recent(self, match_id: str, request_id: str) -> tuple[Session, str | None] | None:
        return None  # the store is this process's own: a load is as cheap

    def forget(self, match_id: str) -> None:
        pass

    def events_after(self, match_id: str, after_seq: int, wait_seconds: float,
                     after_version: int = -1, wake: Wake | None = None,
                     seen_seats: str | None = None) -> tuple[list[dict[str, Any]], bool]:
        deadline = time.monotonic() + wait_seconds
        with self._changes.watch(match_id) as changes:  # before reading: no commit missed
            if wake is not None:
                wake.arm(changes.wake)
            try:
                while True:
                    if self._closed:
                        raise stopping("match")
                    found, complete, moved = self._read(match_id, after_seq, after_version,
                                                        seen_seats)
                    left = deadline - time.monotonic()
                    if found or moved or left <= 0 or (wake is not None and wake.is_set()):
                        return found, complete
                    changes.wait(left)
            finally:
                if wake is not None:
                    wake.disarm()

    def _read(self, match_id: str, after_seq: int, after_version: int,
              seen_seats: str | None) -> tuple[list[dict[str, Any]], bool, bool]:
        """The events after `after_seq`, whether they are all still kept, and whether the
        match has moved past `after_version` or its seats changed hands since `seen_seats`."""
        with self._lock:
            kept = self._events.get(match_id, deque())
            found = [e for e in kept if e["seq"] > after_seq]
            complete = (not kept or kept[0]["seq"] <= after_seq + 1) and unbroken(found,
                                                                                   after_seq)
            current = self._sessions.get(match_id)
        moved = current is not None and (
            (after_version >= 0 and current[0] > after_version)
            or (seen_seats is not None and current[1] != seen_seats))
        return found, complete, moved

    def set_deadline(self, match_id: str, when: float) -> None:
        with self._lock:
            if when:
                self._deadlines[match_id] = when
            else:
                self._deadlines.pop(match_id, None)

    def set_deadlines(self, match_ids: list[str], when: float) -> None:
        with self._lock:
            self._deadlines.update(dict.fromkeys(match_ids, when))

    def index_whole(self) -> bool:
        return self._index_whole

    def mark_index_whole(self) -> None:
        self._index_whole = True

    def due_deadlines(self, now: float, limit: int) -> list[str]:
        with self._lock:
            due = sorted((t, m) for m, t in self._deadlines.items() if t <= now)
            return [m for _, m in due[:limit]]
