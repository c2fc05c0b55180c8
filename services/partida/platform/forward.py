"""The rules service as the one public address: the public calls of the other services are
passed through to them, so a client needs one address whether the server runs as one process
or as many (`docker compose up`, then `partida client play montanas`).

Only calls meant for clients are passed (matchmaking, players, reading match logs, ratings,
campaigns and dice streams; a player may also open a campaign of their own); internal ones
(AppendLog, Draw, ...) are unknown here, as if not served at all.
Messages pass as bytes, untouched; the caller's token and request id go along, and the other
service's answer, status and refusal reason (errors.REASON_KEY) included, comes back as it
gave it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import grpc
from google.protobuf import descriptor_pool

from partida.platform.calls import abort, bounded, request_id_var
from partida.platform.errors import reason_of
from partida.v1 import (  # noqa: F401 (loaded so that reflection can describe them)
    dice_pb2,
    matchmaking_pb2,
    persistence_pb2,
    players_pb2,
)

# service -> the methods clients may call through the front door (None: all of them)
PUBLIC: dict[str, frozenset[str] | None] = {
    "partida.v1.MatchmakingService": None,
    "partida.v1.PlayersService": None,
    "partida.v1.PersistenceService": frozenset(
        {"GetMatchLog", "ListFinishedMatches", "GetPlayerHistory", "GetRating",
         "GetCampaign", "CreateCampaign"}),
    "partida.v1.DiceService": frozenset({"GetStream"}),
}
# The passed methods, read from the services' schemas (only those a service has: a made-up
# name passed on would be kept by the server's interceptors and counted in a metrics series
# of its own, for good), and which of them stream their responses.
_METHODS = {f"/{service}/{m.name}": m.server_streaming for service, allowed in PUBLIC.items()
            for m in descriptor_pool.Default().FindServiceByName(service).methods
            if allowed is None or m.name in allowed}
_PASSED_METADATA = ("authorization", "x-api-key")


class Forwarder(grpc.GenericRpcHandler):
    """Serves the public methods of services found at `addresses` (service -> channel)."""

    def __init__(self, channels: Mapping[str, grpc.Channel]) -> None:
        self._channels = {name: ch for name, ch in channels.items() if name in PUBLIC}

    @property
    def service_names(self) -> tuple[str, ...]:
        """The services passed on, for reflection to list (their schema is the whole service;
        the methods not passed answer UNIMPLEMENTED here)."""
        return tuple(self._channels)

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler | None:
        streaming = _METHODS.get(details.method)
        channel = self._channels.get(details.method[1:].partition("/")[0])
        if channel is None or streaming is None:
            return None
        # One handler per method, whoever calls: the server's interceptors keep it and hand
        # it every later call of the method (platform/calls.PerMethod).
        if streaming:
            return grpc.unary_stream_rpc_method_handler(
                _stream(channel.unary_stream(details.method)))
        return grpc.unary_unary_rpc_method_handler(
            _unary(channel.unary_unary(details.method)))


def _metadata(context: grpc.ServicerContext) -> list[tuple[str, str]]:
    """What goes along: this call's token or API key, and its request id."""
    passed = [(k, v) for k, v in (context.invocation_metadata() or ())
              if k in _PASSED_METADATA]
    return [*passed, ("x-request-id", request_id_var.get())]


def _cancelled_with(context: grpc.ServicerContext, upstream: Any) -> None:
    """Cancel the `upstream` call when this call ends, or now if it has already ended: a
    client that went away between the two calls starting was seen by no callback, and the
    call behind ran on (a fresh-clone test run met it, 2026-12-07)."""
    if not context.add_callback(upstream.cancel):
        upstream.cancel()


def _timeout(context: grpc.ServicerContext) -> float | None:
    """The caller's deadline, passed on; a call without one reports centuries, which would
    overflow the outgoing deadline."""
    left = context.time_remaining()
    return left if left is not None and left < 86_400 else None


def _unary(call: Any) -> Callable[[bytes, grpc.ServicerContext], bytes]:
    def forward(request: bytes, context: grpc.ServicerContext) -> bytes:
        pending = call.future(request, metadata=_metadata(context), timeout=_timeout(context))
        # The client went away: the call behind goes too (it ran on to its own end, or to
        # the client's deadline, holding a thread of each service meanwhile).
        _cancelled_with(context, pending)
        try:
            return pending.result()
        except grpc.FutureCancelledError:
            context.abort(grpc.StatusCode.CANCELLED, "the caller went away")
            raise  # not reached: abort raises
        except grpc.RpcError as e:
            _refused(context, e)
            raise  # not reached: abort raises
    return forward


def _stream(call: Callable[..., Any]) -> Callable[[bytes, grpc.ServicerContext], Iterator[bytes]]:
    def forward(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
        responses = call(request, metadata=_metadata(context), timeout=_timeout(context))
        _cancelled_with(context, responses)  # the client went away: stop the upstream too
        try:
            yield from responses
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.CANCELLED or context.is_active():
                _refused(context, e)
    return forward


def _refused(context: grpc.ServicerContext, e: grpc.RpcError) -> None:
    """Ends the call as the service behind refused it: its status, and its reason if it gave
    one (a token that expired there, say, though still live when this process checked it).
    Raises, as context.abort does."""
    abort(context, e.code(), bounded(e.details() or ""), reason_of(e))
