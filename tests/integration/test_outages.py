"""A store out of reach is an outage, not a bug: calls that meet one answer UNAVAILABLE (retry),
not INTERNAL, change nothing, and go through once the store is back (ARCHITECTURE.md,
"Security": a clear status for every failed request; issue 3, nothing acknowledged lost)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import grpc
import pytest

from partida.devstack.servers import start_postgres, start_redis, stop
from partida.devstack.stack import BIN, Stack, service_env
from partida.v1 import persistence_pb2
from tests.e2e.play import player, seat_in_match, wait_for_turn
from tests.e2e.test_resilience import _match_waiting_on
from tests.integration.test_health import SERVING, process, wait_for


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


def _stop_postgres(folder: Path, proc: subprocess.Popen) -> None:
    """A fast shutdown, which ends the connections the server holds (as a crash or a restart
    would); the smart one `stop` asks for waits until its clients leave."""
    pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    os.kill(pid, signal.SIGINT)
    proc.wait(30)


class _Servers(list):
    """The server processes a test starts, each stopped at its end however it ends (one
    started before a failure would otherwise outlive the test)."""

    def add(self, started: tuple[subprocess.Popen, str]) -> tuple[subprocess.Popen, str]:
        self.append(started[0])
        return started

    def stop_all(self) -> None:
        for proc in self:
            stop(proc)


def _refused(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as e:
        call()
    return e.value


def test_a_store_out_of_reach_answers_unavailable_and_the_call_goes_through_once_back(
        tmp_path):
    (tmp_path / "redis").mkdir()
    pg_folder = Path(tempfile.mkdtemp(prefix="partida-outage-pg-"))  # one PostgreSQL can enter
    servers = _Servers()
    try:
        redis_proc, redis_url = servers.add(start_redis(tmp_path / "redis"))
        pg_proc, pg_url = servers.add(start_postgres(pg_folder))
        with process("all", tmp_path, PARTIDA_REDIS_URL=redis_url,
                     PARTIDA_DATABASE_URL=pg_url) as (address, proc):
            wait_for(address, SERVING, proc)
            alice = player(Stack({"rules": address}, {}, tmp_path))
            match_id, seat = seat_in_match(alice)
            version, _ = wait_for_turn(alice, match_id, seat)
            legal = alice.legal(match_id, seat)

            stop(redis_proc)  # the live sessions
            gone = _refused(lambda: alice.view(match_id, seat))
            assert gone.code() == grpc.StatusCode.UNAVAILABLE, gone.details()
            assert gone.details() == "the session store is out of reach; retry"
            servers.add(start_redis(tmp_path / "redis", port=_port(redis_url)))
            assert alice.view(match_id, seat)[0] == version

            _stop_postgres(pg_folder, pg_proc)  # the durable record
            gone = _refused(lambda: alice.submit(match_id, seat, legal.version, "once",
                                                 legal.default_action_id))
            assert gone.code() == grpc.StatusCode.UNAVAILABLE, gone.details()
            gone = _refused(lambda: alice.call(
                alice.persistence, "ListFinishedMatches",
                persistence_pb2.ListFinishedMatchesRequest()))
            assert gone.code() == grpc.StatusCode.UNAVAILABLE, gone.details()
            assert gone.details() == "the database is out of reach; retry"
            assert alice.view(match_id, seat)[0] == version  # nothing was applied
            servers.add(start_postgres(pg_folder, port=_port(pg_url)))
            done = alice.submit(match_id, seat, legal.version, "once", legal.default_action_id)
            assert done.version == legal.version + 1
            assert proc.poll() is None
    finally:
        servers.stop_all()
        shutil.rmtree(pg_folder, ignore_errors=True)


def test_an_action_stands_while_the_broker_is_down_and_its_bot_turn_follows(tmp_path):
    """The bot turn an action leads to cannot be queued while the broker is down. The action
    is durable, so it is acknowledged all the same; the deadline index queues the turn again
    (BOT_RETRY_SECONDS) once the broker is back, and a worker plays it."""
    for folder in ("sessions", "broker"):
        (tmp_path / folder).mkdir()
    servers = _Servers()
    try:
        sessions_url = servers.add(start_redis(tmp_path / "sessions"))[1]
        broker_proc, broker_url = servers.add(start_redis(tmp_path / "broker"))
        with process("all", tmp_path, PARTIDA_REDIS_URL=sessions_url,
                     PARTIDA_BROKER_URL=broker_url.rsplit("/", 1)[0] + "/1",
                     PARTIDA_DATABASE_URL=f"sqlite:///{tmp_path / 'partida.db'}") as \
                (address, proc):
            wait_for(address, SERVING, proc)
            stack = Stack({"rules": address}, {}, tmp_path)
            alice = player(stack)
            match_id = _match_waiting_on(stack, alice, first_seat=0, clock_seconds=0)
            stop(broker_proc)
            while True:  # Alice plays until the bot is to act: that action queues its turn
                legal = alice.legal(match_id, 0)
                done = alice.submit(match_id, 0, legal.version, f"alice-{legal.version}",
                                    legal.default_action_id)
                assert done.version == legal.version + 1
                if 1 in done.decision.seats:
                    break
            servers.add(start_redis(tmp_path / "broker", port=_port(broker_url)))
            with open(tmp_path / "worker.log", "ab") as log:
                servers.append(subprocess.Popen(
                    [str(BIN / "celery"), "-A", "partida.ai", "worker", "--pool", "threads",
                     "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip",
                     "--without-mingle"],
                    env=service_env(PARTIDA_BROKER_URL=broker_url.rsplit("/", 1)[0] + "/1",
                                    PARTIDA_RULES_ADDRESS=address),
                    stdout=log, stderr=subprocess.STDOUT))
            deadline = time.monotonic() + 60
            while alice.view(match_id, 0)[0] == done.version:
                assert time.monotonic() < deadline, "the bot's turn was never played"
                time.sleep(0.2)
    finally:
        servers.stop_all()
