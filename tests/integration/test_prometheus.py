"""A real Prometheus scrapes every process of the multi-process stack (four services and the
Celery worker, on real Redis and PostgreSQL) while a match of Montañas is played; what it
collected is read back through its HTTP API (ARCHITECTURE.md, "Operations")."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from partida.devstack.servers import free_port, redis_server, stop
from partida.devstack.stack import Stack, split_stack
from tests.e2e.conftest import fresh_database
from tests.e2e.play import play_to_end, player, seat_in_match

RULES = 'service="partida.v1.RulesService"'


class Prometheus:
    def __init__(self, url: str) -> None:
        self.url = url

    def query(self, promql: str) -> list[dict]:
        q = urllib.parse.urlencode({"query": promql})
        with urllib.request.urlopen(f"{self.url}/api/v1/query?{q}", timeout=5) as r:
            answer = json.load(r)
        assert answer["status"] == "success", answer
        return answer["data"]["result"]

    def value(self, promql: str) -> float | None:
        """The single value of an instant query (None: no sample)."""
        found = self.query(promql)
        assert len(found) <= 1, found
        return float(found[0]["value"][1]) if found else None

    def until(self, promql: str, check, timeout: float = 60.0) -> float | None:
        """Query until `check(value)` holds; the last value."""
        deadline = time.monotonic() + timeout
        while True:
            v = self.value(promql)
            if check(v):
                return v
            assert time.monotonic() < deadline, f"{promql} stayed at {v}"
            time.sleep(0.5)


def _config(targets: dict[str, str]) -> str:
    jobs = [{"job_name": name, "static_configs": [{"targets": [where]}]}
            for name, where in targets.items()]
    return json.dumps({"global": {"scrape_interval": "1s", "scrape_timeout": "900ms",
                                  "evaluation_interval": "1s"},
                       "scrape_configs": jobs})  # JSON is YAML


@contextlib.contextmanager
def prometheus(targets: dict[str, str], folder: Path) -> Iterator[Prometheus]:
    binary = shutil.which("prometheus")
    if binary is None:
        raise RuntimeError("prometheus is not installed (make test installs it)")
    (folder / "prometheus.yml").write_text(_config(targets))
    port = free_port()
    with open(folder / "prometheus.log", "ab") as log:
        proc = subprocess.Popen(
            [binary, f"--config.file={folder / 'prometheus.yml'}",
             f"--storage.tsdb.path={folder / 'tsdb'}", f"--web.listen-address=127.0.0.1:{port}"],
            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (folder / "prometheus.log").read_text()[-2000:]
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/-/ready", timeout=1):
                break
            assert time.monotonic() < deadline, "prometheus never became ready"
            time.sleep(0.2)
        yield Prometheus(url)
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def stack(postgres_url) -> Iterator[Stack]:
    with redis_server() as redis_url, \
            split_stack(redis_url, fresh_database(postgres_url)) as s:
        yield s


def test_prometheus_sees_calls_actions_and_matches_move_while_a_match_is_played(stack,
                                                                                tmp_path):
    assert set(stack.metrics) == {"persistence", "dice", "rules", "matchmaking", "worker"}
    with prometheus(stack.metrics, tmp_path) as prom:
        prom.until("count(up == 1)", lambda v: v == 5)  # every process is scraped
        remote = player(stack)
        match_id, seat = seat_in_match(remote, seats=3)  # two Celery bots at the table
        prom.until('sum(partida_live_matches{game="montanas"})', lambda v: v == 1)
        outcome = play_to_end(remote, match_id, seat)
        assert outcome is not None
        version = remote.view(match_id, seat)[0]

        # The rules service applied every action of the match, bots' and ours.
        prom.until('sum(partida_actions_applied_total{game="montanas"})',
                   lambda v: v == version)
        prom.until('sum(partida_live_matches{game="montanas"})', lambda v: v == 0)
        assert prom.value(
            'max_over_time(partida_live_matches{game="montanas"}[10m])') == 1
        # Calls by service, method and code, from the process that served them.
        ok = prom.value('sum(partida_grpc_server_requests_total{' + RULES +
                        ',method="SubmitAction",code="OK"})')
        assert ok is not None and ok >= 1
        assert prom.query(f'partida_grpc_server_requests_total{{{RULES},job!="rules"}}') == []
        # Appends travel batched (AppendLogs): at least one call, never more than the actions
        # and set-ups recorded.
        appends = prom.value('sum(partida_grpc_server_request_duration_seconds_count'
                             '{service="partida.v1.PersistenceService",method="AppendLogs"})')
        assert appends is not None and 1 <= appends <= version + 1
        # The bots played through Celery, and the rest of the domain moved too.
        for moved in ('partida_celery_tasks_total{task="partida.play_turn",outcome="success"}',
                      'partida_bot_turn_duration_seconds_count{game="montanas"}',
                      'partida_bot_queue_wait_seconds_count{game="montanas"}',
                      "partida_dice_draws_total",
                      'partida_persistence_write_duration_seconds_count'
                      '{operation="append_logs"}'):
            prom.until(f"sum({moved})", lambda v: v is not None and v > 0)
        assert prom.value(
            'sum(partida_matchmaking_time_to_match_seconds_count{game="montanas"})') == 1
        assert {r["metric"]["job"] for r in prom.query("partida_celery_tasks_total")} == \
            {"worker"}
