"""Configuration: the built-in secrets are public, so a server reachable from other machines
must not start with them (the built-in API key, which the development stacks serve, is only
warned of)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from partida.cli.serve import serve
from partida.platform.config import Settings

SET = {"token_secret": "s1-" + "x" * 30, "service_token_secret": "s2-" + "y" * 30,
       "api_keys": "k-123=acme"}
ALL = ["PARTIDA_TOKEN_SECRET", "PARTIDA_SERVICE_TOKEN_SECRET", "PARTIDA_API_KEYS"]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.1.2.3", "partida.example.org"])
def test_a_host_beyond_this_machine_names_every_secret_left_at_its_default(host):
    assert Settings(host=host).public_defaults_exposed() == ALL
    assert Settings(host=host, **SET).public_defaults_exposed() == []
    assert Settings(host=host, **(SET | {"api_keys": "dev-key=dev"})).public_defaults_exposed() \
        == ["PARTIDA_API_KEYS"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_a_loopback_host_may_keep_the_defaults(host):
    assert Settings(host=host).public_defaults_exposed() == []


@pytest.mark.parametrize("host, exposed", [
    ("0.0.0.0", ["PARTIDA_SERVICE_TOKEN_SECRET"]), ("10.1.2.3", ["PARTIDA_SERVICE_TOKEN_SECRET"]),
    ("127.0.0.1", []), ("localhost", [])])
def test_a_host_beyond_this_machine_names_each_token_secret_too_short(host, exposed):
    """A player holds a token signed with the player secret: a short secret can be guessed
    from it offline, and then any token signed. 31 bytes are too few, 32 (in UTF-8) enough."""
    cfg = Settings(host=host, token_secret="é" * 16, service_token_secret="z" * 31)
    assert cfg.short_secrets_exposed() == exposed


def test_serve_refuses_a_short_token_secret_before_anything_listens(tmp_path: Path):
    cfg = Settings(host="0.0.0.0", port=0, metrics_port=0, token_secret="short",
                   service_token_secret=SET["service_token_secret"],
                   database_url=f"sqlite:///{tmp_path / 'partida.db'}")
    with pytest.raises(SystemExit, match="PARTIDA_TOKEN_SECRET is shorter than 32 bytes"):
        serve("all", cfg, announce=False)
    assert list(tmp_path.iterdir()) == []  # nothing was made


def test_serve_refuses_a_built_in_token_secret_before_anything_listens(tmp_path: Path):
    with socket.socket() as probe:  # a port nobody holds, to see that it stays free
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARTIDA_")} | {
        "PARTIDA_HOST": "0.0.0.0", "PARTIDA_PORT": str(port), "PARTIDA_METRICS_PORT": "0",
        "PARTIDA_TOKEN_SECRET": SET["token_secret"]}
    partida = Path(sys.executable).with_name("partida")
    # A server that started would serve until the timeout, which then fails the test.
    done = subprocess.run([str(partida), "serve"], cwd=tmp_path, env=env, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert ("refusing to serve on 0.0.0.0: the built-in value of "
            "PARTIDA_SERVICE_TOKEN_SECRET is public") in done.stderr
    with socket.socket() as again:
        again.bind(("0.0.0.0", port))  # would fail had the server bound it
    assert list(tmp_path.iterdir()) == []  # nor was a database made


def test_serve_starts_with_the_built_in_api_key_and_warns_of_it(tmp_path: Path):
    """The development stacks (compose, the k8s base) listen on every address with the
    documented dev key: they start, told that anyone reaching them may create players."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARTIDA_")} | {
        "PARTIDA_HOST": "0.0.0.0", "PARTIDA_PORT": "0", "PARTIDA_METRICS_PORT": "0",
        "PARTIDA_TOKEN_SECRET": SET["token_secret"],
        "PARTIDA_SERVICE_TOKEN_SECRET": SET["service_token_secret"]}
    partida = Path(sys.executable).with_name("partida")
    server = subprocess.Popen([str(partida), "serve"], cwd=tmp_path, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert server.stdout is not None
        assert "serving on 0.0.0.0:" in server.stdout.readline()  # it started
    finally:
        server.terminate()
        _, err = server.communicate(timeout=60)
    assert "PARTIDA_API_KEYS has its built-in value on 0.0.0.0" in err
