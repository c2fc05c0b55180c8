"""`partida serve [ROLE]`: run the server (every service) or one service of it."""

from __future__ import annotations

import signal
import threading

from partida.platform import logs
from partida.platform.assembly import build
from partida.platform.config import Settings


def serve(role: str, cfg: Settings, announce: bool = True) -> None:
    logs.configure()
    process = build(role, cfg)
    process.start()
    if announce:
        where = f"{cfg.host}:{process.server.port}"
        print(f"partida {role} serving on {where}", flush=True)
        if role == "all":
            print(f"  try: partida client play montanas --server {where}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    process.stop(grace=cfg.shutdown_grace_seconds)
