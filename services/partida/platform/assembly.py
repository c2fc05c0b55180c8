"""Wiring: which implementation of each part a process uses, from the configuration.

`partida serve` (no role) puts every service in one process on one port. With a role it runs
one service and reaches the others at their configured addresses. Each part picks Redis,
PostgreSQL or Celery when its URL is set, and the in-process default otherwise. A process
reports SERVING once what it depends on answers: Redis, the database, the other services.
"""

from __future__ import annotations

import logging
import resource
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
import sqlalchemy as sa
from grpc_health.v1 import health_pb2, health_pb2_grpc

from partida.platform import metrics
from partida.platform.auth import Authority
from partida.platform.config import Settings
from partida.platform.outages import run_rounds
from partida.platform.ratelimit import Failures, RateLimiter
from partida.platform.server import Registration, Server
from partida.platform.service_client import channel_options

log = logging.getLogger("partida.assembly")

ROLES = ("all", "rules", "dice", "persistence", "matchmaking")
# Roles serving long-lived streams (StreamMatch, WatchTicket, SeekMatch): each open stream
# holds a thread of the synchronous server, so these follow `max_streams` of them; the others
# only health watches and reflection.
STREAMING_ROLES = ("all", "rules", "matchmaking")
CALL_THREADS = 64  # threads for unary calls, beside those of the streams
OTHER_STREAMS = 16  # dice and persistence: health watches and reflection only


# How often dependencies are asked again while one of them does not answer.
RETRY_SECONDS = 0.5
WATCH_SECONDS = 2.0  # how often a serving process checks its dependencies again


@dataclass
class Process:
    """A configured process: its gRPC server, what it depends on, and the background loops it
    runs once those answer."""

    server: Server
    loops: list[Callable[[threading.Event], None]] = field(default_factory=list)
    closers: list[Callable[[], None]] = field(default_factory=list)
    # Run as the server begins to drain: each ends a kind of long wait that would otherwise
    # hold the shutdown for the whole grace.
    draining: list[Callable[[], None]] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)
    # (name, check): each check raises until its dependency answers (and is set up).
    checks: list[tuple[str, Callable[[], Any]]] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        """Listen at once, reporting NOT_SERVING; report SERVING and start the background
        loops once every dependency has answered."""
        self.server.start()
        threading.Thread(target=self._become_ready, name="ready", daemon=True).start()

    def _become_ready(self) -> None:
        waiting = list(self.checks)
        failing = ""
        while waiting:
            name, check = waiting[0]
            try:
                check()
            except Exception as e:
                if name != failing:  # once per dependency, not every retry
                    log.warning("waiting for %s: %s", name, str(e).splitlines()[0][:300])
                    failing = name
                if self._stop.wait(RETRY_SECONDS):
                    return
                continue
            log.info("%s answers", name)
            waiting.pop(0)
        for loop in self.loops:
            threading.Thread(target=loop, args=(self._stop,), daemon=True).start()
        if not self._stop.is_set():
            self.server.serving()
            self.ready.set()
            self._watch()

    def _watch(self) -> None:
        """Keep checking the dependencies once serving: NOT_SERVING while one does not
        answer (so load balancers and readiness probes stop sending calls that would fail),
        SERVING again once it does."""
        down = ""
        while not self._stop.wait(WATCH_SECONDS):
            failing = ""
            for name, check in self.checks:
                try:
                    check()
                except Exception as e:
                    failing = name
                    if not down:
                        log.warning("%s does not answer (%s): not serving until it does",
                                    name, str(e).splitlines()[0][:300] if str(e) else "")
                    break
            if failing and not down:
                self.server.not_serving()
            elif down and not failing:
                log.info("%s answers again: serving", down)
                self.server.serving()
            down = failing

    def stop(self, grace: float = 5.0) -> None:
        self._stop.set()
        for drain in self.draining:
            drain()
        self.server.stop(grace)
        for close in self.closers:
            close()


def authority(cfg: Settings) -> Authority:
    return Authority(cfg.token_secret, cfg.service_token_secret, cfg.integrators())


def _store(cfg: Settings, proc: Process, live_matches_here: bool) -> Any:
    """The persistence store, its writes timed; the database must answer (and is migrated)
    before the process serves. The process that owns the record counts the live matches."""
    from partida.engine import all_games
    from partida.persistence.db import make_engine, migrate
    from partida.persistence.service import TimedStore, live_matches
    from partida.persistence.store import PersistenceStore
    engine = make_engine(cfg.database_url)

    migrated = threading.Event()

    def database() -> None:
        with engine.connect() as conn:
            conn.execute(sa.text("select 1"))
        if not migrated.is_set():  # once; later checks only ask that it answers
            migrate(engine)
            migrated.set()

    proc.checks.append(("the database", database))
    if live_matches_here:
        count = live_matches(engine)
        metrics.LIVE_MATCHES.watch(count, [g.info.id for g in all_games()])
        proc.closers.append(lambda: metrics.LIVE_MATCHES.forget(count))
    return TimedStore(PersistenceStore(engine))


