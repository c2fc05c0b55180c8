"""Prometheus metrics: every metric of every partida process, and the HTTP exporter.

Names follow Prometheus conventions (`partida_<noun>_<unit>`, `_total` for counters, base
units). Labels are bounded sets only: service, method and status code, game, pool
(`<game>/<seats>`), operation, task and outcome — never a match, player or ticket id.

Each process exports on its own port (PARTIDA_METRICS_PORT, 0: none); a metric that a process
does not produce simply has no samples there.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger("partida.metrics")

# Latencies of calls and writes: from a millisecond to ten seconds.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Waits for a match or a bot: from a tenth of a second to ten minutes.
_SLOW = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)

GRPC_REQUESTS = Counter(
    "partida_grpc_server_requests_total",
    "gRPC calls finished by this server, by service, method and final status code.",
    ["service", "method", "code"])
GRPC_DURATION = Histogram(
    "partida_grpc_server_request_duration_seconds",
    "Time from a unary call's start to its final status. Response streams (live feeds, "
    "ticket watches) are counted but not timed: they last a match or a wait, far beyond "
    "these buckets, and would pass for the latency of their service.",
    ["service", "method"], buckets=_FAST)

FORWARDED = Counter(
    "partida_front_door_forwarded_total",
    "Calls the rules service's front door passed on to another service, by final status "
    "code (the other service counts them in partida_grpc_server_requests_total).",
    ["service", "method", "code"])

AUTH_FAILURES = Counter(
    "partida_auth_failures_total",
    "Calls refused for their credentials: 'failed' (a wrong API key or token, counted against "
    "the caller's address) or 'held_back' (the address over its failures, refused "
    "unchecked). A rise in either is someone guessing keys, or a proxy hiding addresses.",
    ["result"])

ACTIONS_APPLIED = Counter(
    "partida_actions_applied_total",
    "Actions written to match logs, by game and kind (action, resign, timeout); repeated "
    "requests answered from the log are not counted again.",
    ["game", "kind"])
DECISIONS_TIMED_OUT = Counter(
    "partida_decisions_timed_out_total",
    "Decisions whose clock ran out, so the seat's default action was applied.", ["game"])
SEATS_HANDED_TO_BOTS = Counter(
    "partida_seats_handed_to_bots_total",
    "Players' seats handed to bots, by game and why: asked (SetSeatController) or away (the "
    "seat's decisions ran out bot_after_missed_decisions times in a row).", ["game", "why"])

BOT_TURN_DURATION = Histogram(
    "partida_bot_turn_duration_seconds",
    "One bot turn: reading the seat, choosing and submitting; a turn also plays the run of "
    "decisions that falls to its seat right after, up to a limit.", ["game"], buckets=_FAST)
BOT_QUEUE_WAIT = Histogram(
    "partida_bot_queue_wait_seconds",
    "From a bot turn being queued to a worker starting it.", ["game"],
    buckets=_FAST + (30.0, 60.0, 300.0))  # milliseconds when well, minutes behind a backlog

MATCHMAKING_QUEUE_DEPTH = Gauge(
    "partida_matchmaking_queue_depth",
    "Tickets searching, by pool (<game>/<seats>), as this matcher last read them; every "
    "matcher reads the shared store, so aggregate replicas with max, not sum.", ["pool"])
TIME_TO_MATCH = Histogram(
    "partida_matchmaking_time_to_match_seconds",
    "From a ticket's creation to its match being created.", ["game"], buckets=_SLOW)

DICE_DRAWS = Counter("partida_dice_draws_total", "Values drawn from dice streams.")

PERSISTENCE_WRITE_DURATION = Histogram(
    "partida_persistence_write_duration_seconds",
    "One write to the durable record, by operation.", ["operation"], buckets=_FAST)

CELERY_TASKS = Counter(
    "partida_celery_tasks_total",
    "Celery tasks run by this worker, by task and outcome (success, failure, retry).",
    ["task", "outcome"])


class LiveMatches(Collector):
    """partida_live_matches{game}, computed when scraped from a source of counts by game.

    The durable record is the one place that knows every match, whichever rules replica
    created or finished it, so the persistence process (or the embedded server) answers with
    one indexed count of unfinished matches; a per-process gauge moved by create and finish
    would be wrong as soon as two rules replicas share the matches. Persistence replicas all
    report the same total: aggregate them with max, not sum.
    """

    def __init__(self) -> None:
        self._source: Callable[[], Mapping[str, int]] | None = None
        self._games: tuple[str, ...] = ()
        self._lock = threading.Lock()

    def watch(self, source: Callable[[], Mapping[str, int]], games: Iterable[str]) -> None:
        """Count from `source` (game -> unfinished matches); `games` are reported as 0 when
        absent, so a dashboard shows 0 rather than no data."""
        with self._lock:
            self._source, self._games = source, tuple(games)

    def forget(self, source: Callable[[], Mapping[str, int]]) -> None:
        with self._lock:
            if self._source is source:
                self._source, self._games = None, ()

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily("partida_live_matches",
                                   "Matches created and not yet finished, by game.",
                                   labels=["game"])
        with self._lock:
            source, games = self._source, self._games
        if source is not None:
            try:
                counts = dict(source())
            except Exception:  # e.g. the database is down: no samples rather than a failed scrape
                log.warning("counting live matches failed", exc_info=True)
            else:
                for game in sorted({*games, *counts}):
                    family.add_metric([game], counts.get(game, 0))
        yield family

    def describe(self) -> Iterable[GaugeMetricFamily]:
        yield GaugeMetricFamily("partida_live_matches", "", labels=["game"])


LIVE_MATCHES = LiveMatches()
REGISTRY.register(LIVE_MATCHES)


def serve(port: int, host: str = "127.0.0.1") -> Any:
    """Start the exporter (GET /metrics) on a daemon thread; returns the HTTP server, or None
    when `port` is 0. A port in use is an error: a process without metrics should not look
    healthy to its operator."""
    if not port:
        return None
    try:
        server, _ = start_http_server(port, addr=host)
    except OSError as e:
        raise RuntimeError(f"cannot serve metrics on {host}:{port} ({e.strerror}); set "
                           "PARTIDA_METRICS_PORT to a free port, or 0 for none") from None
    log.info("metrics on http://%s:%s/metrics", host, server.server_port)
    return server
