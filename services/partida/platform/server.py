"""The gRPC server bootstrap shared by every service: interceptors, health, reflection,
message limits and graceful shutdown."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from partida.platform.auth import Authority
from partida.platform.calls import CallContextInterceptor, MetricsInterceptor
from partida.platform.ratelimit import Failures, RateLimiter
from partida.platform.service_client import response_limit
from partida.platform.stream_slots import DEFAULT_PER_PLAYER, StreamSlots

log = logging.getLogger("partida.server")


@dataclass
class Registration:
    """One servicer to mount: `add(servicer, server)` is the generated add_*_to_server."""

    service_name: str  # full proto name, e.g. "partida.v1.RulesService"
    servicer: Any
    add: Callable[[Any, grpc.Server], None]


def pending_calls_limit(threads: int) -> int:
    """How many arrived calls gRPC holds for a server with `threads` call threads before it
    sheds them: a burst several times its threads (all its feeds reconnecting at once), at
    a few kilobytes of headers each."""
    return max(10_000, 4 * threads)


LIVENESS = "partida.liveness"  # the health service name a liveness probe asks about


class Server:
    """A gRPC server hosting one or more partida services on one port."""

    def __init__(self, registrations: Sequence[Registration], authority: Authority,
                 address: str, max_workers: int = 64, max_message_bytes: int = 1 << 20,
                 limiter: RateLimiter | None = None,
                 integrator_limiter: RateLimiter | None = None,
                 handlers: Sequence[grpc.GenericRpcHandler] = (),
                 max_streams: int = 16,
                 streams_per_player: int = DEFAULT_PER_PLAYER,
                 ready: threading.Event | None = None,
                 auth_failure_limiter: Failures | None = None) -> None:
        """max_workers: threads for unary calls; max_streams: response streams followed at
        once, each with a thread of its own beside those (a blocked thread costs little
        memory and no CPU), so however many streams wait, calls still find a thread.
        ready: calls are refused UNAVAILABLE until it is set (None: served at once).
        auth_failure_limiter: failed authentications per client address (None: no limit)."""
        self.health = health.HealthServicer()
        self.streams = StreamSlots(max_streams, streams_per_player)
        self._names = [r.service_name for r in registrations]
        passed = [n for h in handlers for n in getattr(h, "service_names", ())]
        pending = pending_calls_limit(max_workers + max_streams)
        self.server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=max_workers + max_streams,
                                       thread_name_prefix="grpc"),
            # Metrics outermost, so they count the status the call context chose.
            # Both wrap each method once (calls.PerMethod): whatever serves a method must
            # serve every call of it the same way.
            interceptors=[MetricsInterceptor(passed),
                          CallContextInterceptor(authority, limiter, self.streams,
                                                 integrator_limiter, ready,
                                                 auth_failure_limiter)],
            options=[("grpc.max_receive_message_length", max_message_bytes),
                     ("grpc.max_send_message_length", response_limit(max_message_bytes)),
                     ("grpc.so_reuseport", 0),
                     # Calls that arrived but that the server's one serving thread has not
                     # yet taken up (it waits its turn for the interpreter behind the calls'
                     # threads). Past the first limit gRPC sheds some of them at random, past
                     # the second all, answering CANCELLED, which clients read as their own
                     # giving up and do not retry. Equal and high, they let a burst through
                     # to the stream slots, which refuse what the server cannot follow
                     # UNAVAILABLE: retry with backoff.
                     ("grpc.server.max_pending_requests", pending),
                     ("grpc.server.max_pending_requests_hard_limit", pending)],
        )
        for r in registrations:
            r.add(r.servicer, self.server)
        if handlers:  # e.g. the front door's pass-through to other services
            self.server.add_generic_rpc_handlers(tuple(handlers))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            [*self._names, *passed, health.SERVICE_NAME, reflection.SERVICE_NAME], self.server)
        self.port = self.server.add_insecure_port(address)
        if self.port == 0:
            raise RuntimeError(f"cannot listen on {address}")
        self._set_all(health_pb2.HealthCheckResponse.NOT_SERVING)
        # Liveness: SERVING while the process runs, whatever its dependencies say (probed
        # apart from readiness, so an outage elsewhere takes it out of service, not down).
        self.health.set(LIVENESS, health_pb2.HealthCheckResponse.SERVING)

    def _set_all(self, status: int) -> None:
        for name in [*self._names, ""]:
            self.health.set(name, status)

    def start(self) -> None:
        self.server.start()

    def serving(self) -> None:
        """Report SERVING once the process's dependencies answer."""
        self._set_all(health_pb2.HealthCheckResponse.SERVING)

    def not_serving(self) -> None:
        """Report NOT_SERVING while a dependency does not answer (liveness stays SERVING:
        the process itself is fine, restarting it would not help)."""
        self._set_all(health_pb2.HealthCheckResponse.NOT_SERVING)

    def stop(self, grace: float = 5.0) -> None:
        """Report NOT_SERVING (to health watchers too), refuse new calls and let in-flight
        ones finish within `grace` seconds."""
        log.info("shutting down; draining calls for up to %ss", grace)
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()
        log.info("stopped")

    def wait(self) -> None:
        self.server.wait_for_termination()