def _redis(url: str, proc: Process) -> None:
    import redis
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    proc.checks.append(("Redis", client.ping))
    proc.closers.append(client.close)


def _channel(cfg: Settings, address: str, proc: Process | None = None,
             name: str = "") -> grpc.Channel:
    """A channel to another service; given a process, that service must report SERVING
    before the process serves."""
    if not address:
        raise ValueError("this role needs the addresses of the other services")
    channel = grpc.insecure_channel(address, options=channel_options(cfg.max_message_bytes))
    if proc is not None:
        stub = health_pb2_grpc.HealthStub(channel)

        def serving() -> None:
            status = stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status
            if status != health_pb2.HealthCheckResponse.SERVING:
                raise RuntimeError(f"it reports {health_pb2.HealthCheckResponse.Name(status)}")
        proc.checks.append((f"the {name} service at {address}", serving))
    return channel


def _every(seconds: float, work: Callable[[], Any], name: str
           ) -> Callable[[threading.Event], None]:
    return lambda stop: run_rounds(work, stop, seconds, log, name)


def _rules(cfg: Settings, auth: Authority, store: Any | None,
           regs: list[Registration], proc: Process) -> Any:
    from partida.ai.bots import bot_names
    from partida.dice.service import CountedDice
    from partida.rules.clients import DiceClient, LedgerClient
    from partida.rules.ledger import LocalLedger
    from partida.rules.matches import Matches
    from partida.rules.redis_session import RedisSessionStore
    from partida.rules.service import RulesServicer, count_applied, count_handed
    from partida.rules.session import MemorySessionStore
    from partida.v1 import rules_pb2_grpc

    token = auth.service_token("rules")
    # A live feed waits on a Redis connection of its own; calls take one each too.
    idle, finished = cfg.match_idle_ttl_seconds, cfg.match_finished_ttl_seconds
    sessions: Any
    if cfg.redis_url:
        sessions = RedisSessionStore.from_url(cfg.redis_url, idle, finished_ttl=finished,
                                              connections=cfg.max_streams + CALL_THREADS)
        _redis(cfg.redis_url, proc)
    else:
        sessions = MemorySessionStore(idle, finished)
    proc.draining.append(sessions.close)  # live feeds wait on it: ended as draining begins
    ledger = (LocalLedger(store) if store is not None
              else LedgerClient(_channel(cfg, cfg.persistence_address, proc, "persistence"),
                                token))
    dice = (CountedDice(store) if store is not None
            else DiceClient(_channel(cfg, cfg.dice_address, proc, "dice"), token))
    if cfg.broker_url:
        from partida.ai.tasks import CeleryBotScheduler
        bots: Any = CeleryBotScheduler()
    else:
        from partida.ai.local import ThreadBotScheduler
        bots = ThreadBotScheduler()
        proc.closers.append(bots.shutdown)
    matches = Matches(sessions, ledger, dice, bots, default_timeout=cfg.decision_timeout_seconds,
                      default_bot_after=cfg.bot_after_missed_decisions, on_applied=count_applied,
                      on_handed=count_handed)
    if hasattr(bots, "bind"):
        bots.bind(matches)
    regs.append(Registration("partida.v1.RulesService", RulesServicer(matches, bot_names),
                             rules_pb2_grpc.add_RulesServiceServicer_to_server))
    proc.loops.append(_every(0.5, matches.watch_clocks, "the turn clocks"))
    proc.parts["matches"] = matches
    return matches


def _matchmaking(cfg: Settings, auth: Authority, store: Any | None, matches: Any | None,
                 regs: list[Registration], proc: Process) -> None:
    from partida.engine import all_games
    from partida.matchmaking.matcher import Matcher
    from partida.matchmaking.pools import Policy, catalog_of
    from partida.matchmaking.service import MatchmakingServicer, registration
    from partida.matchmaking.store import MemoryTicketStore, RedisTicketStore
    from partida.matchmaking.store.journal import TicketJournal
    from partida.rules.clients import PersistenceRatings, RulesCreator

    token = auth.service_token("matchmaking")
    if cfg.redis_url:
        tickets: Any = RedisTicketStore(cfg.redis_url)
    elif store is not None:  # one process: its tickets kept in its database too
        tickets = MemoryTicketStore(journal=TicketJournal(store.engine))
        proc.checks.append(("the matchmaking tickets' journal", tickets.recover))
    else:
        tickets = MemoryTicketStore()
    if cfg.redis_url and matches is None:  # with the rules service here, it checks Redis
        _redis(cfg.redis_url, proc)
    ratings = (StoreRatings(store) if store is not None
               else PersistenceRatings(
                   _channel(cfg, cfg.persistence_address, proc, "persistence"), token))
    creator = (LocalCreator(matches) if matches is not None
               else RulesCreator(_channel(cfg, cfg.rules_address, proc, "rules"), token))
    policy = Policy(catalog=catalog_of(g.info for g in all_games()),
                    bot_fill_after_seconds=cfg.bot_fill_after_seconds)
    matcher = Matcher(tickets, creator, policy)
    servicer = MatchmakingServicer(tickets, ratings, campaigns=ratings,
                                   ticket_ttl_seconds=cfg.ticket_ttl_seconds)
    regs.append(registration(servicer))
    proc.draining.append(servicer.close)  # ticket streams wait on it: ended as draining begins
    def run_matcher(stop: threading.Event) -> None:
        matcher.start()
        stop.wait()
        matcher.stop()

    proc.loops.append(run_matcher)
    proc.parts["matcher"] = matcher


