"""Sessions in Redis: one hash-tagged key family per match, so Redis Cluster shards by match.

  match:{id}:session   hash {version, seats, blob, rid, response}   the session, compare-and-set
                       by Lua on its version and seats (session.seats_mark), with the last
                       request's response (an immediate retry is answered from here; older
                       repeats from the database log); blob and response deflated when long
                       (see _pack)
  match:{id}:events    stream, ids "<seq>-0"     the recent events, trimmed to EVENTS_KEPT;
                       an action without events adds a mark "<last seq>-<version>" instead,
                       so that streams waiting on the match wake up
  match:{id}:seats     stream, ids "*"           a mark each time a seat changes hands, which
                       leaves the version as it is (SetSeatController), so that streams
                       waiting on the match wake up and show it; the last 4 kept (a
                       follower reads only those made while it waits)
  partida:deadlines    sorted set                decision deadlines (match id by time)
  partida:deadlines:whole   string               set once the index holds every live match;
                       gone with the rest when Redis comes back empty (restored_lost_index)

Every key of a match expires when the match has been idle for `idle_ttl` seconds, or
`finished_ttl` seconds after its end (see session).

Redis stays the one shared truth of a live match: each process also keeps, in memory, the
sessions it last wrote or read (`recent`), which an action may start from instead of reading
the session back; whether the copy was current is decided, as for any read, by the log's
sequence and the compare-and-set above (Matches.submit).
"""

from __future__ import annotations

import contextlib
import threading
import zlib
from collections import OrderedDict
from typing import Any

import redis

from partida.platform import jsonio
from partida.platform.errors import stopping
from partida.rules.session import (
    EVENTS_KEPT,
    FINISHED_TTL,
    IDLE_TTL,
    Session,
    Wake,
    seats_mark,
    ttl_of,
    unbroken,
)

DEADLINES = "partida:deadlines"
INDEX_WHOLE = "partida:deadlines:whole"
# The longest an event read may block. The client's socket read timeout is set above it:
# redis-py's default (5 s) equalled the stream wait, so a quiet stream failed on a timeout.
MAX_WAIT_SECONDS = 20.0
READ_TIMEOUT_SECONDS = MAX_WAIT_SECONDS + 10.0
# A connect to a Redis in reach takes milliseconds; to a host gone silent (no refusal, as
# behind a dropped route), with no timeout, it would last until the OS gives up on the SYNs
# (minutes), a server thread held all the while. Set here, not left to redis-py's default;
# a few seconds let a lost SYN be sent again.
CONNECT_TIMEOUT_SECONDS = 3.0
# Wake-ups (CLIENT UNBLOCK, CLIENT KILL) have a small pool of their own: on the store's they
# would wait for a connection behind the very reads they end, which may hold all of them.
WAKE_CONNECTIONS = 4
WAKE_TIMEOUT_SECONDS = 5.0  # its checkout, and its reply: Redis answers one at once
WAKE_CLIENT_NAME = "partida-wake"  # tells them apart in CLIENT LIST
# Sessions this process remembers as it last wrote or read them (packed, a few KB each), so
# that an action on a match it served last skips reading the session back (see recent).
RECENT_SESSIONS = 4096

# KEYS: session, events, seat marks
# ARGV: expected version, new version, blob, ttl, events kept, request id ("" for none),
#       response, mark id ("" for none), expected seats, new seats, then pairs of
#       (seq, event json). A session written before seats were kept has none to compare.
_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if current ~= ARGV[1] then return 0 end
local seats = redis.call('HGET', KEYS[1], 'seats')
if seats and seats ~= ARGV[9] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'blob', ARGV[3], 'seats', ARGV[10])
if ARGV[9] ~= ARGV[10] then  -- a wake-up only, as the mark below
  redis.pcall('XADD', KEYS[3], 'MAXLEN', '4', '*', 's', ARGV[10])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'rid', ARGV[6], 'response', ARGV[7]) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if ARGV[8] ~= '' then  -- a wake-up only: should it be refused, the commit stands
  redis.pcall('XADD', KEYS[2], 'MAXLEN', ARGV[5], ARGV[8], 'v', ARGV[2])
