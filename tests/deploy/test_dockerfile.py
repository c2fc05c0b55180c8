"""deploy/Dockerfile: passes hadolint, and builds one slim, non-root image whose entrypoint is
`partida`, with the protobuf code generated inside."""

from __future__ import annotations

import re
from pathlib import Path

from tests.deploy.conftest import ROOT, run, tool

DOCKERFILE = ROOT / "deploy/Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    lines = [ln.strip() for ln in text.splitlines()]
    return [(ln.split(None, 1)[0].upper(), ln.split(None, 1)[1])
            for ln in lines if ln and not ln.startswith("#")]


def test_hadolint_passes() -> None:
    done = run(tool("hadolint"), "--failure-threshold", "info", str(DOCKERFILE))
    assert done.returncode == 0, done.stdout + done.stderr


def test_hadolint_would_catch_an_unpinned_base_image(tmp_path: Path) -> None:
    broken = tmp_path / "Dockerfile"
    broken.write_text("FROM python:latest\nRUN pip install grpcio\n")
    assert run(tool("hadolint"), str(broken)).returncode != 0


def test_multi_stage_from_a_pinned_slim_base() -> None:
    ins = instructions()
    args = dict(a.split("=", 1) for i, a in ins if i == "ARG" and "=" in a)
    stages = [a for i, a in ins if i == "FROM"]
    assert len(stages) == 2
    for stage in stages:
        image = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], stage.split()[0])
        name, _, tag = image.partition(":")
        assert name == "python" and re.match(r"\d+\.\d+\.\d+-slim", tag), image
    assert stages[0].endswith("AS build") and stages[1].endswith("AS runtime")
    copies = [a for i, a in ins if i == "COPY"]
    assert copies[-1].startswith("--from=build /opt/venv"), "runtime takes only the venv"


def test_protos_are_generated_at_build() -> None:
    runs = " ".join(a for i, a in instructions() if i == "RUN")
    assert "grpc_tools.protoc" in runs and "--grpc_python_out" in runs
    assert "import partida.v1.rules_pb2_grpc" in runs  # the build fails without them


def test_runs_partida_as_a_numeric_non_root_user() -> None:
    ins = instructions()
    users = [a for i, a in ins if i == "USER"]
    assert users, "no USER"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) > 0  # numeric, so runAsNonRoot can verify it
    assert [a for i, a in ins if i == "ENTRYPOINT"] == ['["partida"]']
    env = " ".join(a for i, a in ins if i == "ENV")
    assert "PARTIDA_HOST=0.0.0.0" in env  # reachable from outside the container


def test_dockerignore_lets_in_what_the_dockerfile_copies() -> None:
    rules = [ln.strip() for ln in DOCKERIGNORE.read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert rules[0] == "*"  # an allow-list
    allowed = {r[1:].rstrip("/") for r in rules if r.startswith("!")}
    for i, args in instructions():
        if i == "COPY" and not args.startswith("--from"):
            for src in args.split()[:-1]:
                assert src.rstrip("/") in allowed, src
                assert (ROOT / src).exists(), src
