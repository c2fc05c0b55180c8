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
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from partida.devstack.servers import free_port, start_postgres, start_redis, stop
from partida.devstack.stack import serve_command, service_env
from partida.platform.assembly import authority, build
from partida.platform.config import Settings
from partida.platform.server import LIVENESS
from partida.v1 import persistence_pb2, persistence_pb2_grpc, rules_pb2, rules_pb2_grpc

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


def test_calls_before_the_database_answers_are_refused_as_unavailable():
    """A process listens at once and serves once its dependencies answer. A call in between
    reached the store: a PostgreSQL down was answered UNAVAILABLE (out of reach), but SQLite's
    errors and a schema not yet migrated failed as a bug, INTERNAL, which clients do not
    retry. Every call in between is now refused UNAVAILABLE, saying why."""
    cfg = Settings(database_url=f"postgresql+psycopg://u:p@127.0.0.1:{free_port()}/none",
                   port=0, metrics_port=0)
    served = build("all", cfg)  # nothing listens at the database's port
    served.start()
    try:
        address = f"127.0.0.1:{served.server.port}"
        assert status(address) == NOT_SERVING
        token = authority(cfg).player_token("p1", 600)[0]
        bearer = (("authorization", f"Bearer {token}"),)
        with grpc.insecure_channel(address) as channel:
            for call, request in (
                    (rules_pb2_grpc.RulesServiceStub(channel).GetView,
                     rules_pb2.GetViewRequest(match_id="m1")),
                    (persistence_pb2_grpc.PersistenceServiceStub(channel).GetRating,
                     persistence_pb2.GetRatingRequest(player_id="p1", game_id="montanas"))):
                with pytest.raises(grpc.RpcError) as refused:
                    call(request, metadata=bearer, timeout=10)
                assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
                assert refused.value.details().startswith("the server is starting")
    finally:
        served.stop(0)