end
for i = 11, #ARGV, 2 do
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[5], ARGV[i] .. '-0', 'e', ARGV[i + 1])
end
if #ARGV >= 11 or ARGV[8] ~= '' then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
return 1
"""

# KEYS: session
# ARGV: version, blob, ttl, seats
# Only a session written here gets its lifetime: one already there (another replica's
# rebuild, a finished match on its short FINISHED_TTL) keeps its own.
_CREATE = """
if redis.call('HSETNX', KEYS[1], 'version', ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'blob', ARGV[2], 'seats', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def _key(match_id: str, part: str) -> str:
    return f"match:{{{match_id}}}:{part}"


# A session's JSON deflates to about half, and a response listing the next actions to a quarter,
# which keeps every live match, not only the mean one, within its 16 KB of Redis. A 4 KB window
# and memory level 5 (rather than zlib's 32 KB and 8) compress these few kilobytes as well at a
# quarter of the CPU, most of which zlib otherwise spends setting up its larger tables.
PACK_FROM = 512  # bytes; a shorter text is stored as it is
PACKED = b"\xff"  # starts a packed text: never the first byte of UTF-8
_WBITS, _MEMLEVEL = -12, 5  # negative: a bare deflate stream, as the marker says what it is


def _pack(text: str) -> bytes:
    raw = text.encode()
    if len(raw) < PACK_FROM:
        return raw
    z = zlib.compressobj(1, zlib.DEFLATED, _WBITS, _MEMLEVEL)
    return PACKED + z.compress(raw) + z.flush()


def _unpack(stored: bytes) -> bytes:
    return zlib.decompress(stored[1:], _WBITS) if stored[:1] == PACKED else stored


def _answer(blob: bytes | None, rid: bytes | None, response: bytes | None, request_id: str
            ) -> tuple[Session | None, str | None]:
    """load_with_response's answer from a session's stored fields."""
    session = None if blob is None else Session.from_json(_unpack(blob))
    if rid is None or response is None or rid.decode() != request_id:
        return session, None
    return session, _unpack(response).decode()


class _Read:
    """A blocking read under way, which another thread (a Wake, the store's close) may end.
    CLIENT UNBLOCK ends it once Redis has begun it; one arriving before is lost, so an UNBLOCK
    that finds nothing blocked closes the connection instead (the read then fails on it).
    Nothing is done to the connection once the read is over: another caller may hold it."""

    def __init__(self, store: RedisSessionStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._client_id: int | None = None  # known once the read is sent
        self._ending = False
        self._over = False
        self.killed = False  # its connection was closed to end it

    def end(self) -> None:
        with self._lock:
            if self._over or self._ending:
                return
            self._ending = True
            if self._client_id is not None:
                self.killed = self._store._interrupt(self._client_id)

    def sent(self, client_id: int) -> None:
        """The read is on its way on connection `client_id`: an end asked before is done now."""
        with self._lock:
            self._client_id = client_id
            if self._ending:
                self.killed = self._store._interrupt(client_id)

    def finish(self) -> bool:
        """No interrupt from now on (one under way is waited out); True if it was killed."""
        with self._lock:
            self._over = True
            return self.killed


def _end_all(reads: list[_Read], wake: redis.Redis) -> None:
    for read in reads:
        read.end()
    # Closed with the store; one that a late end is using is left to it (and, should an end
    # still come, redis-py connects again).
    wake.connection_pool.disconnect(inuse_connections=False)


class RedisSessionStore:
    def __init__(self, client: redis.Redis, idle_ttl: int = IDLE_TTL,
                 finished_ttl: int = FINISHED_TTL, wake: redis.Redis | None = None) -> None:
        """wake: a client on a pool of its own for wake-ups (from_url makes one); without it
        they share `client`'s, where reads holding every connection starve them."""
        # redis-py types every reply as bytes | str; this client's (no decoding) are bytes.
        self.r: Any = client
        self.idle_ttl = idle_ttl
        self.finished_ttl = finished_ttl
        self._commit = client.register_script(_COMMIT)
        self._create = client.register_script(_CREATE)
        self._reads: set[_Read] = set()  # the blocking reads under way, for close to end
        self._reads_lock = threading.Lock()
        self._closed = False
        self._wake = client if wake is None else wake
        # match id -> (packed blob, last request id, its packed response), least recent first
        self._recent: OrderedDict[str, tuple[bytes, bytes | None, bytes | None]] = \
            OrderedDict()
        self._recent_lock = threading.Lock()

    def close(self) -> None:
        """The server is stopping: every blocked read is ended at once and its follower told
        UNAVAILABLE (as by the memory store), rather than holding the drain for up to
        MAX_WAIT_SECONDS; a read asked for later is refused so."""
        with self._reads_lock:
            self._closed = True
            reads = list(self._reads)
        # Off the draining thread: with Redis out of reach each end could take a connect
        # timeout, and the drain must go on to stop the server within its grace.
        threading.Thread(target=_end_all, args=(reads, self._wake), name="closing-feeds",
                         daemon=True).start()

    @classmethod
    def from_url(cls, url: str, idle_ttl: int = IDLE_TTL, connections: int = 600,
                 finished_ttl: int = FINISHED_TTL) -> RedisSessionStore:
        # Streams hold a connection while they wait (XREAD BLOCK), so `connections` should be
        # one per server thread; a blocking pool makes an extra caller wait, not fail.
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=connections, timeout=10, socket_timeout=READ_TIMEOUT_SECONDS,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS)
        # Blocking, so that a burst of wake-ups queues (each takes a round trip) for at most
        # WAKE_TIMEOUT_SECONDS rather than failing.
        wakes = redis.BlockingConnectionPool.from_url(
            url, max_connections=WAKE_CONNECTIONS, timeout=WAKE_TIMEOUT_SECONDS,
            socket_timeout=WAKE_TIMEOUT_SECONDS, socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
            client_name=WAKE_CLIENT_NAME)
        return cls(redis.Redis(connection_pool=pool), idle_ttl, finished_ttl,
                   redis.Redis(connection_pool=wakes))

    def load(self, match_id: str) -> Session | None:
        blob = self.r.hget(_key(match_id, "session"), "blob")
        return None if blob is None else Session.from_json(_unpack(blob))

    def create(self, session: Session) -> bool:
        # As a commit, by the session's status: a finished match rebuilt from the log (a read
        # after its session went) is kept FINISHED_TTL, not IDLE_TTL, as in the memory store.
        ttl = int(ttl_of(session, self.idle_ttl, self.finished_ttl))
        blob = _pack(session.to_json())
        args: list[Any] = [session.version, blob, ttl, seats_mark(session.seats)]
        created = bool(self._create(keys=[_key(session.match_id, "session")], args=args))
        if created:
            self._remember(session.match_id, blob, None, None)
        return created

    def commit(self, session: Session, expected_version: int, events: list[dict[str, Any]],
               request_id: str, response: str, seats_before: str | None = None) -> bool:
        # A version step without events is marked after the last event's id (versions only
        # grow, so marks stay in order, and the next event's "<seq + 1>-0" comes after them).
        mark = (f"{session.event_seq}-{session.version}"
                if not events and session.version > expected_version else "")
        ttl = int(ttl_of(session, self.idle_ttl, self.finished_ttl))
        seats = seats_mark(session.seats)
        blob, packed = _pack(session.to_json()), _pack(response)
        args: list[Any] = [expected_version, session.version, blob, ttl, EVENTS_KEPT,
                           request_id, packed, mark,
                           seats if seats_before is None else seats_before, seats]
        for e in events:
            args += [e["seq"], jsonio.dumps(e)]
        keys = [_key(session.match_id, "session"), _key(session.match_id, "events"),
                _key(session.match_id, "seats")]
        written = bool(self._commit(keys=keys, args=args))
        if not written:
            self.forget(session.match_id)
        elif request_id:
            self._remember(session.match_id, blob, request_id.encode(), packed)
        else:  # as the script does, the last request's response is kept
            self._remember(session.match_id, blob, *self._last_request(session.match_id))
        return written

    def invalidate(self, match_id: str) -> None:
        self.forget(match_id)
        self.r.delete(_key(match_id, "session"))

    def load_with_response(self, match_id: str, request_id: str
                           ) -> tuple[Session | None, str | None]:
        blob, rid, response = self.r.hmget(_key(match_id, "session"), "blob", "rid", "response")
        if blob is None:
            self.forget(match_id)
            return None, None
        self._remember(match_id, blob, rid, response)
        return _answer(blob, rid, response, request_id)

    def recent(self, match_id: str, request_id: str) -> tuple[Session, str | None] | None:
        with self._recent_lock:
            kept = self._recent.get(match_id)
            if kept is None:
                return None
            self._recent.move_to_end(match_id)
        session, response = _answer(*kept, request_id)
        assert session is not None
        return session, response

    def forget(self, match_id: str) -> None:
        with self._recent_lock:
            self._recent.pop(match_id, None)

    def _remember(self, match_id: str, blob: bytes, rid: bytes | None,
                  response: bytes | None) -> None:
        with self._recent_lock:
            self._recent[match_id] = (blob, rid, response)
            self._recent.move_to_end(match_id)
            while len(self._recent) > RECENT_SESSIONS:
                self._recent.popitem(last=False)

    def _last_request(self, match_id: str) -> tuple[bytes | None, bytes | None]:
        with self._recent_lock:
            kept = self._recent.get(match_id)
        return (None, None) if kept is None else kept[1:]

    def events_after(self, match_id: str, after_seq: int, wait_seconds: float,
                     after_version: int = -1, wake: Wake | None = None,
                     seen_seats: str | None = None) -> tuple[list[dict[str, Any]], bool]:
        if self._closed:
            raise stopping("match")
        key = _key(match_id, "events")
        # After event `after_seq` and, when the version is given, after the marks up to it.
        start = f"{after_seq}-{max(after_version, 0)}"
        block = int(min(wait_seconds, MAX_WAIT_SECONDS) * 1000)
        if block:
            streams, seats = {key: start}, None
            if seen_seats is not None:  # and a seat changing hands from now on ("$"); one
                # changed since the caller's reading is found by comparing the session's
                # seats, sent with the read (_read_on)
                streams[_key(match_id, "seats")] = "$"
                seats = (_key(match_id, "session"), seen_seats)
            reply = self._blocking_read(streams, block, wake, seats)
        else:
            reply = self.r.xread({key: start}, count=EVENTS_KEPT)
        found = [jsonio.loads(fields[b"e"]) for _, entries in reply for _, fields in entries
                 if b"e" in fields]
        first = self.r.xrange(key, count=1)
        oldest = None
        if first:  # the first event kept: a mark's own seq is an event before it
            seq, _, sub = first[0][0].partition(b"-")
            oldest = int(seq) + (sub != b"0")
        # A hole among the events found (an action's lost commit, see unbroken): read the log.
        complete = (oldest is None or oldest <= after_seq + 1) and unbroken(found, after_seq)
        return found, complete

    def _blocking_read(self, streams: dict[str, str], block_ms: int, wake: Wake | None,
                       seats: tuple[str, str] | None = None) -> Any:
        """XREAD BLOCK that `wake` or close ends early (it then answers as if its time were
        up, or, after close, raises stopping()); so does a session whose seats are no longer
        `seats` = (session key, seats_mark) when the read is sent."""
        read = _Read(self)
        with self._reads_lock:
            if self._closed:
                raise stopping("match")
            self._reads.add(read)
        try:
            raw = None
            if wake is None or wake.arm(read.end):  # else already set: no wait
                try:
                    raw = self._send_read(read, streams, block_ms, seats)
                finally:
                    if wake is not None:
                        wake.disarm()
        finally:
            with self._reads_lock:
                self._reads.discard(read)
        if self._closed:
            raise stopping("match")
        return self.r.response_callbacks["XREAD"](raw) if raw else []

    def _send_read(self, read: _Read, streams: dict[str, str], block_ms: int,
                   seats: tuple[str, str] | None) -> Any:
        pool = self.r.connection_pool
        conn = pool.get_connection()
        try:
            return self._read_on(conn, read, streams, block_ms, seats)
        except BaseException:
            conn.disconnect()  # its state is unknown: never handed out again as it is
            raise
        finally:
            if read.finish():
                conn.disconnect()  # closed by Redis to end the read, or about to be
            pool.release(conn)

    def _read_on(self, conn: Any, read: _Read, streams: dict[str, str], block_ms: int,
                 seats: tuple[str, str] | None) -> Any:
        # The connection's id travels with the read: a reconnect changes it, so an id kept
        # from before could end (or close) another client's command.
        check = [("HGET", seats[0], "seats")] if seats else []
        conn.send_packed_command(conn.pack_commands([
            ("CLIENT", "ID"), *check,
            ("XREAD", "COUNT", EVENTS_KEPT, "BLOCK", block_ms, "STREAMS", *streams,
             *streams.values())]))
        read.sent(conn.read_response())
        if seats:
            now = conn.read_response()  # answered before the read blocks
            if now is not None and now.decode() != seats[1]:
                read.end()  # changed hands since the caller's reading: no wait for it
        try:
            return conn.read_response()
        except redis.ConnectionError:
            if not read.finish():  # not closed by an interrupt: Redis went away
                raise
            return None  # as if its time were up

    def _interrupt(self, client_id: int) -> bool:
        """Ends the blocking read of connection `client_id`; True if it closed the connection."""
        if self._unblock(client_id):
            return False
        # Not blocked: Redis has not begun the read yet (or has just answered it).
        with contextlib.suppress(redis.RedisError):
            self._wake.execute_command("CLIENT", "KILL", "ID", client_id)
        return True

    def _unblock(self, client_id: int) -> bool:
        """CLIENT UNBLOCK; False only if Redis said the connection was not blocked."""
        try:
            return bool(self._wake.client_unblock(client_id))
        except redis.RedisError:  # out of reach: the read then ends at its time
            return True

    def set_deadline(self, match_id: str, when: float) -> None:
        if when:
            self.r.zadd(DEADLINES, {match_id: when})
        else:
            self.r.zrem(DEADLINES, match_id)

    def set_deadlines(self, match_ids: list[str], when: float) -> None:
        if match_ids:
            self.r.zadd(DEADLINES, dict.fromkeys(match_ids, when))

    def index_whole(self) -> bool:
        return bool(self.r.exists(INDEX_WHOLE))

    def mark_index_whole(self) -> None:
        self.r.set(INDEX_WHOLE, 1)

    def due_deadlines(self, now: float, limit: int) -> list[str]:
        return [m.decode() for m in self.r.zrangebyscore(DEADLINES, 0, now, start=0, num=limit)]
