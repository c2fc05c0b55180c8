"""`partida serve [ROLE]`: run the server (every service) or one service of it."""

from __future__ import annotations

import logging
import signal
import threading

from partida.platform import logs, metrics
from partida.platform.assembly import build
from partida.platform.config import Settings
from partida.platform.gc_tuning import freeze_startup

log = logging.getLogger("partida.serve")


def serve(role: str, cfg: Settings, announce: bool = True) -> None:
    """Serve until SIGINT or SIGTERM, then report NOT_SERVING, drain in-flight calls for up to
    PARTIDA_SHUTDOWN_GRACE_SECONDS and stop. Refuses to start, before anything listens, on
    an address beyond this machine while a secret keeps its public built-in value."""
    exposed = cfg.public_defaults_exposed()
    if exposed:
        raise SystemExit(f"refusing to serve on {cfg.host}: {', '.join(exposed)} still "
                         "have the built-in values, which only suit a loopback address; "
                         "set them to secrets of this deployment")
    logs.configure()
    exporter = metrics.serve(cfg.metrics_port, cfg.host)
    process = build(role, cfg)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    process.start()
    freeze_startup()
    if announce:
        where = f"{cfg.host}:{process.server.port}"
        print(f"partida {role} serving on {where}", flush=True)
        if exporter is not None:
            print(f"  metrics: http://{cfg.host}:{exporter.server_port}/metrics", flush=True)
        if role == "all":
            print(f"  try: partida client play montanas --server {where}", flush=True)
    stop.wait()
    log.info("stop signal received")
    process.stop(grace=cfg.shutdown_grace_seconds)
    if exporter is not None:
        exporter.shutdown()
