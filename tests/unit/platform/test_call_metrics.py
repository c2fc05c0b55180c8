"""The call metrics of the server interceptor (platform/calls.MetricsInterceptor) on a real
partida Server: what partida_grpc_server_request_duration_seconds measures."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import grpc
import pytest
from prometheus_client import REGISTRY

from partida.platform.auth import Authority
from partida.platform.forward import Forwarder
from partida.platform.server import Registration, Server


def _feed(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    yield b"first"
    yield b"second"


def _get(request: bytes, context: grpc.ServicerContext) -> bytes:
    return b"answer"


def _server() -> Server:
    def add(_servicer: object, server: grpc.Server) -> None:
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("test.Feed", {
            "Follow": grpc.unary_stream_rpc_method_handler(_feed),
            "Get": grpc.unary_unary_rpc_method_handler(_get)})])

    return Server([Registration("test.Feed", None, add)], Authority("p" * 32, "s" * 32, {}),
                  "127.0.0.1:0")


def _sample(name: str, method: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, {"service": "test.Feed", "method": method,
                                            **labels}) or 0.0


def test_response_streams_are_counted_but_not_timed_as_latency():
    """A response stream (a match's live feed, a ticket watch) was observed in the latency
    histogram over its whole life: feeds last as long as their match, minutes or hours,
    against buckets that end at ten seconds, so every stream landed in +Inf and the
    dashboard's p50/p99 latency of the rules and matchmaking services read the length of
    matches and waits (pinned at the top bucket) instead of how fast calls are answered."""
    server = _server()
    server.start()
    durations = "partida_grpc_server_request_duration_seconds_count"
    requests = "partida_grpc_server_requests_total"
    before = {m: (_sample(durations, m), _sample(requests, m, code="OK"))
              for m in ("Follow", "Get")}
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            assert list(channel.unary_stream("/test.Feed/Follow")(b"", timeout=10)) == [
                b"first", b"second"]
            assert channel.unary_unary("/test.Feed/Get")(b"", timeout=10) == b"answer"
    finally:
        server.stop(0)
    moved = {m: (_sample(durations, m) - d, _sample(requests, m, code="OK") - r)
             for m, (d, r) in before.items()}
    assert moved == {"Follow": (0, 1), "Get": (1, 1)}


def test_calls_passed_on_by_the_front_door_are_counted_once_as_requests():
    """The rules service's front door (platform/forward) counted every call it passed on in
    partida_grpc_server_requests_total under the other service's name, and the other service
    counted it again: every dashboard sum over the processes doubled clients' traffic to
    matchmaking, persistence and dice. The front door now counts them apart."""
    dice = "partida.v1.DiceService"

    def add(_servicer: object, server: grpc.Server) -> None:
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(dice, {
            "GetStream": grpc.unary_unary_rpc_method_handler(_get)})])

    target = Server([Registration(dice, None, add)], Authority("p" * 32, "s" * 32, {}),
                    "127.0.0.1:0")
    target.start()
    upstream = grpc.insecure_channel(f"127.0.0.1:{target.port}")
    front = Server([], Authority("p" * 32, "s" * 32, {}), "127.0.0.1:0",
                   handlers=[Forwarder({dice: upstream})])
    front.start()
    labels = {"service": dice, "method": "GetStream", "code": "OK"}

    def counted() -> tuple[float, float]:
        return (REGISTRY.get_sample_value("partida_grpc_server_requests_total", labels) or 0.0,
                REGISTRY.get_sample_value("partida_front_door_forwarded_total", labels) or 0.0)

    before = counted()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{front.port}") as channel:
            assert channel.unary_unary(f"/{dice}/GetStream")(b"", timeout=10) == b"answer"
    finally:
        front.stop(0)
        target.stop(0)
        upstream.close()
    after = counted()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)


def test_a_call_the_client_gives_up_is_given_up_behind_the_front_door_too():
    """A unary call passed on went on at the service behind after its client cancelled it,
    to its own end or the client's deadline, holding a thread on each side meanwhile."""
    matchmaking = "partida.v1.MatchmakingService"
    started, cancelled = threading.Event(), threading.Event()

    def held(request: bytes, context: grpc.ServicerContext) -> bytes:
        context.add_callback(cancelled.set)
        started.set()
        cancelled.wait(30)
        return b""

    def add(_servicer: object, server: grpc.Server) -> None:
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(matchmaking, {
            "CancelTicket": grpc.unary_unary_rpc_method_handler(held)})])

    authority = Authority("p" * 32, "s" * 32, {})
    target = Server([Registration(matchmaking, None, add)], authority, "127.0.0.1:0")
    target.start()
    upstream = grpc.insecure_channel(f"127.0.0.1:{target.port}")
    front = Server([], authority, "127.0.0.1:0", handlers=[Forwarder({matchmaking: upstream})])
    front.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{front.port}") as channel:
            call = channel.unary_unary(f"/{matchmaking}/CancelTicket").future(b"", timeout=60)
            assert started.wait(10)
            call.cancel()
            assert cancelled.wait(10)  # before: only at the client's deadline, a minute on
    finally:
        front.stop(0)
        target.stop(0)
        upstream.close()


class _Ended:
    """The context of a call its client already left: callbacks are refused (gRPC's
    add_callback answers False once the call has ended), and aborting raises as gRPC's does."""

    def add_callback(self, callback) -> bool:
        return False

    def invocation_metadata(self):
        return ()

    def time_remaining(self):
        return None

    def is_active(self) -> bool:
        return False

    def abort(self, code, details):
        raise grpc.RpcError(details)


class _Upstream:
    """The call behind the front door: records whether it was cancelled."""

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> bool:
        self.cancelled = True
        return True

    def result(self):
        raise grpc.FutureCancelledError()

    def __iter__(self):
        return iter(())


def test_a_client_gone_before_the_call_behind_started_cancels_it_at_once():
    """The race the test above met in CI (2026-12-07): the client left between the call
    behind starting and the front door asking to hear of its end. gRPC then never calls
    the callback, and the call behind ran on to its own end."""
    from partida.platform import forward

    behind = _Upstream()
    unary = forward._unary(type("Stub", (), {"future": lambda self, *a, **k: behind})())
    with pytest.raises(grpc.RpcError):  # answered CANCELLED, to a client that is gone
        unary(b"", _Ended())
    assert behind.cancelled
    streamed = _Upstream()
    assert list(forward._stream(lambda *a, **k: streamed)(b"", _Ended())) == []
    assert streamed.cancelled
