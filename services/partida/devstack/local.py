"""`make stack` / `make stack-down`: the multi-process stack on this machine, in the
background, its state kept in a folder (default `.stack/`)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

from partida.devstack.servers import start_postgres, start_redis
from partida.devstack.stack import API_KEY, SPLIT_ROLES, start_split

PORTS = {"persistence": 50061, "dice": 50062, "rules": 50051, "matchmaking": 50063}
# Prometheus metrics of each process (GET /metrics).
METRICS_PORTS = {"rules": 9464, "persistence": 9465, "dice": 9466, "matchmaking": 9467,
                 "worker": 9468}


def up(folder: Path) -> dict[str, object]:
    """Start Redis, PostgreSQL, the four services and a Celery worker; returns the state."""
    folder = folder.resolve()
    if (folder / "state.json").exists():
        raise RuntimeError(f"a stack is already up (see {folder}/state.json); stop it first")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "redis").mkdir(exist_ok=True)
    redis_proc, redis_url = start_redis(folder / "redis", detach=True)
    pids = {"redis": redis_proc.pid}
    try:
        pg_proc, pg_url = start_postgres(folder / "postgres", detach=True, durable=True)
        pids["postgres"] = pg_proc.pid
        stack = start_split(folder, redis_url, pg_url, detach=True, ports=dict(PORTS),
                            metrics_ports=dict(METRICS_PORTS))
    except BaseException:
        _kill(pids)
        raise
    pids.update({name: p.pid for name, p in stack.procs.items()})
    state = {"pids": pids, "addresses": stack.addresses, "metrics": stack.metrics,
             "redis_url": redis_url,
             "database_url": pg_url, "api_key": API_KEY, "logs": str(folder)}
    (folder / "state.json").write_text(json.dumps(state, indent=2))
    return state


def down(folder: Path) -> list[str]:
    """Stop everything `up` started; returns the names stopped."""
    path = folder / "state.json"
    if not path.exists():
        return []
    pids = json.loads(path.read_text())["pids"]
    order = [*reversed(["worker", *SPLIT_ROLES]), "postgres", "redis"]
    _kill({name: pids[name] for name in order if name in pids})
    path.unlink()
    return [n for n in order if n in pids]


def _kill(pids: dict[str, int]) -> None:
    for pid in pids.values():
        try:
            os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
    deadline = time.monotonic() + 15
    for pid in pids.values():
        while time.monotonic() < deadline:
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
