"""The `partida client` commands against a running server, as a user would run them: with the
one address of the server, which in the multi-process stack is the rules service's front door
(platform/forward.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from partida.devstack.stack import API_KEY

PARTIDA = str(Path(sys.executable).parent / "partida")


def _client(stack, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PARTIDA_SERVER": stack.address, "PARTIDA_API_KEY": API_KEY}
    return subprocess.run([PARTIDA, "client", *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def test_play_then_verify_replay_and_watch_a_finished_match(stack):
    played = _client(stack, "play", "montanas", "--seats", "2", "--auto", "heuristic",
                     "--player", "cli-user")
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
    match_id = re.search(r"match ([0-9a-f]{32})", played.stdout).group(1)

    verified = _client(stack, "verify", match_id)
    assert verified.returncode == 0, verified.stderr
    assert "verifies" in verified.stdout

    replayed = _client(stack, "replay", match_id)
    assert replayed.returncode == 0 and "Outcome:" in replayed.stdout

    watched = _client(stack, "watch", match_id)
    assert watched.returncode == 0 and "The match is over." in watched.stdout

    unknown = _client(stack, "verify", "0" * 32)
    assert unknown.returncode != 0
