"""Servers and bot workers load gRPC with its socket work done by the waiting thread
(partida/__init__.py), interactive clients with gRPC's defaults: the setting must be in the
environment before gRPC is first imported, since gRPC reads it then, and an operator's own
value is left alone. Run in child processes, as gRPC is imported once per process."""

import json
import os
import subprocess
import sys

# Records GRPC_EXPERIMENTS as it stands when the first module of the grpc package loads, in
# a process whose command line is the JSON list given.
_CHILD = """
import importlib.abc, json, os, sys
sys.argv = json.loads(sys.argv[1])
seen = {}
class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "grpc" and "at_grpc_import" not in seen:
            seen["at_grpc_import"] = os.environ.get("GRPC_EXPERIMENTS")
        return None
sys.meta_path.insert(0, Watch())
import partida.platform.server  # a module every service imports, which imports grpc
print(json.dumps(seen))
"""
OFF = "-event_engine_client,-event_engine_listener"


def _seen(argv: list[str], env_value: str | None = None) -> str | None:
    env = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    if env_value is not None:
        env["GRPC_EXPERIMENTS"] = env_value
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(argv)],
                          capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)["at_grpc_import"]


def test_servers_and_bot_workers_load_grpc_with_the_event_engine_hand_offs_off():
    assert _seen(["/venv/bin/partida", "serve", "rules", "--port", "1"]) == OFF
    assert _seen(["/venv/bin/partida", "serve"]) == OFF
    assert _seen(["/venv/bin/celery", "-A", "partida.ai", "worker", "--pool", "threads"]) == OFF


def test_clients_and_other_commands_keep_grpc_defaults():
    assert _seen(["/venv/bin/partida", "client", "play", "montanas"]) is None
    assert _seen(["/venv/bin/partida", "play", "montanas"]) is None
    assert _seen(["/venv/bin/celery", "-A", "partida.ai", "inspect", "ping"]) is None
    assert _seen(["-c"]) is None


def test_an_operators_setting_is_kept():
    assert _seen(["/venv/bin/partida", "serve"], "-event_engine_client") == "-event_engine_client"
    assert _seen(["/venv/bin/partida", "serve"], "") == ""
