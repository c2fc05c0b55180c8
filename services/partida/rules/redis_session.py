"""Sessions in Redis: one hash-tagged key family per match, so Redis Cluster shards by match.

  match:{id}:session   hash {version, seats, blob, rid, response}   the session, compare-and-set
                       by Lua on its version and seats (session.seats_mark), with the last
                       request's response (an immediate retry is answered from here; older
                       repeats from the database log); blob and response deflated when long
                       (see _pack)
  match:{id}:events    stream, ids "<seq>-0"     the recent events, trimmed to EVENTS_KEPT;
                       an action without events adds a mark "<last seq>-<version>" instead,
                       so that streams waiting on the match wake up
  partida:deadlines    sorted set                decision deadlines (match id by time)
  partida:deadlines:whole   string               set once the index holds every live match;
                       gone with the rest when Redis comes back empty (restored_lost_index)

Every key of a match expires when the match has been idle for `idle_ttl` seconds, or
`finished_ttl` seconds after its end (see session).
"""

from __future__ import annotations

import contextlib
import zlib
from typing import Any

import redis

from partida.platform import jsonio
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

# KEYS: session, events
# ARGV: expected version, new version, blob, ttl, events kept, request id ("" for none),
#       response, mark id ("" for none), expected seats, new seats, then pairs of
#       (seq, event json). A session written before seats were kept has none to compare.
_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if current ~= ARGV[1] then return 0 end
local seats = redis.call('HGET', KEYS[1], 'seats')
if seats and seats ~= ARGV[9] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'blob', ARGV[3], 'seats', ARGV[10])
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


class RedisSessionStore:
    def __init__(self, client: redis.Redis, idle_ttl: int = IDLE_TTL,
                 finished_ttl: int = FINISHED_TTL) -> None:
        # redis-py types every reply as bytes | str; this client's (no decoding) are bytes.
        self.r: Any = client
        self.idle_ttl = idle_ttl
        self.finished_ttl = finished_ttl
        self._commit = client.register_script(_COMMIT)
        self._create = client.register_script(_CREATE)

    @classmethod
    def from_url(cls, url: str, idle_ttl: int = IDLE_TTL, connections: int = 600,
                 finished_ttl: int = FINISHED_TTL) -> RedisSessionStore:
        # Streams hold a connection while they wait (XREAD BLOCK), so `connections` should be
        # one per server thread; a blocking pool makes an extra caller wait, not fail.
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=connections,
                                                     timeout=10,
                                                     socket_timeout=READ_TIMEOUT_SECONDS)
        return cls(redis.Redis(connection_pool=pool), idle_ttl, finished_ttl)

    def load(self, match_id: str) -> Session | None:
        blob = self.r.hget(_key(match_id, "session"), "blob")
        return None if blob is None else Session.from_json(_unpack(blob))

    def create(self, session: Session) -> bool:
        # As a commit, by the session's status: a finished match rebuilt from the log (a read
        # after its session went) is kept FINISHED_TTL, not IDLE_TTL, as in the memory store.
        ttl = int(ttl_of(session, self.idle_ttl, self.finished_ttl))
        args: list[Any] = [session.version, _pack(session.to_json()), ttl,
                           seats_mark(session.seats)]
        return bool(self._create(keys=[_key(session.match_id, "session")], args=args))

    def commit(self, session: Session, expected_version: int, events: list[dict[str, Any]],
               request_id: str, response: str, seats_before: str | None = None) -> bool:
        # A version step without events is marked after the last event's id (versions only
        # grow, so marks stay in order, and the next event's "<seq + 1>-0" comes after them).
        mark = (f"{session.event_seq}-{session.version}"
                if not events and session.version > expected_version else "")
        ttl = int(ttl_of(session, self.idle_ttl, self.finished_ttl))
        seats = seats_mark(session.seats)
        args: list[Any] = [expected_version, session.version, _pack(session.to_json()), ttl,
                           EVENTS_KEPT, request_id, _pack(response), mark,
                           seats if seats_before is None else seats_before, seats]
        for e in events:
            args += [e["seq"], jsonio.dumps(e)]
        keys = [_key(session.match_id, "session"), _key(session.match_id, "events")]
        return bool(self._commit(keys=keys, args=args))

    def invalidate(self, match_id: str) -> None:
        self.r.delete(_key(match_id, "session"))

    def load_with_response(self, match_id: str, request_id: str
                           ) -> tuple[Session | None, str | None]:
        blob, rid, response = self.r.hmget(_key(match_id, "session"), "blob", "rid", "response")
        session = None if blob is None else Session.from_json(_unpack(blob))
        repeat = rid is not None and rid.decode() == request_id
        return session, (_unpack(response).decode() if repeat else None)

    def events_after(self, match_id: str, after_seq: int, wait_seconds: float,
                     after_version: int = -1, wake: Wake | None = None
                     ) -> tuple[list[dict[str, Any]], bool]:
        key = _key(match_id, "events")
        # After event `after_seq` and, when the version is given, after the marks up to it.
        start = f"{after_seq}-{max(after_version, 0)}"
        block = int(min(wait_seconds, MAX_WAIT_SECONDS) * 1000) or None  # None: do not block
        if block and wake is not None:
            reply = self._wakeable_read(key, start, block, wake)
        else:
            reply = self.r.xread({key: start}, count=EVENTS_KEPT, block=block)
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

    def _wakeable_read(self, key: str, start: str, block_ms: int, wake: Wake) -> Any:
        """XREAD BLOCK on a connection of its own, which `wake` ends early by CLIENT UNBLOCK
        (the read then answers as if its time were up)."""
        pool = self.r.connection_pool
        conn = pool.get_connection()
        try:
            client_id = getattr(conn, "partida_client_id", None)
            if client_id is None:  # asked once per connection (its id is fixed)
                conn.send_command("CLIENT", "ID")
                client_id = conn.partida_client_id = conn.read_response()
            if not wake.arm(lambda: self._unblock(client_id)):
                return []
            try:
                conn.send_command("XREAD", "COUNT", EVENTS_KEPT, "BLOCK", block_ms,
                                  "STREAMS", key, start)
                raw = conn.read_response()
            finally:
                wake.disarm()
        except BaseException:
            conn.disconnect()  # its state is unknown: never handed out again as it is
            raise
        finally:
            pool.release(conn)
        return self.r.response_callbacks["XREAD"](raw) if raw else []

    def _unblock(self, client_id: int) -> None:
        # Redis out of reach: the read then ends at its time, as it would have without a wake.
        with contextlib.suppress(redis.RedisError):
            self.r.client_unblock(client_id)

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
