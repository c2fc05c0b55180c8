"""`partida serve [ROLE]`: run the server (every service) or one service of it."""

from __future__ import annotations

import logging
import signal
import threading

from partida.platform import logs, metrics
from partida.platform.assembly import build
from partida.platform.config import API_KEYS, MIN_SECRET_BYTES, Settings
from partida.platform.gc_tuning import freeze_startup

log = logging.getLogger("partida.serve")


def serve(role: str, cfg: Settings, announce: bool = True) -> None:
    """Serve until SIGINT or SIGTERM, then report NOT_SERVING, drain in-flight calls for up to
    PARTIDA_SHUTDOWN_GRACE_SECONDS and stop. Refuses to start, before anything listens, on
    an address beyond this machine while a token secret keeps its public built-in value or
    is short (warns of the API keys')."""
    exposed = cfg.public_defaults_exposed()
    signing = [name for name in exposed if name != API_KEYS]  # anyone could sign tokens
    if signing:
        raise SystemExit(f"refusing to serve on {cfg.host}: the built-in value of "
                         f"{' and '.join(signing)} is public (it only suits a loopback "
                         "address); set a secret of this deployment")
    short = cfg.short_secrets_exposed()
    if short:
        raise SystemExit(f"refusing to serve on {cfg.host}: {' and '.join(short)} "
                         f"{'is' if len(short) == 1 else 'are'} shorter than "
                         f"{MIN_SECRET_BYTES} bytes, short enough to guess from any token it "
                         "signed; set a longer secret")
    logs.configure()
    if exposed:  # the development stacks (compose, k8s base) serve the documented dev key
        log.warning("%s has its built-in value on %s: anyone who reaches the port may "
                    "create players", API_KEYS, cfg.host)
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
