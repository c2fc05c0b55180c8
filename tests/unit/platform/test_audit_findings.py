"""Findings of the platform audit, each checked on a real in-process server with every
interceptor (platform/server.Server)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.server import Registration, Server
from tests.support.serving import channel_to

AUTHORITY = Authority("p" * 32, "s" * 32, {})
SECRET = "/var/lib/partida/partida.db: no such table: players"  # what a failure may hold


def _unary_fails(request: bytes, context: grpc.ServicerContext) -> bytes:
    raise KeyError(SECRET)


def _unary_aborts(request: bytes, context: grpc.ServicerContext) -> bytes:
    context.abort(grpc.StatusCode.NOT_FOUND, "no match m1")
    raise AssertionError("not reached")


def _stream_fails(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    yield b"first"
    raise RuntimeError(SECRET)


@pytest.fixture
def channel() -> Iterator[grpc.Channel]:
    def add(_servicer: Any, server: grpc.Server) -> None:
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("test.Audit", {
            "Fails": grpc.unary_unary_rpc_method_handler(_unary_fails),
            "Aborts": grpc.unary_unary_rpc_method_handler(_unary_aborts),
            "StreamFails": grpc.unary_stream_rpc_method_handler(_stream_fails),
        })])

    with channel_to(Server([Registration("test.Audit", None, add)], AUTHORITY, "127.0.0.1:0",
                           max_workers=2, max_streams=2)) as ch:
        yield ch


def test_an_unexpected_exception_is_internal_and_does_not_show_its_text(channel):
    """A call failing with an exception no refusal names answered UNKNOWN "Exception calling
    application: <the exception's text>", showing the client internals (here a path and a
    table). It is INTERNAL now, naming only the request id to quote."""
    metadata = (("x-request-id", "req-42"),)
    with pytest.raises(grpc.RpcError) as unary:
        channel.unary_unary("/test.Audit/Fails")(b"", metadata=metadata, timeout=10)
    assert unary.value.code() == grpc.StatusCode.INTERNAL
    assert SECRET not in unary.value.details() and "req-42" in unary.value.details()

    stream = channel.unary_stream("/test.Audit/StreamFails")(b"", metadata=metadata,
                                                             timeout=10)
    assert next(stream) == b"first"
    with pytest.raises(grpc.RpcError) as streamed:
        next(stream)
    assert streamed.value.code() == grpc.StatusCode.INTERNAL
    assert SECRET not in streamed.value.details()


def test_a_status_the_call_chose_itself_is_kept(channel):
    """A call that ends itself with context.abort (as the front door's pass-through does with
    the answer of the service behind it) keeps its own status, not INTERNAL."""
    with pytest.raises(grpc.RpcError) as aborted:
        channel.unary_unary("/test.Audit/Aborts")(b"", timeout=10)
    assert aborted.value.code() == grpc.StatusCode.NOT_FOUND
    assert aborted.value.details() == "no match m1"
