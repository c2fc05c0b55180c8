"""Benchmarks of the running platform (issue 3): scripted clients, bots, matchmaking, Redis
memory, database rows. Each stack is started here as separate processes on this machine.

Client load comes from separate processes, each driving its share of the matches with asyncio
gRPC calls, as a client would: ListLegalActions for the seat the last response named (unless
that response already carried the seat's next actions), then SubmitAction of its default.
The loads: clients acting back to back (the most the stack serves; latency there is
mostly the wait in line); an offered 200 actions/s (one per match per second, the matches
at every stage of their lives, as in a steady state: some end and new ones start within the
run) for the latency of a call below saturation; offered rates stepped up to find the highest served
with a submit p99 under 25 ms; and back to back again while 1,000 idle live feeds are held
open on the server (players watching quiet matches). The PostgreSQL of these runs is a
durable one, as in production: a commit waits for its WAL to reach the disk.
Each run also measures the machine's gRPC floors (floors.py) to read the stack against, and
the rules service's own work per action without gRPC (inprocess.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing as mp
import random
import statistics
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import grpc
import psutil
import redis
import sqlalchemy as sa
from cputime import cpu_meanwhile
from floors import floors
from inprocess import inprocess

from partida.devstack.servers import postgres_server, redis_server
from partida.devstack.stack import SECRETS, Stack, embedded_stack, split_stack
from partida.platform.auth import Authority
from partida.rules.redis_session import RedisSessionStore
from partida.v1 import (
    common_pb2,
    matchmaking_pb2,
    matchmaking_pb2_grpc,
    rules_pb2,
    rules_pb2_grpc,
)

AUTHORITY = Authority(SECRETS["PARTIDA_TOKEN_SECRET"], SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"],
                      {})


@dataclass
class Load:
    actions: int
    seconds: float
    latencies: list[float]  # submit-action round trips, seconds
    errors: int = 0         # calls refused or failed (the client re-read and went on)
    server_cpu: float = 0.0  # CPU seconds the stack's processes used meanwhile
    server_cpu_by: dict[str, float] = field(default_factory=dict)  # the same, by process
    client_cpu: float = 0.0  # CPU seconds of the client processes
    endings: list[float] = field(default_factory=list)  # the latencies of match-ending actions

    @property
    def rate(self) -> float:
        return self.actions / self.seconds

    @property
    def cpu_ms_per_action(self) -> tuple[float, float]:
        """(server, client) CPU milliseconds per action: unlike rates, these hardly move when
        other work shares the machine."""
        n = max(1, self.actions)
        return self.server_cpu * 1000 / n, self.client_cpu * 1000 / n

    def pct(self, q: float, of: list[float] | None = None) -> float:
        """The `q` quantile in ms of the latencies (or of those given)."""
        s = sorted(self.latencies if of is None else of)
        return s[int(q * (len(s) - 1))] * 1000 if s else float("nan")


def _token(subject: str, service: bool = False) -> tuple[tuple[str, str], ...]:
    token = (AUTHORITY.service_token(subject) if service
             else AUTHORITY.player_token(subject, 3600)[0])
    return (("authorization", f"Bearer {token}"),)


async def _create(stub, players: list[str], bots: list[str] = ()) -> str:
    seats = ([rules_pb2.SeatRequest(player_id=p) for p in players]
             + [rules_pb2.SeatRequest(bot=b) for b in bots])
    r = await stub.CreateMatch(rules_pb2.CreateMatchRequest(
        game_id="montanas", scenario_id="standard", seats=seats, options_json='{"first_seat":0}',
        request_id=uuid.uuid4().hex), metadata=_token("bench", service=True))
    return r.match.match_id


# About how many actions a bench match lasts, each seat taking its default action (3,759
# actions over 93 matches played back to back on 2026-12-01).
LIFETIME = 40


async def _drive(address: str, matches: int, seconds: float, pace: float = 0.0,
                 warm: float = 0.0) -> tuple[int, list[float], int, float, list[float]]:
    """Keep `matches` two-player matches busy for `seconds`; every action is a client's.
    Each match has players of its own, as separate people would. With `pace`, a match's
    actions are started `pace` seconds apart (an offered load), else back to back. Actions
    of the first `warm` seconds are neither counted nor timed; an offered load's matches
    start at random times within them, as players arrive, not in one wave that would come
    round again each time the matches end together. Before an offered load's clock starts,
    each match is played back to back (untimed) to a random point of its life, so that the
    run sees matches at every stage, ending and being created as they would be in a steady
    state: 200 fresh matches would none of them end within the run, and a match's last
    action, which also closes the match and rates its players, is the slowest one.
    Returns (actions, their latencies, errors, client CPU, latencies of the match-ending ones)."""
    latencies: list[float] = []
    endings: list[float] = []
    uncounted: list[float] = []
    errors = 0
    async with grpc.aio.insecure_channel(address) as channel:
        stub = rules_pb2_grpc.RulesServiceStub(channel)

        async def step(match_id: str, seat: int, players: list[str], meta: dict,
                       known: tuple[int, str] | None, timed: list[float]
                       ) -> tuple[int | None, tuple[int, str] | None]:
            """The seat's action; on a refusal, who is to act is read again."""
            nonlocal errors
            try:
                seat_next, known = await _act(stub, match_id, seat, players, meta, timed, known)
            except grpc.aio.AioRpcError:
                errors += 1
                view = await stub.GetView(rules_pb2.GetViewRequest(
                    match_id=match_id, seat=0), metadata=meta[players[0]])
                return (view.decision.seats[0] if view.decision.seats else None), None
            if seat_next is None and timed is latencies:
                endings.append(latencies[-1])
            return seat_next, known

        async def started(players: list[str], meta: dict, skip: int = 0
                          ) -> tuple[str, int | None, tuple[int, str] | None]:
            """A new match with its first `skip` actions played: (id, seat to act, known)."""
            nonlocal errors
            while True:
                try:
                    match_id = await _create(stub, players)
                    break
                except grpc.aio.AioRpcError:
                    errors += 1
            seat: int | None = 0  # first_seat 0: seat 0 places the first explorer
            known = None
            for _ in range(skip):
                seat, known = await step(match_id, seat, players, meta, known, uncounted)
                if seat is None:  # over already: a fresh one instead
                    return await started(players, meta)
            return match_id, seat, known

        async def one_match(players: list[str], meta: dict,
                            match: tuple[str, int | None, tuple[int, str] | None] | None
                            ) -> None:
            if pace:
                await asyncio.sleep(warm * random.random())
            due = time.monotonic() + pace * random.random()  # matches out of step
            while time.monotonic() < stop:
                match_id, seat, known = match or await started(players, meta)
                match = None  # the next one (a match ended) keeps the cadence
                while time.monotonic() < stop and seat is not None:
                    if pace:  # a match running late does not catch up in a burst
                        await asyncio.sleep(max(0.0, due - time.monotonic()))
                        due = max(due, time.monotonic()) + pace
                        if time.monotonic() >= stop:  # no action after the window
                            break
                    seat, known = await step(match_id, seat, players, meta, known,
                                             latencies if time.monotonic() >= since
                                             else uncounted)

        people = [[f"bench-{uuid.uuid4().hex[:8]}" for _ in range(2)] for _ in range(matches)]
        metas = [{p: _token(p) for p in players} for players in people]
        first: list[Any] = [None] * matches
        if pace:
            first = await asyncio.gather(*(started(players, meta, random.randrange(LIFETIME))
                                           for players, meta in zip(people, metas, strict=True)))
        stop = time.monotonic() + seconds
        since = time.monotonic() + warm
        cpu = time.process_time()
        await asyncio.gather(*(one_match(*m) for m in zip(people, metas, first, strict=True)))
    return len(latencies), latencies, errors, time.process_time() - cpu, endings


