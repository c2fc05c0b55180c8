"""The interceptors every server has (platform/calls.py) wrap a method's handler once and
reuse it; what belongs to one call must still be that call's own."""

from __future__ import annotations

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.calls import caller, request_id_var
from tests.unit.platform.support import one_method_server

AUTHORITY = Authority("p" * 32, "s" * 32, {})  # the secrets one_method_server's server uses


def _whoami(request: bytes, context: grpc.ServicerContext) -> bytes:
    principal = caller()
    name = "-" if principal is None else f"{principal.kind}:{principal.subject}"
    return f"{name} {request_id_var.get()}".encode()


def test_every_call_of_a_method_sees_its_own_caller_and_request_id():
    server = one_method_server("test.Who", "Am", _whoami)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            ask = channel.unary_unary("/test.Who/Am")

            def who(metadata: tuple[tuple[str, str], ...]) -> str:
                return ask(b"", metadata=metadata, timeout=10).decode()

            tokens = {p: AUTHORITY.player_token(p, 600)[0] for p in ("ana", "bea")}
            for round_ in range(2):  # the second round runs on the handler the first made
                for player, token in tokens.items():
                    answer = who((("authorization", f"Bearer {token}"),
                                  ("x-request-id", f"{player}-{round_}")))
                    assert answer == f"player:{player} {player}-{round_}"
                assert who((("authorization",
                             f"Bearer {AUTHORITY.service_token('rules')}"),)
                           ).startswith("service:rules ")
                nobody, made_up = who(()).split()
                assert nobody == "-" and made_up  # no token: no caller; an id made up
            with pytest.raises(grpc.RpcError) as bad:
                who((("authorization", "Bearer not-a-token"),))
            assert bad.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        server.stop(0)
