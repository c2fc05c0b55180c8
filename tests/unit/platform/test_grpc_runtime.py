"""Every partida process loads gRPC with its socket work done by the waiting thread
(partida/__init__.py): the setting must be in the environment before gRPC is first imported,
since gRPC reads it then, and an operator's own value is left alone. Run in child processes,
as gRPC is imported once per process."""

import json
import os
import subprocess
import sys

# Records GRPC_EXPERIMENTS as it stands when the first module of the grpc package loads.
_CHILD = """
import importlib.abc, json, os, sys
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


def _seen(env_value: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    if env_value is not None:
        env["GRPC_EXPERIMENTS"] = env_value
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                          check=True, env=env)
    return json.loads(done.stdout)


def test_grpc_is_loaded_with_the_event_engine_hand_offs_off():
    assert _seen(None) == {
        "at_grpc_import": "-event_engine_client,-event_engine_listener"}


def test_an_operators_setting_is_kept():
    assert _seen("-event_engine_client") == {"at_grpc_import": "-event_engine_client"}