def build(role: str, cfg: Settings) -> Process:
    """The process for `role` ("all" for the embedded, single-process server)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; one of {', '.join(ROLES)}")
    auth = authority(cfg)
    regs: list[Registration] = []
    proc = Process(server=None)  # type: ignore[arg-type]
    # The store for the roles that own the database (the roles below that use it), else None.
    store: Any = (_store(cfg, proc, live_matches_here=role != "dice")
                  if role in ("all", "dice", "persistence") else None)
    matches = None
    if role in ("all", "persistence"):
        from partida.persistence.service import registrations
        regs += registrations(store, auth)
    if role in ("all", "dice"):
        from partida.dice.service import CountedDice, DiceServicer
        from partida.v1 import dice_pb2_grpc
        regs.append(Registration("partida.v1.DiceService", DiceServicer(CountedDice(store)),
                                 dice_pb2_grpc.add_DiceServiceServicer_to_server))
    if role in ("all", "rules"):
        matches = _rules(cfg, auth, store, regs, proc)
    if role in ("all", "matchmaking"):
        _matchmaking(cfg, auth, store, matches, regs, proc)
    streams = cfg.max_streams if role in STREAMING_ROLES else OTHER_STREAMS
    # Every thread may hold a socket to Redis or another service, besides its caller's.
    allow_open_files(2 * (CALL_THREADS + streams) + 256)
    proc.server = Server(regs, auth, f"{cfg.host}:{cfg.port}",
                         max_workers=CALL_THREADS, max_streams=streams,
                         max_message_bytes=cfg.max_message_bytes,
                         limiter=RateLimiter(cfg.player_rate_limit, cfg.player_rate_burst),
                         integrator_limiter=RateLimiter(cfg.integrator_rate_limit,
                                                        cfg.integrator_rate_burst),
                         handlers=[_front_door(cfg)] if role == "rules" else [],
                         streams_per_player=cfg.streams_per_player, ready=proc.ready,
                         auth_failure_limiter=auth_failures(cfg, role))
    return proc


def auth_failures(cfg: Settings, role: str) -> Failures:
    """Where a process of `role` counts failed authentications per client address: in Redis,
    shared by every replica (platform/shared_failures), if it uses Redis anyway; else in the
    process."""
    if cfg.redis_url and role in ("all", "rules", "matchmaking"):
        from partida.platform.shared_failures import SharedFailures
        return SharedFailures.from_url(cfg.redis_url, cfg.auth_failure_rate_limit,
                                       cfg.auth_failure_rate_burst)
    return RateLimiter(cfg.auth_failure_rate_limit, cfg.auth_failure_rate_burst)


def allow_open_files(wanted: int) -> None:
    """Raise this process's soft limit on open files towards `wanted` (as far as the hard
    limit lets it): many systems start processes at 1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < wanted:
            log.warning("open files limited to %d (%d wanted): lower PARTIDA_MAX_STREAMS or "
                        "raise the limit", target, wanted)


def _front_door(cfg: Settings) -> grpc.GenericRpcHandler:
    """The rules service passes clients' calls for the other services on (platform/forward);
    plain channels: those services need not answer for this one to serve."""
    from partida.platform.forward import Forwarder
    where = {"partida.v1.MatchmakingService": cfg.matchmaking_address,
             "partida.v1.PlayersService": cfg.persistence_address,
             "partida.v1.PersistenceService": cfg.persistence_address,
             "partida.v1.DiceService": cfg.dice_address}
    options = channel_options(cfg.max_message_bytes)
    return Forwarder({service: grpc.insecure_channel(address, options=options)
                      for service, address in where.items() if address})


class StoreRatings:
    """Ratings read straight from the persistence store (embedded server)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def rating(self, player_id: str, game_id: str) -> float:
        return float(self.store.get_rating(player_id, game_id).rating)

    def campaign(self, campaign_id: str) -> Any:
        return self.store.get_campaign(campaign_id)


class LocalCreator:
    """Matches created by the in-process rules logic (embedded server)."""

    def __init__(self, matches: Any) -> None:
        self.matches = matches

    def create_matches(self, proposals: Sequence[Any]) -> list[str | Exception]:
        from partida.matchmaking.matcher import each_alone
        return each_alone(self._create, proposals)

    def _create(self, p: Any) -> str:
        from partida.rules.session import SeatMeta
        metas = [SeatMeta(player or "", "bot" if bot else "human", bot or "", team)
                 for (player, bot), team in zip(p.seats, p.teams, strict=True)]
        return str(self.matches.create(p.game_id, p.scenario_id, metas, {},
                                       request_id=p.request_id,
                                       campaign_id=p.campaign_id).match_id)
