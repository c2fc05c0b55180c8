"""gRPC health of the services as separate processes (ARCHITECTURE.md, "Operations"):
NOT_SERVING until Redis, the database and the services they call answer, SERVING once they
do, NOT_SERVING again while one stops answering and when a process is told to stop."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from partida.devstack.servers import free_port, start_postgres, start_redis, stop
from partida.devstack.stack import serve_command, service_env
from partida.platform.server import LIVENESS

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def status(address: str, service: str = "") -> int | None:
    """The process's status (overall, or of `service`); None while it does not answer."""
    with grpc.insecure_channel(address) as channel, contextlib.suppress(grpc.RpcError):
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1).status
    return None


def wait_for(address: str, wanted: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while status(address) != wanted:
        assert proc.poll() is None, f"the process at {address} exited with {proc.returncode}"
        assert time.monotonic() < deadline, f"{address} never reported {wanted}"
        time.sleep(0.1)


def stays_not_serving(address: str, proc: subprocess.Popen, seconds: float = 2.0) -> None:
    """It answers, but only NOT_SERVING, for `seconds` (several rounds of its retries)."""
    wait_for(address, NOT_SERVING, proc)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert status(address) == NOT_SERVING
        time.sleep(0.2)


@contextlib.contextmanager
def process(role: str, folder: Path, **env: str) -> Iterator[tuple[str, subprocess.Popen]]:
    port = free_port()
    with open(folder / f"{role}.log", "ab") as log:
        proc = subprocess.Popen(serve_command(role, port),
                                env=service_env(PARTIDA_METRICS_PORT="0", **env),
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        yield f"127.0.0.1:{port}", proc
    finally:
        stop(proc)


def test_services_serve_only_once_redis_the_database_and_their_peers_answer(tmp_path):
    # A database that is down: a cluster made, then stopped, and later started on its port.
    # (Its folder is outside pytest's, which the postgres user may not enter.)
    pg_folder = Path(tempfile.mkdtemp(prefix="partida-health-pg-"))
    pg_proc, database_url = start_postgres(pg_folder)
    stop(pg_proc)
    pg_port = int(database_url.rsplit(":", 1)[1].split("/")[0])
    redis_port = free_port()  # nothing listens there yet
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    servers: list[subprocess.Popen] = []
    try:
        with process("persistence", tmp_path, PARTIDA_DATABASE_URL=database_url) as \
                (persistence, persistence_proc):
            stays_not_serving(persistence, persistence_proc)
            servers.append(start_postgres(pg_folder, port=pg_port)[0])
            wait_for(persistence, SERVING, persistence_proc)

            with process("dice", tmp_path, PARTIDA_DATABASE_URL=database_url) as \
                    (dice, dice_proc), process("rules", tmp_path, PARTIDA_REDIS_URL=redis_url,
                            PARTIDA_BROKER_URL=f"redis://127.0.0.1:{redis_port}/1",
                            PARTIDA_PERSISTENCE_ADDRESS=persistence,
                            PARTIDA_DICE_ADDRESS=dice) as (rules, rules_proc):
                wait_for(dice, SERVING, dice_proc)
                stays_not_serving(rules, rules_proc)  # Redis does not answer
                servers.append(start_redis(tmp_path, port=redis_port)[0])
                wait_for(rules, SERVING, rules_proc)

                # Told to stop, it says NOT_SERVING to those watching, then exits cleanly.
                with grpc.insecure_channel(rules) as channel:
                    watch = health_pb2_grpc.HealthStub(channel).Watch(
                        health_pb2.HealthCheckRequest(), timeout=30)
                    assert next(watch).status == SERVING
                    rules_proc.send_signal(signal.SIGTERM)
                    assert next(watch).status == NOT_SERVING
                    watch.cancel()
                assert rules_proc.wait(30) == 0
    finally:
        for server in servers:
            stop(server)
        shutil.rmtree(pg_folder, ignore_errors=True)


def test_a_serving_process_stops_serving_while_redis_is_down_and_stays_alive(tmp_path):
    """After SERVING, the dependencies are still watched: Redis going away turns readiness
    NOT_SERVING (liveness stays SERVING: a restart would not bring Redis back), and its
    return turns it SERVING again."""
    redis_proc, redis_url = start_redis(tmp_path)
    redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    db = f"sqlite:///{tmp_path / 'partida.db'}"
    try:
        with process("all", tmp_path, PARTIDA_REDIS_URL=redis_url,
                     PARTIDA_DATABASE_URL=db) as (address, proc):
            wait_for(address, SERVING, proc)
            stop(redis_proc)
            wait_for(address, NOT_SERVING, proc, timeout=20)
            assert status(address, LIVENESS) == SERVING
            assert status(address, "partida.v1.RulesService") == NOT_SERVING
            redis_proc = start_redis(tmp_path, port=redis_port)[0]
            wait_for(address, SERVING, proc, timeout=20)
            assert status(address, "partida.v1.RulesService") == SERVING
    finally:
        stop(redis_proc)