async def _act(stub, match_id: str, seat: int, players: list[str], meta: dict,
               latencies: list[float], known: tuple[int, str] | None
               ) -> tuple[int | None, tuple[int, str] | None]:
    """Submit the seat's default action, listing its actions first unless the previous
    response already gave them; returns who decides next (None: over) and, when that is the
    same seat, its next (version, default action)."""
    if known is None:
        legal = await stub.ListLegalActions(rules_pb2.ListLegalActionsRequest(
            match_id=match_id, seat=seat), metadata=meta[players[seat]])
        known = (legal.version, legal.default_action_id)
    t = time.perf_counter()
    r = await stub.SubmitAction(rules_pb2.SubmitActionRequest(
        match_id=match_id, seat=seat, expected_version=known[0],
        request_id=uuid.uuid4().hex, action=common_pb2.Action(action_id=known[1])),
        metadata=meta[players[seat]])
    latencies.append(time.perf_counter() - t)
    nxt = r.decision.seats[0] if r.decision.seats else None
    return nxt, ((r.version, r.next_default_action_id) if r.next_default_action_id else None)


def _client_process(args: tuple[str, int, float, float, float]
                    ) -> tuple[int, list[float], int, float, list[float]]:
    return asyncio.run(_drive(*args))


def client_load(addresses: list[str], matches: int = 200, seconds: float = 20.0,
                processes: int = 2, server_pids: Mapping[str, list[int]] | None = None,
                offered: float = 0.0, warm: float = 0.0) -> Load:
    """Scripted clients over `processes` processes, spread over the rules replicas given;
    the CPU time of the `server_pids` (by process name) is measured over the same window.
    `offered`: actions per second asked of the server in all (0: as many as it takes);
    `warm`: seconds at the start left out of the counts (then the rate is over the rest)."""
    pace = matches / offered if offered else 0.0
    jobs = [(addresses[i % len(addresses)], matches // processes, seconds, pace, warm)
            for i in range(processes)]
    start = time.monotonic()
    with cpu_meanwhile(server_pids or {}) as used, \
            mp.get_context("spawn").Pool(processes) as pool:
        results = pool.map(_client_process, jobs)
    elapsed = seconds - warm if warm else time.monotonic() - start
    return Load(sum(r[0] for r in results), elapsed, [x for r in results for x in r[1]],
                sum(r[2] for r in results), sum(used.values()), used,
                sum(r[3] for r in results), [x for r in results for x in r[4]])


def stack_pids(stack: Stack, *urls: str) -> dict[str, list[int]]:
    """The stack's processes by name (rules replicas together), and the Redis and PostgreSQL
    servers listening at `urls` (each counted with its children: see cputime)."""
    pids: dict[str, list[int]] = {}
    for name, proc in stack.procs.items():
        pids.setdefault(name.split("-")[0], []).append(proc.pid)
    ports = {int(u.rsplit(":", 1)[1].split("/")[0]): u.split(":")[0].split("+")[0] for u in urls}
    for conn in psutil.net_connections("tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port in ports and conn.pid:
            pids[ports[conn.laddr.port]] = [conn.pid]
    return pids


async def _bot_matches(address: str, matches: int, seconds: float = 0.0) -> list[str]:
    """Start `matches` all-bot matches; with `seconds`, keep that many going for as long,
    each that ends followed at once by a new one (a steady load), else leave them to play.
    Returns the ids of every match started."""
    ids: list[str] = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = rules_pb2_grpc.RulesServiceStub(channel)
        stop = time.monotonic() + seconds
        poll = 0.02 * matches  # about 50 reads a second across the matches, however many

        async def lane() -> None:
            while True:
                match_id = await _create(stub, [], ["heuristic", "heuristic"])
                ids.append(match_id)
                while time.monotonic() < stop:
                    await asyncio.sleep(poll)
                    look = await stub.GetView(rules_pb2.GetViewRequest(
                        match_id=match_id, json_only=True), metadata=_token("bench", True))
                    if look.HasField("outcome"):
                        break
                if time.monotonic() >= stop:
                    return

        await asyncio.gather(*(lane() for _ in range(matches)))
    return ids


def bot_load(stack: Stack, matches: int = 100, seconds: float = 20.0,
             pids: list[int] = (), steady: bool = False) -> tuple[float, float, float]:
    """All-bot matches for `seconds`: bot actions per second, the p50 from a decision (the
    previous record) to the bot's action being applied, from the log's timestamps, and the
    CPU milliseconds per action of `pids` (the stack, the worker included). `steady`: as
    matches end, new ones keep `matches` going (see _bot_matches)."""
    with cpu_meanwhile({"stack": list(pids)}) as used:
        ids = asyncio.run(_bot_matches(stack.address, matches, seconds if steady else 0.0))
        if not steady:
            time.sleep(seconds)
    cpu = used["stack"]
    engine = sa.create_engine(stack.database_url)
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "select match_id, sequence, created_at from log_records where match_id = any(:ids) "
            "order by match_id, sequence"), {"ids": ids}).all()
    engine.dispose()
    gaps, first, last, actions = [], None, None, 0
    prev: dict[str, object] = {}
    for match_id, sequence, created in rows:
        first = created if first is None or created < first else first
        last = created if last is None or created > last else last
        if sequence > 0:
            actions += 1
            gaps.append((created - prev[match_id]).total_seconds())
        prev[match_id] = created
    span = (last - first).total_seconds() if first and last else float("nan")
    return (actions / span, statistics.median(gaps) * 1000 if gaps else float("nan"),
            cpu * 1000 / max(1, actions))


