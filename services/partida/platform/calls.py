"""Per-call context (who is calling, request id, match and seat) and the two interceptors
every server has: one counts and times calls by final status, the other sets the context up
and turns ServiceErrors into gRPC statuses."""

from __future__ import annotations

import contextlib
import contextvars
import logging
import threading
import time
import uuid
from collections.abc import Callable, Collection, Iterator
from typing import Any

import grpc

from partida.platform import metrics
from partida.platform.auth import Authority, Principal, TokenExpired
from partida.platform.errors import (
    REASON_KEY,
    InvalidArgument,
    ResourceExhausted,
    ServiceError,
    Unauthenticated,
    Unavailable,
)
from partida.platform.outages import OUTAGE_WARNINGS, out_of_reach
from partida.platform.ratelimit import Failures, RateLimiter, client_address
from partida.platform.stream_slots import StreamSlots
from partida.platform.validation import MAX_ID

log = logging.getLogger("partida.calls")

principal_var: contextvars.ContextVar[Principal | None] = contextvars.ContextVar(
    "principal", default=None)
request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
# The match and seat a call or a bot turn is about, for logs ("" / None: none).
match_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("match_id", default="")
seat_var: contextvars.ContextVar[int | None] = contextvars.ContextVar("seat", default=None)

Wrap = Callable[[Callable[..., Any]], Callable[..., Any]]


def caller() -> Principal | None:
    return principal_var.get()


class PerMethod(grpc.ServerInterceptor):
    """An interceptor that wraps each method's handler once, on its first call, and serves
    every later call with the same wrapped handler. The handlers are fixed once the server
    starts, and building a wrapped handler for every call cost more than all the rest of
    these interceptors' work on a call; what differs between calls (the caller's
    metadata) is read from the call's context."""

    def __init__(self) -> None:
        self._wrapped: dict[str, Any] = {}

    def intercept_service(self, continuation: Callable[..., Any],
                          details: grpc.HandlerCallDetails) -> Any:
        wrapped = self._wrapped.get(details.method)
        if wrapped is None:
            handler = continuation(details)
            if handler is None:  # unknown method: gRPC answers UNIMPLEMENTED
                return None
            wrapped = self._wrapped.setdefault(details.method, self.wrap(details.method, handler))
        return wrapped

    def wrap(self, method: str, handler: Any) -> Any:
        """`handler` of `method` ('/package.Service/Method'), wrapped."""
        raise NotImplementedError


def rewrap(handler: Any, unary: Wrap, stream: Wrap,
           deserializer: Callable[[bytes], Any] | None = None) -> Any:
    """The same handler with its behaviour wrapped: by `stream` for streamed responses, by
    `unary` otherwise; and its requests parsed by `deserializer` if one is given."""
    wrap = stream if handler.response_streaming else unary
    kwargs = {
        "request_deserializer": deserializer or handler.request_deserializer,
        "response_serializer": handler.response_serializer,
    }
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(wrap(handler.stream_stream), **kwargs)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(wrap(handler.stream_unary), **kwargs)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(wrap(handler.unary_stream), **kwargs)
    return grpc.unary_unary_rpc_method_handler(wrap(handler.unary_unary), **kwargs)


