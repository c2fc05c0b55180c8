"""Per-call context (who is calling, request id) and the interceptor that sets it up and
turns ServiceErrors into gRPC statuses."""

from __future__ import annotations

import contextvars
import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import grpc

from partida.platform.auth import Authority, Principal
from partida.platform.errors import ResourceExhausted, ServiceError, Unauthenticated
from partida.platform.ratelimit import RateLimiter

log = logging.getLogger("partida.calls")

principal_var: contextvars.ContextVar[Principal | None] = contextvars.ContextVar(
    "principal", default=None)
request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


def caller() -> Principal | None:
    return principal_var.get()


class CallContextInterceptor(grpc.ServerInterceptor):
    """Authenticates the bearer token if present, names the call, maps ServiceError."""

    def __init__(self, authority: Authority, limiter: RateLimiter | None = None) -> None:
        self._authority = authority
        self._limiter = limiter

    def intercept_service(self, continuation: Callable[..., Any],
                          details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None or details.method.startswith(("/grpc.health", "/grpc.reflection")):
            return handler
        metadata = dict(details.invocation_metadata or ())
        wrap = self._wrap_stream if handler.response_streaming else self._wrap_unary
        kwargs = {
            "request_deserializer": handler.request_deserializer,
            "response_serializer": handler.response_serializer,
        }
        if handler.request_streaming and handler.response_streaming:
            return grpc.stream_stream_rpc_method_handler(
                wrap(handler.stream_stream, metadata), **kwargs)
        if handler.request_streaming:
            return grpc.stream_unary_rpc_method_handler(
                wrap(handler.stream_unary, metadata), **kwargs)
        if handler.response_streaming:
            return grpc.unary_stream_rpc_method_handler(
                wrap(handler.unary_stream, metadata), **kwargs)
        return grpc.unary_unary_rpc_method_handler(wrap(handler.unary_unary, metadata), **kwargs)

    def _enter(self, metadata: dict[str, str], context: grpc.ServicerContext) -> list[Any]:
        auth = metadata.get("authorization", "")
        principal = None
        if auth:
            scheme, _, token = auth.partition(" ")
            if scheme.lower() != "bearer" or not token:
                raise Unauthenticated("authorization must be 'Bearer <token>'")
            principal = self._authority.verify(token.strip())
        if (principal is not None and not principal.is_service and self._limiter is not None
                and not self._limiter.allow(principal.subject)):
            raise ResourceExhausted("too many requests from this player; slow down")
        rid = metadata.get("x-request-id") or uuid.uuid4().hex
        return [principal_var.set(principal), request_id_var.set(rid)]

    def _wrap_unary(self, behavior: Callable[..., Any], metadata: dict[str, str]
                    ) -> Callable[..., Any]:
        def call(request: Any, context: grpc.ServicerContext) -> Any:
            tokens: list[Any] = []
            try:
                tokens = self._enter(metadata, context)
                return behavior(request, context)
            except ServiceError as e:
                context.abort(e.code, e.message)
            except grpc.RpcError as e:  # a service this one depends on failed or timed out
                context.abort(grpc.StatusCode.UNAVAILABLE, _downstream(e))
            finally:
                _reset(tokens)
        return call

    def _wrap_stream(self, behavior: Callable[..., Any], metadata: dict[str, str]
                     ) -> Callable[..., Any]:
        def call(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            tokens: list[Any] = []
            try:
                tokens = self._enter(metadata, context)
                yield from behavior(request, context)
            except ServiceError as e:
                context.abort(e.code, e.message)
            except grpc.RpcError as e:
                context.abort(grpc.StatusCode.UNAVAILABLE, _downstream(e))
            finally:
                _reset(tokens)
        return call


def _downstream(e: grpc.RpcError) -> str:
    code = e.code() if hasattr(e, "code") else None
    name = code.name if code is not None else "an error"
    return f"a service this call depends on answered {name}; retry with the same request id"


def _reset(tokens: list[Any]) -> None:
    if len(tokens) == 2:
        request_id_var.reset(tokens[1])
        principal_var.reset(tokens[0])