async def _seek(address: str, players: int) -> tuple[int, float, float, int]:
    """`players` players each seek a 2-seat match (SeekMatch: open a ticket and follow it in
    one call) until it is assigned: how many were, when the first ticket was opened and when
    the last one was assigned (wall clock, to compare across processes), and how many seeks
    the server refused for want of a free stream (each is retried shortly, as it asks)."""
    opened: list[float] = []
    assigned: list[float] = []
    refused = 0
    async with grpc.aio.insecure_channel(address) as channel:
        await channel.channel_ready()
        stub = matchmaking_pb2_grpc.MatchmakingServiceStub(channel)

        async def one() -> int:
            nonlocal refused
            meta = _token(f"mm-{uuid.uuid4().hex[:10]}")
            request = matchmaking_pb2.SeekMatchRequest(ticket=matchmaking_pb2.CreateTicketRequest(
                game_id="montanas", scenario_id="standard", seats=2, fill_with_bots=False,
                request_id=uuid.uuid4().hex))
            opened.append(time.time())
            while True:
                try:
                    async for item in stub.SeekMatch(request, metadata=meta):
                        if item.ticket.match_id:
                            assigned.append(time.time())
                            return 1
                    return 0
                except grpc.aio.AioRpcError as e:
                    if e.code() != grpc.StatusCode.UNAVAILABLE:
                        raise
                    refused += 1
                    await asyncio.sleep(0.05 + 0.05 * random.random())

        seated = sum(await asyncio.gather(*(one() for _ in range(players))))
    return seated, min(opened), max(assigned, default=math.nan), refused


