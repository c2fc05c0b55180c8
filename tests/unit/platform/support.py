"""A real partida Server hosting one made-up unary method, for tests of the platform."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

from partida.platform.auth import Authority
from partida.platform.server import Registration, Server


def one_method_server(service: str, method: str, behavior: Callable[..., Any],
                      deserializer: Callable[[bytes], Any] | None = None) -> Server:
    """A Server (every interceptor, health, reflection) on a free port whose only service
    answers `/service/method` with `behavior`; not started."""
    def add(_servicer: object, server: grpc.Server) -> None:
        handler = grpc.unary_unary_rpc_method_handler(behavior,
                                                      request_deserializer=deserializer)
        server.add_generic_rpc_handlers(
            [grpc.method_handlers_generic_handler(service, {method: handler})])

    return Server([Registration(service, None, add)], Authority("p" * 32, "s" * 32, {}),
                  "127.0.0.1:0")
