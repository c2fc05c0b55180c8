"""Offline checks of the deployment files: real tools (kubectl kustomize, kubernetes-validate,
docker compose, check-jsonschema, hadolint, promtool) plus structural assertions.

deploy/local/install-deploy-tools.sh (run by `make test`) installs every tool; a test skips
only when its tool is absent, and says which and how to get it.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML missing: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
INSTALL = "deploy/local/install-deploy-tools.sh installs it"

# The parts of partida, each a process of the one image.
SERVICES = ("rules", "dice", "persistence", "matchmaking")
PARTS = (*SERVICES, "worker")
GRPC_PORT = 50051
METRICS_PORT = 9464


def tool(name: str) -> str:
    """The tool's path, from the venv (dev extra) or PATH; skips the test when absent."""
    for candidate in (VENV_BIN / name, shutil.which(name)):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.skip(f"{name} is not installed ({INSTALL})")


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120)


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text())


@functools.cache
def _render(overlay: str) -> str:
    done = run(tool("kubectl"), "kustomize", f"k8s/{overlay}")
    assert done.returncode == 0, done.stderr
    return done.stdout


def render(overlay: str) -> list[dict[str, Any]]:
    """`kubectl kustomize k8s/<overlay>` as a list of objects (a fresh copy each call)."""
    return [d for d in yaml.safe_load_all(_render(overlay)) if d]


def of_kind(objects: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}
