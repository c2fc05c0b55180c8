"""`partida client play` left at the prompt, then `partida client rejoin` with the command it
printed, against the one address of a running server (the multi-process stack's rules front
door too), as a user would run them."""

from __future__ import annotations

import os
import re
import shlex
import subprocess

from partida.devstack.stack import API_KEY
from tests.e2e.test_client_cli import PARTIDA, _client


def _typed(stack, *args: str, keys: str) -> subprocess.CompletedProcess:
    """`partida client ARGS` with `keys` typed at its prompts."""
    env = {**os.environ, "PARTIDA_SERVER": stack.address, "PARTIDA_API_KEY": API_KEY}
    return subprocess.run([PARTIDA, "client", *args], capture_output=True, text=True, env=env,
                          input=keys, timeout=120)


def test_a_match_left_at_the_prompt_is_rejoined_and_verifies(stack):
    left = _typed(stack, "play", "montanas", "--seats", "2", "--player", "rejoiner",
                  keys="d\nq\n")
    assert left.returncode == 3, left.stderr
    back = re.search(r"^To come back to the match: (.+)$", left.stdout, re.M)
    assert back is not None, left.stdout
    words = shlex.split(back.group(1))
    assert words[:3] == ["partida", "client", "rejoin"]
    played = _client(stack, *words[2:], "--auto", "heuristic")
    assert played.returncode == 0, played.stderr
    assert "Match over:" in played.stdout
    verified = _client(stack, "verify", words[3])
    assert verified.returncode == 0 and "verifies" in verified.stdout, verified.stderr
