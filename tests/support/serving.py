"""A started partida gRPC server, for tests that call it over the network."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc

from partida.devstack.stack import SECRETS, Stack
from partida.platform.assembly import Process, build
from partida.platform.config import Settings
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


@contextlib.contextmanager
def embedded(folder: Path, port: int = 0, **settings: Any) -> Iterator[Stack]:
    """The embedded server (`partida serve`) in this process, on SQLite in `folder`, with
    the dev stack's secrets; bots fill empty seats after 0.2 s. A `port` given lets a test
    stop it and start it again where its clients left it."""
    cfg = Settings(database_url=f"sqlite:///{folder / 'partida.db'}", port=port,
                   bot_fill_after_seconds=0.2, token_secret=SECRETS["PARTIDA_TOKEN_SECRET"],
                   service_token_secret=SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"],
                   api_keys=SECRETS["PARTIDA_API_KEYS"], **settings)
    process: Process = build("all", cfg)
    process.start()
    try:
        assert process.ready.wait(30), "the embedded server never became ready"
        yield Stack({"rules": f"127.0.0.1:{process.server.port}"}, {}, folder)
    finally:
        process.stop(0)
