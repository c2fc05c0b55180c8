"""A refusal a client must tell apart from others of its status code carries a reason in
its trailing metadata ("partida-error-reason", players.proto): an expired token's
UNAUTHENTICATED does, a bad token's does not. Real partida Servers over real gRPC, read as a
third-party client reads them: the status and the trailing metadata, not the wording."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.forward import Forwarder
from partida.platform.server import Registration, Server
from tests.support.clock import ManualClock

KEY = "partida-error-reason"  # the documented key, spelled as a client in any language would
SERVICE = "partida.v1.MatchmakingService"  # a service the front door passes on
PLAYER_SECRET, SERVICE_SECRET = "p" * 32, "s" * 32


def _answer(request: bytes, context: grpc.ServicerContext) -> bytes:
    return b"answer"


def _feed(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    yield b"answer"


def _add(_servicer: object, server: grpc.Server) -> None:
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, {
        "GetTicket": grpc.unary_unary_rpc_method_handler(_answer),
        "WatchTicket": grpc.unary_stream_rpc_method_handler(_feed)})])


def _server(authority: Authority) -> Server:
    """A started Server (every interceptor) answering GetTicket and WatchTicket."""
    server = Server([Registration(SERVICE, None, _add)], authority, "127.0.0.1:0")
    server.start()
    return server


def _refusal(channel: grpc.Channel, method: str, *metadata: tuple[str, str]
             ) -> tuple[grpc.StatusCode, str | None]:
    """The status code of `method` called with `metadata`, and the reason it carries (None:
    no reason); (OK, None) if it is answered."""
    try:
        if method == "WatchTicket":
            list(channel.unary_stream(f"/{SERVICE}/{method}")(b"", metadata=metadata,
                                                                timeout=10))
        else:
            channel.unary_unary(f"/{SERVICE}/{method}")(b"", metadata=metadata, timeout=10)
    except grpc.RpcError as e:
        reasons = [v for k, v in e.trailing_metadata() or () if k == KEY]
        assert len(reasons) <= 1, reasons
        return e.code(), reasons[0] if reasons else None
    return grpc.StatusCode.OK, None


@pytest.fixture
def direct() -> Iterator[grpc.Channel]:
    server = _server(Authority(PLAYER_SECRET, SERVICE_SECRET, {"right-key": "acme"}))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            yield channel
    finally:
        server.stop(0)


def _bearer(token: str) -> tuple[str, str]:
    return ("authorization", f"Bearer {token}")


AUTHORITY = Authority(PLAYER_SECRET, SERVICE_SECRET, {})
EXPIRED = _bearer(AUTHORITY.player_token("ana", 60, now=time.time() - 3600)[0])


def _live() -> tuple[str, str]:
    """A token live for 10 minutes from now (made at import, it expired in a long run)."""
    return _bearer(AUTHORITY.player_token("ana", 600)[0])


@pytest.mark.parametrize("method", ["GetTicket", "WatchTicket"])
def test_an_expired_tokens_refusal_carries_the_reason(direct, method):
    assert _refusal(direct, method, EXPIRED) == (grpc.StatusCode.UNAUTHENTICATED,
                                                 "token-expired")


@pytest.mark.parametrize("method", ["GetTicket", "WatchTicket"])
@pytest.mark.parametrize("credential", [
    _bearer("not-a-token"),  # not a token at all
    _bearer(Authority("x" * 32, "y" * 32, {}).player_token("ana", 600)[0]),  # not ours
    _bearer(Authority("x" * 32, "y" * 32, {}).player_token("ana", 60,
                                                           now=time.time() - 3600)[0]),
    ("authorization", "Basic dXNlcg=="),
    ("x-api-key", "wrong-key"),
])
def test_other_refusals_of_credentials_carry_no_reason(direct, method, credential):
    """A forged token that has also run out is no expired token: its signature never held,
    and taking a new token would not help the one who sent it."""
    assert _refusal(direct, method, credential) == (grpc.StatusCode.UNAUTHENTICATED, None)


def test_answered_calls_carry_no_reason(direct):
    assert _refusal(direct, "GetTicket", _live()) == (grpc.StatusCode.OK, None)
    with pytest.raises(grpc.RpcError) as refused:  # no such method: refused, but not ours
        direct.unary_unary(f"/{SERVICE}/CancelTicket")(b"", metadata=(_live(),), timeout=10)
    assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert all(k != KEY for k, _ in refused.value.trailing_metadata() or ())


@pytest.mark.parametrize("method", ["GetTicket", "WatchTicket"])
def test_the_front_door_passes_the_reason_on(method):
    """The token expires between the front door's check and the service's behind it (their
    clocks a little apart, or the call late): the service's refusal reached the client with
    its status and message but not its trailing metadata, so the client could not tell it
    from a bad token. Here the service's clock runs ahead of the front door's."""
    ahead = ManualClock(time.time())
    target = _server(Authority(PLAYER_SECRET, SERVICE_SECRET, {}, clock=ahead))
    upstream = grpc.insecure_channel(f"127.0.0.1:{target.port}")
    front = Server([], Authority(PLAYER_SECRET, SERVICE_SECRET, {}), "127.0.0.1:0",
                   handlers=[Forwarder({SERVICE: upstream})])
    front.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{front.port}") as channel:
            assert _refusal(channel, method, _live()) == (grpc.StatusCode.OK, None)
            ahead.now += 601  # past the token's ten minutes there, not at the front door
            assert _refusal(channel, method, _live()) == (grpc.StatusCode.UNAUTHENTICATED,
                                                       "token-expired")
    finally:
        front.stop(0)
        target.stop(0)
        upstream.close()
