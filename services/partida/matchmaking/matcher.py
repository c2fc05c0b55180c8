"""The matchmaking loop: expire, recover, read the pools, form, claim, create, assign.

Any number of Matchers (threads or replicas) may share a store: claims are atomic, so a
ticket is assigned at most once, and a proposal's request id makes creating its match
idempotent when a claim is recovered from a matcher that died mid-way, or asked again after
a failure that left unknown whether the match was made.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from typing import Protocol

import grpc

from partida.matchmaking.pools import Policy, Proposal, form_matches
from partida.matchmaking.store.base import TicketStore
from partida.matchmaking.tickets import Ticket
from partida.platform import metrics
from partida.platform.errors import ServiceError
from partida.platform.outages import run_rounds

log = logging.getLogger("partida.matchmaking")

# Refusals of a match that asking again cannot change (the campaign scenario asked for was
# played meanwhile, say): the proposal's tickets fail with the reason. They went back to
# their pools, and the same table was proposed and refused every tick until they expired.
LASTING = frozenset({grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION,
                     grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED})
MAX_FAILURE = 300  # characters of a refusal kept as a ticket's failure
# Any other failure (the call timed out or broke off, the rules service answered UNAVAILABLE)
# may come after the match was made. Its tickets stay claimed and the same proposal, hence
# the same match, is asked again this long after: released, they were matched into another
# table while the first one kept their seats, never told to anyone.
RETRY_SECONDS = 5.0
# Such a claim is released, and its tickets expire, only after an ask made once they had
# all expired failed too: released as soon as a failure found them expired, a match made
# but answered late (or never) left its players told EXPIRED while seated. A refusal the
# rules service answered for the table then ends it (it would have returned the match made,
# the request id being the same); a call that failed as a whole says nothing, so the table
# is asked again until it is answered, or for this long past the tickets' expiry.
UNANSWERED_SECONDS = 60.0
# Failures of a whole call that say nothing of its proposals (the rules service out of reach,
# or too slow): asking again one proposal to a call would only multiply the wait.
UNREACHED = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                       grpc.StatusCode.CANCELLED})
# How long a tick waits for its creation calls; one still running then settles its own
# tables when it returns. A table whose creation kept timing out had every pool's tickets
# wait for it, tick after tick.
TICK_WAIT_SECONDS = 1.0


# A creation's outcome for one proposal (its match id, the refusal, or None when the whole
# call failed), with the time it was asked.
Asked = tuple[str | Exception | None, float]


def lasting(e: Exception) -> str | None:
    """Why a proposal's refusal is for good, or None when asking again may succeed."""
    if isinstance(e, ServiceError):
        code, message = e.code, e.message
    elif isinstance(e, grpc.RpcError):
        code, message = e.code(), e.details() or ""
    else:
        return None
    return f"{code.name}: {message}"[:MAX_FAILURE] if code in LASTING else None


class MatchCreator(Protocol):
    """Creates matches (the rules service's CreateMatches): per proposal, its match id, or
    why it was not created. A proposal's request_id names its match: the same request_id
    must give the same match."""

    def create_matches(self, proposals: Sequence[Proposal]) -> list[str | Exception]: ...


def each_alone(create: Callable[[Proposal], str], proposals: Sequence[Proposal]
               ) -> list[str | Exception]:
    """`create_matches` made of a way to create one match at a time."""
    made: list[str | Exception] = []
    for p in proposals:
        try:
            made.append(create(p))
        except Exception as e:  # this one fails alone: the others stand
            made.append(e)
    return made


class RatingSource(Protocol):
    """A player's rating in a game (Glicko-2 scale)."""

    def rating(self, player_id: str, game_id: str) -> float: ...


@dataclass(frozen=True)
class ConstantRatings:
    """Everyone rated the same, until the persistence service keeps ratings."""

    value: float = 1500.0

    def rating(self, player_id: str, game_id: str) -> float:
        return self.value


class QueueDepth:
    """partida_matchmaking_queue_depth{pool}: tickets searching per pool (`<game>/<seats>`,
    the pools the match function forms tables in), as read at the start of a tick. A pool
    seen once stays reported, at 0 when empty, so graphs fall to 0 instead of stopping."""

    def __init__(self) -> None:
        self._pools: set[str] = set()

    def update(self, searching: Sequence[Ticket]) -> None:
        depth: dict[str, int] = {}
        for t in searching:
            pool = f"{t.game_id}/{t.seats}"
            depth[pool] = depth.get(pool, 0) + 1
        self._pools |= depth.keys()
        for pool in self._pools:
            metrics.MATCHMAKING_QUEUE_DEPTH.labels(pool).set(depth.get(pool, 0))


