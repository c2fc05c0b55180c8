"""A real Server refuses an address that failed to authenticate too often, before checking
what it bears, until its bucket refills (the limiter's clock injected); successful
authentications are never counted."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.calls import caller
from partida.platform.ratelimit import RateLimiter
from partida.platform.server import Registration, Server
from tests.support.clock import ManualClock

Code = grpc.StatusCode
AUTHORITY = Authority("p" * 32, "s" * 32, {"right-key": "acme"})



def _whoami(request: bytes, context: grpc.ServicerContext) -> bytes:
    principal = caller()
    return principal.subject.encode() if principal is not None else b""


def _add(_servicer: object, server: grpc.Server) -> None:
    handler = grpc.unary_unary_rpc_method_handler(_whoami)
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("test.Guess", {"WhoAmI": handler})])


@pytest.fixture
def served() -> Iterator[tuple[grpc.UnaryUnaryMultiCallable, ManualClock]]:
    """The made-up method behind a Server allowing 2 failures, then 1 a second."""
    clock = ManualClock()
    server = Server([Registration("test.Guess", None, _add)], AUTHORITY, "127.0.0.1:0",
                    auth_failure_limiter=RateLimiter(per_second=1, burst=2, clock=clock))
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield channel.unary_unary("/test.Guess/WhoAmI"), clock
    server.stop(0)


def status(call: grpc.UnaryUnaryMultiCallable, *metadata: tuple[str, str]) -> Code:
    try:
        call(b"", metadata=metadata, timeout=10)
    except grpc.RpcError as e:
        if e.code() == Code.RESOURCE_EXHAUSTED:
            assert "failed attempts to authenticate" in e.details()
        return e.code()
    return Code.OK


KEY, WRONG_KEY = ("x-api-key", "right-key"), ("x-api-key", "guess")


def test_past_its_failures_an_address_is_refused_unchecked_until_its_bucket_refills(served):
    call, clock = served
    assert [status(call, WRONG_KEY) for _ in range(3)] == [
        Code.UNAUTHENTICATED, Code.UNAUTHENTICATED, Code.RESOURCE_EXHAUSTED]
    assert status(call, KEY) == Code.RESOURCE_EXHAUSTED  # the right guess looks the same
    clock.now += 1.0  # one failure earned back
    assert status(call, KEY) == Code.OK  # and not spent by a success
    assert status(call, WRONG_KEY) == Code.UNAUTHENTICATED
    assert status(call, KEY) == Code.RESOURCE_EXHAUSTED


def test_successful_authentications_are_never_counted(served):
    call, _ = served
    token = ("authorization", f"Bearer {AUTHORITY.player_token('ana', 600)[0]}")
    assert {status(call, credential) for _ in range(50) for credential in (KEY, token)} == {
        Code.OK}
    assert [status(call, WRONG_KEY) for _ in range(3)] == [
        Code.UNAUTHENTICATED, Code.UNAUTHENTICATED, Code.RESOURCE_EXHAUSTED]


def test_wrong_tokens_count_and_a_token_proven_before_still_passes(served):
    """Once an address is refused, a token this process has proven goes by unchecked: its
    signature cannot be guessed, and players behind that address (a NAT) keep playing."""
    call, _ = served
    proven = ("authorization", f"Bearer {AUTHORITY.player_token('ana', 600)[0]}")
    assert status(call, proven) == Code.OK
    unproven = ("authorization", f"Bearer {AUTHORITY.player_token('bo', 600)[0]}")
    wrong = ("authorization", "Bearer not-a-token")
    assert [status(call, wrong) for _ in range(2)] == [Code.UNAUTHENTICATED] * 2
    assert status(call, wrong) == Code.RESOURCE_EXHAUSTED
    assert call(b"", metadata=(proven,), timeout=10) == b"ana"
    assert status(call, unproven) == Code.RESOURCE_EXHAUSTED
    assert status(call, proven, KEY) == Code.RESOURCE_EXHAUSTED  # an API key is never waved on
    assert status(call, ("authorization", "Basic x")) == Code.RESOURCE_EXHAUSTED


def test_expired_tokens_are_not_counted(served):
    """An expired token's signature holds: a client whose token ran out is no guesser."""
    call, _ = served
    expired = ("authorization",
               f"Bearer {AUTHORITY.player_token('ana', 60, now=time.time() - 3600)[0]}")
    assert {status(call, expired) for _ in range(10)} == {Code.UNAUTHENTICATED}
    assert [status(call, WRONG_KEY) for _ in range(3)] == [
        Code.UNAUTHENTICATED, Code.UNAUTHENTICATED, Code.RESOURCE_EXHAUSTED]


def test_calls_bearing_no_credentials_are_served_while_the_address_is_refused(served):
    call, _ = served
    assert [status(call, WRONG_KEY) for _ in range(3)][-1] == Code.RESOURCE_EXHAUSTED
    assert call(b"", timeout=10) == b""
