"""partida stacks as separate processes, for `make stack`, end-to-end tests and benchmarks.

`embedded_stack` runs `partida serve` (every service, SQLite, in-process sessions and bots).
`split_stack` runs each service as its own process on real Redis and PostgreSQL, with a
Celery worker playing the bots. Tests talk to them only through gRPC.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from partida.devstack.servers import free_port

BIN = Path(sys.executable).parent
API_KEY = "e2e-key"
SECRETS = {
    "PARTIDA_TOKEN_SECRET": "e2e-player-secret-0123456789abcdef",
    "PARTIDA_SERVICE_TOKEN_SECRET": "e2e-service-secret-0123456789abcdef",
    "PARTIDA_API_KEYS": f"{API_KEY}=e2e",
}


@dataclass
class Stack:
    """Running processes and where each service answers."""

    addresses: dict[str, str]
    env: dict[str, str]
    logs: Path
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)
    commands: dict[str, list[str]] = field(default_factory=dict)
    # Where each process (services and worker) serves Prometheus metrics: host:port.
    metrics: dict[str, str] = field(default_factory=dict)
    redis_url: str = ""
    database_url: str = ""
    detach: bool = False  # processes outlive this Python process (`make stack`)

    @property
    def address(self) -> str:
        return self.addresses["rules"]

    def start(self, name: str) -> None:
        log = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 (kept open with the process)
        port = self.metrics.get(name, ":0").rsplit(":", 1)[1]
        env = {**self.env, "PARTIDA_METRICS_PORT": port}
        self.procs[name] = subprocess.Popen(self.commands[name], env=env, stdout=log,
                                            stderr=subprocess.STDOUT,
                                            start_new_session=self.detach)
        if name in self.addresses:
            try:
                wait_healthy(self.addresses[name], self.procs[name], name,
                             HEALTH_NAMES.get(name.split("-")[0], ""))
            except RuntimeError as e:
                raise RuntimeError(f"{e}; its log ends:\n{self.log_tail(name)}") from None

    def add_replica(self, role: str) -> str:
        """Start one more process of `role` (rules and matchmaking keep their state in Redis,
        so any number may serve), on ports of its own; its name, "<role>-<n>"."""
        n = 2
        while f"{role}-{n}" in self.commands:
            n += 1
        name, port = f"{role}-{n}", free_port()
        self.commands[name] = [*self.commands[role][:-1], str(port)]
        self.addresses[name] = f"127.0.0.1:{port}"
        self.metrics[name] = f"127.0.0.1:{free_port()}"
        self.start(name)
        return name

    def log_tail(self, name: str, lines: int = 20) -> str:
        text = (self.logs / f"{name}.log").read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name)
        proc.kill()
        proc.wait()

    def stop(self) -> None:
        for name in reversed(list(self.procs)):
            proc = self.procs.pop(name)
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# The service each role's health is read for (a replica "rules-2" is a "rules"): the
# process's own, so that another server answering at the address is not taken for it.
HEALTH_NAMES = {"persistence": "partida.v1.PersistenceService",
                "dice": "partida.v1.DiceService", "rules": "partida.v1.RulesService",
                "matchmaking": "partida.v1.MatchmakingService", "all": "partida.v1.RulesService"}


def wait_healthy(address: str, proc: subprocess.Popen, name: str, service: str = "",
                 timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}")
            with contextlib.suppress(grpc.RpcError):
                r = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
                if r.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            time.sleep(0.1)
    raise RuntimeError(f"{name} at {address} did not become healthy in {timeout}s")


def service_env(**extra: str) -> dict[str, str]:
    """The environment of a stack's process: this one's, less any PARTIDA_ setting, plus the
    stack's secrets and `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARTIDA_")}
    env.update(SECRETS, PARTIDA_HOST="127.0.0.1", PARTIDA_BOT_FILL_AFTER_SECONDS="0.3",
               PARTIDA_SHUTDOWN_GRACE_SECONDS="1",
               PYTHONUNBUFFERED="1", **extra)
    return env


def serve_command(role: str, port: int) -> list[str]:
    return [str(BIN / "partida"), "serve", role, "--port", str(port)]


@contextlib.contextmanager
def embedded_stack(**extra_env: str) -> Iterator[Stack]:
    tmp = Path(tempfile.mkdtemp(prefix="partida-e2e-"))
    port = free_port()
    database = f"sqlite:///{tmp / 'partida.db'}"
    stack = Stack({"rules": f"127.0.0.1:{port}"},
                  service_env(PARTIDA_DATABASE_URL=database, **extra_env), tmp)
    stack.addresses.update(dice=stack.address, persistence=stack.address,
                           matchmaking=stack.address)
    stack.commands["all"] = serve_command("all", port)
    stack.addresses["all"] = stack.address
    stack.metrics["all"] = f"127.0.0.1:{free_port()}"
    try:
        stack.start("all")
        yield stack
    finally:
        stack.stop()
        shutil.rmtree(tmp, ignore_errors=True)


SPLIT_ROLES = ("persistence", "dice", "rules", "matchmaking")


def start_split(folder: Path, redis_url: str, database_url: str, *, worker: bool = True,
                detach: bool = False, ports: dict[str, int] | None = None,
                metrics_ports: dict[str, int] | None = None,
                extra_env: dict[str, str] | None = None) -> Stack:
    """Every service a process of its own; persistence first, since it migrates the schema.
    Each process, the worker too, serves metrics on a port of its own (free ones unless
    given)."""
    ports = ports or {role: free_port() for role in SPLIT_ROLES}
    metrics_ports = metrics_ports or {name: free_port() for name in (*SPLIT_ROLES, "worker")}
    addresses = {role: f"127.0.0.1:{p}" for role, p in ports.items()}
    env = service_env(PARTIDA_REDIS_URL=redis_url, PARTIDA_DATABASE_URL=database_url,
               PARTIDA_BROKER_URL=redis_url.rsplit("/", 1)[0] + "/1",
               PARTIDA_RULES_ADDRESS=addresses["rules"],
               PARTIDA_DICE_ADDRESS=addresses["dice"],
               PARTIDA_PERSISTENCE_ADDRESS=addresses["persistence"],
               PARTIDA_MATCHMAKING_ADDRESS=addresses["matchmaking"], **(extra_env or {}))
    stack = Stack(addresses, env, folder, redis_url=redis_url, database_url=database_url,
                  detach=detach,
                  metrics={name: f"127.0.0.1:{p}" for name, p in metrics_ports.items()})
    for role, port in ports.items():
        stack.commands[role] = serve_command(role, port)
    stack.commands["worker"] = [str(BIN / "celery"), "-A", "partida.ai", "worker",
                                "--pool", "threads", "--concurrency", "16", "--loglevel",
                                "WARNING", "--without-heartbeat", "--without-gossip",
                                "--without-mingle"]
    try:
        for role in SPLIT_ROLES:
            stack.start(role)
        if worker:
            stack.start("worker")
    except BaseException:
        stack.stop()
        raise
    return stack


@contextlib.contextmanager
def split_stack(redis_url: str, database_url: str, worker: bool = True,
                **extra_env: str) -> Iterator[Stack]:
    tmp = Path(tempfile.mkdtemp(prefix="partida-split-"))
    stack = start_split(tmp, redis_url, database_url, worker=worker, extra_env=extra_env)
    try:
        yield stack
    finally:
        stack.stop()
        shutil.rmtree(tmp, ignore_errors=True)