class MetricsInterceptor(PerMethod):
    """Counts and times every call by service, method and final status code.

    It sits outside CallContextInterceptor, so it sees the status that interceptor chose for
    a ServiceError (context.abort records it on the context before raising). A response
    stream is counted, not timed (metrics.GRPC_DURATION); one the client cancelled counts as
    CANCELLED.

    Calls of the `passed` services (the front door's pass-through, platform/forward) are
    counted apart, in metrics.FORWARDED: the service they are passed to counts them too, and
    every sum over the processes counted them twice."""

    def __init__(self, passed: Collection[str] = ()) -> None:
        super().__init__()
        self._passed = frozenset(passed)

    def wrap(self, full_method: str, handler: Any) -> Any:
        service, _, method = full_method.lstrip("/").rpartition("/")
        forwarded = service in self._passed
        count = (metrics.FORWARDED if forwarded else metrics.GRPC_REQUESTS).labels
        duration = metrics.GRPC_DURATION.labels(service, method)
        timed = not (forwarded or handler.response_streaming)

        def finish(context: grpc.ServicerContext, started: float, failed: bool) -> None:
            code = context.code() or (grpc.StatusCode.UNKNOWN if failed else None)
            if code is None:
                code = grpc.StatusCode.OK if context.is_active() else grpc.StatusCode.CANCELLED
            count(service, method, code.name).inc()
            if timed:
                duration.observe(time.perf_counter() - started)

        def unary(behavior: Callable[..., Any]) -> Callable[..., Any]:
            def call(request: Any, context: grpc.ServicerContext) -> Any:
                started, failed = time.perf_counter(), True
                try:
                    response = behavior(request, context)
                    failed = False
                    return response
                finally:
                    finish(context, started, failed)
            return call

        def stream(behavior: Callable[..., Any]) -> Callable[..., Any]:
            def call(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                started, failed = time.perf_counter(), True
                try:
                    yield from behavior(request, context)
                    failed = False
                except GeneratorExit:  # the stream was closed before its end: cancelled
                    failed = False
                    raise
                finally:
                    finish(context, started, failed)
            return call

        return rewrap(handler, unary, stream)


class CallContextInterceptor(PerMethod):
    """Authenticates the bearer token and the API key if present, limits failed attempts to
    authenticate per client address and the rate of players' and integrators' calls (not
    services'), names the call, maps ServiceError, and holds a stream slot
    (platform/stream_slots) for each response stream while it is open."""

    def __init__(self, authority: Authority, limiter: RateLimiter | None,
                 slots: StreamSlots, integrator_limiter: RateLimiter | None = None,
                 ready: threading.Event | None = None,
                 failure_limiter: Failures | None = None) -> None:
        """ready: set once the process's dependencies have answered (its database migrated);
        until then every call is refused UNAVAILABLE (None: calls are served at once).
        failure_limiter: failed authentications each client address may make (None: any)."""
        super().__init__()
        self._authority = authority
        self._limiter = limiter
        self._integrator_limiter = integrator_limiter
        self._failures = failure_limiter or RateLimiter(0, 1)  # rate 0: never held back
        self._slots = slots
        self._ready = ready

    def wrap(self, method: str, handler: Any) -> Any:
        if method.startswith(("/grpc.health", "/grpc.reflection")):
            return (rewrap(handler, lambda b: b, self._wrap_open_stream)
                    if handler.response_streaming else handler)
        return rewrap(handler, self._wrap_unary, self._wrap_stream,
                      _tolerant(handler.request_deserializer))

    def _enter(self, context: grpc.ServicerContext, request: Any) -> list[Any]:
        if self._ready is not None and not self._ready.is_set():
            # Before its database answers (or is migrated) a call failed as a bug, INTERNAL,
            # which clients do not retry.
            raise Unavailable("the server is starting: what it depends on does not answer "
                              "yet; retry shortly")
        metadata = dict(context.invocation_metadata() or ())
        auth, api_key = metadata.get("authorization", ""), metadata.get("x-api-key", "")
        principal, integrator = (self._authenticate(context, auth, api_key)
                                 if auth or api_key else (None, ""))
        if principal is None or not principal.is_service:  # services are not limited
            self._limit(principal, integrator)
        if isinstance(request, Malformed):  # after the limits: refusals cost a token too
            raise InvalidArgument(f"the request does not parse: {request.error}")
        rid = metadata.get("x-request-id") or uuid.uuid4().hex
        match_id, seat = _about(request)
        return [principal_var.set(principal), request_id_var.set(rid),
                match_id_var.set(match_id), seat_var.set(seat)]

    def _authenticate(self, context: grpc.ServicerContext, auth: str, api_key: str
                      ) -> tuple[Principal | None, str]:
        """The principal the bearer token proves and the integrator the API key names ("":
        none borne), or Unauthenticated, counted against the caller's address. An address
        over its failures is refused before anything is checked, so guessing stops there.

        A token this process has already proven passes first, whatever its address: its
        256-bit signature cannot be guessed, so it tells a guesser nothing, players behind a
        guesser's address (a NAT, a proxy) keep playing, and a call, nearly always one such,
        costs no address lookup. API keys, which may be short enough to guess, and tokens
        not yet proven here wait for the address's bucket to refill.

        An unknown API key is refused here rather than by the method that reads it: the
        front door (platform/forward) would pass it on, and the service behind it, which
        sees every client at the front door's address, would then hold them all back."""
        if auth and not api_key:
            with contextlib.suppress(Unauthenticated):
                known = self._authority.proven(_bearer(auth))
                if known is not None:
                    return known, ""
        # Behind a proxy or NAT every client has the proxy's address, so one guesser holds
        # back all of them (PARTIDA_AUTH_FAILURE_RATE_LIMIT=0 turns the limit off).
        address = client_address(context.peer())
        if self._failures.empty(address):
            metrics.AUTH_FAILURES.labels("held_back").inc()
            raise ResourceExhausted("too many failed attempts to authenticate from this "
                                    "address; credentials are refused unchecked for a while, "
                                    "retry later")
        try:
            return (self._authority.verify(_bearer(auth)) if auth else None,
                    self._authority.integrator(api_key) if api_key else "")
        except TokenExpired:  # its signature holds: issued, not guessed
            raise
        except Unauthenticated:
            metrics.AUTH_FAILURES.labels("failed").inc()
            self._failures.charge(address)
            raise

    def _limit(self, player: Principal | None, integrator: str) -> None:
        """ResourceExhausted when the calling player, or the integrator whose API key the
        call bears (one bucket whichever of its keys it uses), is over their rate."""
        if (player is not None and self._limiter is not None
                and not self._limiter.allow(player.subject)):
            raise ResourceExhausted("too many requests from this player; slow down")
        if (integrator and self._integrator_limiter is not None
                and not self._integrator_limiter.allow(integrator)):
            raise ResourceExhausted("too many requests with this integrator's API key; "
                                    "slow down")

    def _wrap_unary(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        def call(request: Any, context: grpc.ServicerContext) -> Any:
            tokens: list[Any] = []
            try:
                tokens = self._enter(context, request)
                return behavior(request, context)
            except (ServiceError, grpc.RpcError) as e:
                refuse(context, e)
            except Exception as e:
                _unexpected(context, e)
            finally:
                _reset(tokens)
        return call

    def _wrap_stream(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        def call(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            tokens: list[Any] = []
            try:
                tokens = self._enter(context, request)
                principal = principal_var.get()
                player = None if principal is None or principal.is_service else principal.subject
                with self._slot(player):
                    yield from behavior(request, context)
            except (ServiceError, grpc.RpcError) as e:
                refuse(context, e)
            except Exception as e:
                _unexpected(context, e)
            finally:
                _reset(tokens)
        return call

    def _wrap_open_stream(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        """A stream anyone may open (health watches, reflection): it holds a slot too."""
        def call(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                with self._slot(None):
                    yield from behavior(request, context)
            except ServiceError as e:
                context.abort(e.code, e.message)
        return call

    @contextlib.contextmanager
    def _slot(self, player: str | None) -> Iterator[None]:
        """Holds a stream slot while the stream is open."""
        self._slots.take(player)
        try:
            yield
        finally:
            self._slots.give(player)


def _bearer(auth: str) -> str:
    """The token of an "authorization" value, or Unauthenticated."""
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise Unauthenticated("authorization must be 'Bearer <token>'")
    return token.strip()


class Malformed:
    """A request whose bytes do not parse as its method's message (not protobuf, or a
    string that is not UTF-8). Left to gRPC, the call answered INTERNAL "Exception
    deserializing request!" and logged a traceback, as if the server had failed; the call is
    handed this instead, and refuses it as INVALID_ARGUMENT."""

    def __init__(self, error: Exception) -> None:
        self.error = str(error)[:200] or type(error).__name__


def _tolerant(deserialize: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """`deserialize`, giving a Malformed request rather than raising."""
    if deserialize is None:  # bytes, passed on as they came (platform/forward)
        return None
    def parse(data: bytes) -> Any:
        try:
            return deserialize(data)
        except Exception as e:
            return Malformed(e)
    return parse


def _unexpected(context: grpc.ServicerContext, e: Exception) -> None:
    """Ends a call that failed with an exception no refusal names (unexpected_status). Left
    to gRPC, the call would answer UNKNOWN "Exception calling application: <the exception's
    text>", showing the client whatever that text holds (paths, SQL, keys, hidden state). A
    status the call set itself before raising (context.abort, as the front door's
    pass-through does) is kept."""
    if context.code() is not None:
        raise e
    context.abort(*unexpected_status(e))


def unexpected_status(e: Exception) -> tuple[grpc.StatusCode, str]:
    """The status of a failure no refusal names, logged here: UNAVAILABLE when a store was
    out of reach (platform.outages: the caller may retry), else (a bug, a library's error)
    INTERNAL with the request id to quote, logged in full."""
    gone = out_of_reach(e)
    if gone is not None:  # the cause's text is left out of the log: it may quote a statement
        OUTAGE_WARNINGS.warn(log, gone, type(e).__name__)
        return grpc.StatusCode.UNAVAILABLE, f"{gone} is out of reach; retry"
    log.error("unexpected failure", exc_info=e)
    rid = request_id_var.get()  # the client's own, or one made up: quoted only if sound
    quoted = f"; request id {rid}" if 0 < len(rid) <= MAX_ID and rid.isprintable() else ""
    return grpc.StatusCode.INTERNAL, f"internal error{quoted}"


def refuse(context: grpc.ServicerContext, e: ServiceError | grpc.RpcError) -> None:
    """Ends the call with `e`'s status (failure_status) and its reason, if it has one.
    Raises, as context.abort does."""
    abort(context, *failure_status(e), e.reason if isinstance(e, ServiceError) else "")


def abort(context: grpc.ServicerContext, code: grpc.StatusCode, message: str,
          reason: str = "") -> None:
    """context.abort, with `reason` (if any) in the trailing metadata (errors.REASON_KEY),
    beside what the call set there already. Raises, as context.abort does."""
    if reason:
        context.set_trailing_metadata(
            (*(context.trailing_metadata() or ()), (REASON_KEY, reason)))
    context.abort(code, message)


def failure_status(e: ServiceError | grpc.RpcError) -> tuple[grpc.StatusCode, str]:
    """The status a call answers when `e` ends it: a refusal's own, or UNAVAILABLE when a
    service this one depends on failed or timed out."""
    if isinstance(e, ServiceError):
        return e.code, bounded(e.message)
    return grpc.StatusCode.UNAVAILABLE, downstream_failure(
        e.code() if hasattr(e, "code") else None)


MAX_STATUS_BYTES = 1024  # of a status message, in UTF-8


def bounded(message: str) -> str:
    """`message`, cut to MAX_STATUS_BYTES. A refusal may quote what the client sent (an
    unknown bot name, say); whole, it overflowed gRPC's limit on metadata, and the client got
    RESOURCE_EXHAUSTED "Stream removed" instead of the refusal."""
    encoded = message.encode()
    if len(encoded) <= MAX_STATUS_BYTES:
        return message
    return encoded[:MAX_STATUS_BYTES].decode(errors="ignore") + "…"


def downstream_failure(code: grpc.StatusCode | None) -> str:
    """What a client is told when a service this one called failed or refused."""
    name = code.name if code is not None else "an error"
    return f"a service this call depends on answered {name}; retry with the same request id"


def _about(request: Any) -> tuple[str, int | None]:
    """The match id and seat a request names, if any (a streamed request names none)."""
    match_id = getattr(request, "match_id", "")
    if not isinstance(match_id, str):
        return "", None
    seat = getattr(request, "seat", None)
    if not isinstance(seat, int):
        return match_id, None
    try:
        return match_id, seat if request.HasField("seat") else None
    except ValueError:  # a plain int field: always there
        return match_id, seat


_VARS = (principal_var, request_id_var, match_id_var, seat_var)


def _reset(tokens: list[Any]) -> None:
    for var, token in reversed(list(zip(_VARS, tokens, strict=False))):
        var.reset(token)
