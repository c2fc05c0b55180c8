"""A started partida gRPC server, for tests that call it over the network."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import grpc

from partida.platform.server import Server


@contextlib.contextmanager
def channel_to(server: Server) -> Iterator[grpc.Channel]:
    """Starts `server` and yields a channel to it; closes both after."""
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            yield channel
    finally:
        server.stop(0)