class Matcher:
    """Runs ticks; `start` runs them every `interval` seconds on a daemon thread.

    lease_seconds must exceed the longest create_matches call: after it another matcher
    may take the claim over (harmlessly, thanks to the request id, but wastefully).
    retry_seconds is how long a creation that failed without a verdict waits to be asked
    again (RETRY_SECONDS), past its tickets' expiry too (UNANSWERED_SECONDS).
    tick_wait_seconds is how long a tick waits for its creation calls (TICK_WAIT_SECONDS):
    a call still running then settles its own tables when it returns, and the ticks go on
    meanwhile.
    """

    def __init__(self, store: TicketStore, creator: MatchCreator, policy: Policy,
                 clock: Callable[[], float] = time.time, *, lease_seconds: float = 30.0,
                 interval: float = 0.1, workers: int = 8, batch: int = 16,
                 retry_seconds: float = RETRY_SECONDS,
                 tick_wait_seconds: float = TICK_WAIT_SECONDS) -> None:
        self._store, self._creator, self._policy, self._clock = store, creator, policy, clock
        self._lease, self._retry = lease_seconds, retry_seconds
        self._interval, self._tick_wait = interval, tick_wait_seconds
        # Matches are created `batch` to a call (fewer round trips, and the rules service
        # writes those of a call together), several calls at once: with a remote rules
        # service the round trips, not this loop, bound the throughput.
        self._batch = max(1, batch)
        self._workers = max(1, workers)
        self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="matcher-create")
        self._late: set[Future[list[Asked]]] = set()  # calls past a tick
        self._late_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._depth = QueueDepth()

    def tick(self) -> int:
        """One round; returns the number of tickets assigned."""
        now = self._clock()
        self._store.expire(now)
        with self._late_lock:
            if len(self._late) >= self._workers:
                # Every creation thread is held by a slow call: tables claimed now would
                # wait behind them, their leases running out. They stay in their pools.
                return 0
        todo = self._store.stale_claims(now, self._lease)
        searching = self._store.searching()
        self._depth.update(searching)
        proposals = form_matches(searching, now, self._policy)
        claimed = self._store.claim(proposals, now, self._lease)
        todo += [p for p, ok in zip(proposals, claimed, strict=True) if ok]
        created = {t.ticket_id: t.created for t in searching}
        chunks = [todo[i:i + self._batch] for i in range(0, len(todo), self._batch)]
        calls = [(chunk, self._pool.submit(self._create, chunk)) for chunk in chunks]
        wait([f for _, f in calls], timeout=self._tick_wait)
        finished = [(chunk, f) for chunk, f in calls if f.done()]
        settled_now = {f for _, f in finished}
        for chunk, f in calls:
            if f not in settled_now:  # a slow call must not hold up every pool
                with self._late_lock:
                    self._late.add(f)
                f.add_done_callback(partial(self._settle_late, chunk, created))
        done = self._settle([p for chunk, _ in finished for p in chunk],
                            [a for _, f in finished for a in f.result()], created)
        return sum(len(p.ticket_ids) for p, _ in done)

    def _settle_late(self, chunk: Sequence[Proposal], created: dict[str, float],
                     f: Future[list[Asked]]) -> None:
        """A call that outlasted its tick settles its tables when it returns. Should the
        store fail now, its claims stay, and are taken over when their lease ends."""
        try:
            self._settle(chunk, f.result(), created)
        except Exception:
            log.exception("settling %d matches created late failed; their claims are taken "
                          "over when their lease ends", len(chunk))
        finally:
            with self._late_lock:
                self._late.discard(f)

    def _settle(self, proposals: Sequence[Proposal], made: Sequence[Asked],
                created: dict[str, float]) -> list[tuple[Proposal, str]]:
        """Assigns the tables made, fails those refused for good and postpones the rest;
        the time to match is observed for the tickets read this round (in `created`)."""
        done: list[tuple[Proposal, str]] = []
        refused: list[tuple[Proposal, str]] = []
        # Tables to ask again, by the time before which all of a table's tickets must have
        # expired for it to be released instead (UNANSWERED_SECONDS)
        unsure: dict[float, list[Proposal]] = {}
        for p, (m, asked) in zip(proposals, made, strict=True):
            if isinstance(m, str):
                done.append((p, m))
                continue
            why = lasting(m) if m is not None else None  # None: the whole call failed
            if why:
                refused.append((p, why))
            else:
                unsure.setdefault(asked - (UNANSWERED_SECONDS if m is None else 0.0),
                                  []).append(p)
            if m is not None:
                log.warning("creating match %s was refused (%s); its tickets %s", p.request_id,
                            m, "fail" if why else "wait for it to be asked again")
        now = self._clock()
        for expired_by, postponed in unsure.items():
            self._store.postpone(postponed, now, self._retry, expired_by)
        self._store.fail(refused)
        self._store.assign(done)
        waited = self._clock()
        for p, _ in done:  # recovered claims' tickets were not read this round: not timed
            for ticket_id in p.ticket_ids:
                if ticket_id in created:
                    metrics.TIME_TO_MATCH.labels(p.game_id).observe(waited - created[ticket_id])
        return done

    def _create(self, chunk: Sequence[Proposal]) -> list[Asked]:
        """Per proposal: its match id, the refusal, or None when the whole call failed (the
        matches may have been made all the same: they are asked again); each with the
        time the call was made."""
        asked = self._clock()
        try:
            made = self._creator.create_matches(chunk)
        except Exception as e:
            if len(chunk) > 1 and not (isinstance(e, grpc.RpcError) and e.code() in UNREACHED):
                # One proposal may have failed the call (a rules service bug answers the
                # whole call UNKNOWN): one to a call, it no longer holds up the others,
                # batched with it again and again until their tickets expired.
                log.warning("creating %d matches failed (%s); asking one at a time",
                            len(chunk), e)
                return [m for p in chunk for m in self._create([p])]
            log.exception("creating %d matches failed; asking again in %g s", len(chunk),
                          self._retry)
            return [(None, asked)] * len(chunk)
        return [(m, asked) for m in made]

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="matcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._pool.shutdown()

    def _run(self) -> None:
        run_rounds(self.tick, self._stop, self._interval, log, "matchmaking")