def _seek_process(args: tuple[str, int]) -> tuple[int, float, float, int]:
    return asyncio.run(_seek(*args))


def matchmaking_load(address: str, players: int = 1000, processes: int = 2,
                     server_pids: Mapping[str, list[int]] | None = None
                     ) -> tuple[float, int, dict[str, float]]:
    """Seats assigned per second, from the first ticket opened to the last one assigned
    (the client processes' start-up is left out), through the gRPC API with real match
    creation in the rules service; how many seeks were refused and retried; and the CPU
    milliseconds per seat of the `server_pids` (by process name) meanwhile, client start-up
    included (the servers idle through it)."""
    with cpu_meanwhile(server_pids or {}) as used, \
            mp.get_context("spawn").Pool(processes) as pool:
        results = pool.map(_seek_process, [(address, players // processes)] * processes)
    seated = sum(r[0] for r in results)
    span = max(r[2] for r in results) - min(r[1] for r in results)
    per_seat = {name: cpu * 1000 / max(1, seated) for name, cpu in used.items()}
    return seated / span, sum(r[3] for r in results), per_seat


def redis_bytes_of_live_matches(redis_url: str) -> list[int]:
    """The Redis memory of each live match: its keys, for each match not finished (a finished
    one's go FINISHED_TTL after its end)."""
    client = redis.Redis.from_url(redis_url)
    sessions = RedisSessionStore(client)
    by_match: dict[str, list[bytes]] = {}
    for key in client.scan_iter("match:*", count=1000):  # match:{<id>}:<part>
        by_match.setdefault(key.decode().split("{")[1].split("}")[0], []).append(key)
    live = [keys for match_id, keys in by_match.items()
            if (s := sessions.load(match_id)) is not None and s.status == "active"]
    return [sum(client.memory_usage(k) or 0 for k in keys) for keys in live]


def rows_per_action(database_url: str) -> float:
    engine = sa.create_engine(database_url)
    with engine.connect() as conn:
        tables = ["players", "matches", "match_seats", "log_records", "results", "ratings",
                  "dice_streams"]
        rows = sum(conn.execute(sa.text(f"select count(*) from {t}")).scalar() for t in tables)
        actions = conn.execute(sa.text("select count(*) from log_records where sequence > 0")
                               ).scalar()
    engine.dispose()
    return rows / max(1, actions)


FEEDS = 1000  # idle live feeds held open beside one of the client loads


async def _hold_feeds(address: str, feeds: int, ready: Any, stop: Any) -> None:
    """Open `feeds` StreamMatch feeds, each its own spectator, on quiet matches (ten per
    match), and keep them open until `stop` is set: players watching matches that do not move
    (a human thinking), which a server must carry at little cost."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = rules_pb2_grpc.RulesServiceStub(channel)
        matches = [await _create(stub, ["idle-0", "idle-1"]) for _ in range(feeds // 10)]
        streams = []
        for first in range(0, feeds, 100):  # opened as people arrive, not in one burst
            batch = [stub.StreamMatch(
                rules_pb2.StreamMatchRequest(match_id=matches[i % len(matches)]),
                metadata=_token(f"watcher-{i}")) for i in range(first, min(feeds, first + 100))]
            await asyncio.gather(*(call.read() for call in batch))
            streams += batch
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for call in streams:
            call.cancel()


def _feeds_process(address: str, feeds: int, ready: Any, stop: Any) -> None:
    asyncio.run(_hold_feeds(address, feeds, ready, stop))


@contextlib.contextmanager
def idle_feeds(address: str, feeds: int = FEEDS) -> Iterator[None]:
    """`feeds` idle live feeds held open on the server at `address` meanwhile."""
    ctx = mp.get_context("spawn")
    ready, stop = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_feeds_process, args=(address, feeds, ready, stop))
    holder.start()
    try:
        if not ready.wait(120):
            raise RuntimeError(f"could not open {feeds} feeds at {address}")
        yield
    finally:
        stop.set()
        holder.join(30)


OFFERED = 200.0  # actions/s for the latency figures below saturation (1 per match per second)
WARM = 5.0  # seconds of such a run left out: the 200 matches are being created
RATES = (50, 100, 150, 200, 300, 400, 500, 600, 700, 800)  # offered actions/s, tried upward
P99_MS = 25.0  # the bound on the submit p99
CAPACITY = f"client_actions_per_s_with_submit_p99_under_{P99_MS:g}_ms"  # latency_capacity's


def latency_capacity(addresses: list[str], seconds: float = 25.0) -> float:
    """The highest of RATES the stack serves as offered (95% of it delivered, no errors) with
    a submit p99 under P99_MS, trying them upward until one fails; 0 if none does. This is
    the issue's client target (800 actions/s with a p99 under 25 ms) read as a load test
    reads it: clients acting back to back keep 200 calls in flight at any rate, so their p99
    is mostly the wait in line (about 200 / throughput), not the time a call takes."""
    served = 0.0
    for rate in RATES:
        load = client_load(addresses, seconds=seconds, offered=rate, warm=WARM)
        if load.errors or load.rate < 0.95 * rate or load.pct(0.99) >= P99_MS:
            break
        served = rate
    return served


# All-bot matches kept going at once for the two bot targets together (300 actions/s with a
# turn p50 under 15 ms): on this machine 5 reached 304-313/s, 4 265-298 (2026-12-01).
STEADY_BOT_MATCHES = 5


def run_split(seconds: float = 20.0) -> dict[str, float]:
    """The multi-process stack on real Redis and PostgreSQL, with two rules replicas."""
    out: dict[str, float] = {}
    with postgres_server(durable=True) as pg, redis_server() as r, \
            split_stack(r, pg, worker=False) as stack:
        replica = stack.addresses[stack.add_replica("rules")]  # sessions live in Redis
        pids = stack_pids(stack, r, pg)
        load = client_load([stack.address, replica], seconds=seconds, server_pids=pids)
        server_ms, client_ms = load.cpu_ms_per_action
        out.update(client_actions_per_s=load.rate, submit_p50_ms=load.pct(0.5),
                   submit_p99_ms=load.pct(0.99), client_errors=load.errors,
                   server_cpu_ms_per_action=server_ms, client_cpu_ms_per_action=client_ms)
        out.update({f"  of which {name}": cpu * 1000 / max(1, load.actions)
                    for name, cpu in sorted(load.server_cpu_by.items())})
        out.update(_offered(client_load([stack.address, replica], seconds=seconds,
                                        offered=OFFERED, warm=WARM), ""))
        out[CAPACITY] = latency_capacity([stack.address, replica])
        with idle_feeds(stack.address):
            beside = client_load([stack.address, replica], seconds=seconds / 2)
        out[f"client_actions_per_s_beside_{FEEDS}_idle_feeds"] = beside.rate
        per_match = redis_bytes_of_live_matches(r) or [0]
        out["redis_bytes_per_live_match"] = statistics.mean(per_match)
        out["redis_bytes_of_the_largest_live_match"] = max(per_match)
        out["db_rows_per_action"] = rows_per_action(pg)
        rate, refused, per_seat = matchmaking_load(stack.addresses["matchmaking"],
                                                   server_pids=pids)
        out.update(matchmaking_seats_per_s=rate, matchmaking_seeks_refused_and_retried=refused,
                   matchmaking_stack_cpu_ms_per_seat=sum(per_seat.values()))
        out.update({f"  of which {name}, per seat": cpu for name, cpu in sorted(per_seat.items())})
    with postgres_server(durable=True) as pg, redis_server() as r, \
            split_stack(r, pg, worker=True) as stack:
        _, alone, _ = bot_load(stack, matches=1, seconds=seconds / 2)
        # Both bot targets at one load: about the fewest matches that reach 300 actions/s.
        # Before the 100 matches, which go on playing after their window: on a slow day
        # (2026-12-02) those left over still filled the worker's queue when this load
        # followed them, and it read 4.7 actions/s.
        rate, p50, _ = bot_load(stack, matches=STEADY_BOT_MATCHES, seconds=seconds,
                                steady=True)
        out[f"bot_actions_per_s_{STEADY_BOT_MATCHES}_steady_matches"] = rate
        out[f"bot_turn_p50_ms_{STEADY_BOT_MATCHES}_steady_matches"] = p50
        every = [pid for pids in stack_pids(stack, r, pg).values() for pid in pids]
        rate, p50, cpu = bot_load(stack, seconds=seconds, pids=every)
        out.update(bot_turn_p50_ms_one_match=alone, bot_actions_per_s=rate,
                   bot_turn_p50_ms_100_matches=p50, bot_cpu_ms_per_action=cpu)
    return out


def run_embedded(seconds: float = 20.0) -> dict[str, float]:
    with embedded_stack() as stack:
        load = client_load([stack.address], seconds=seconds, server_pids=stack_pids(stack))
        paced = client_load([stack.address], seconds=seconds, offered=OFFERED, warm=WARM)
        with idle_feeds(stack.address):
            beside = client_load([stack.address], seconds=seconds / 2)
    server_ms, client_ms = load.cpu_ms_per_action
    return {"embedded_client_actions_per_s": load.rate,
            f"embedded_client_actions_per_s_beside_{FEEDS}_idle_feeds": beside.rate,
            "embedded_submit_p99_ms": load.pct(0.99), "embedded_client_errors": load.errors,
            "embedded_server_cpu_ms_per_action": server_ms,
            "embedded_client_cpu_ms_per_action": client_ms, **_offered(paced, "embedded_")}


def _offered(load: Load, prefix: str) -> dict[str, float]:
    """Latency below saturation. Clients that act back to back keep 200 calls in flight, so
    their latency is mostly the wait in line (about 200 / throughput); at an offered rate
    the server can serve, it is the time a call itself takes."""
    at = f"at_{OFFERED:.0f}_per_s"
    return {f"{prefix}submit_p50_ms_{at}": load.pct(0.5),
            f"{prefix}submit_p99_ms_{at}": load.pct(0.99),
            f"{prefix}match_ending_share_of_submits_pct_{at}":
                100 * len(load.endings) / max(1, load.actions),
            f"{prefix}match_ending_submit_p50_ms_{at}": load.pct(0.5, load.endings),
            f"{prefix}errors_{at}": load.errors}


# Issue 3's targets: figure -> (at least, at most). The median is judged against them.
TARGETS: dict[str, tuple[float | None, float | None]] = {
    "client_actions_per_s": (800, None), CAPACITY: (800, None),
    "embedded_client_actions_per_s": (1500, None), "bot_actions_per_s": (300, None),
    "bot_turn_p50_ms_one_match": (None, 15), "matchmaking_seats_per_s": (1000, None),
    "redis_bytes_per_live_match": (None, 16 * 1024),
    "redis_bytes_of_the_largest_live_match": (None, 16 * 1024),
    f"bot_actions_per_s_{STEADY_BOT_MATCHES}_steady_matches": (300, None),
    f"bot_turn_p50_ms_{STEADY_BOT_MATCHES}_steady_matches": (None, 15),
}


def verdict(name: str, value: float) -> str:
    """'target ≥ x: met' (or 'NOT met') for a figure the issue sets a target for, else ''."""
    low, high = TARGETS.get(name, (None, None))
    if low is not None:
        return f"target ≥ {low:g}: {'met' if value >= low else 'NOT met'}"
    if high is not None:
        return f"target ≤ {high:g}: {'met' if value <= high else 'NOT met'}"
    return ""


def main(runs: int = 3) -> None:
    """Runs the whole platform bench `runs` times (figures move about 20% from run to run)
    and prints each figure's median with the lowest and highest, and against its target."""
    print("partida platform benchmarks (every service a separate process, two rules replicas in "
          "the split stack; 200 concurrent 2-player matches driven by 2 client processes); "
          f"median of {runs} runs [lowest – highest]")
    results = [{**floors(), **inprocess(), **run_embedded(), **run_split()}
               for _ in range(runs)]
    width = max(len(name) for name in results[0])
    for name in results[0]:
        values = [r[name] for r in results]
        median = statistics.median(values)
        digits = 2 if max(abs(v) for v in values) < 10 else 1  # fractions of a millisecond
        print(f"  {name:<{width}} {median:>10.{digits}f}   "
              f"[{min(values):.{digits}f} – {max(values):.{digits}f}]   "
              f"{verdict(name, median)}".rstrip())


if __name__ == "__main__":
    main()
