"""Shared pytest configuration: hypothesis profiles.

`partida` is importable because the project is installed in the venv (`pip install -e .`).

Profiles (select one with HYPOTHESIS_PROFILE=<name>; otherwise "ci" when $CI is set, else
"dev"):

- "ci": reproducible (derandomized: the same seeds on every run, no example database) and
  sized so the whole conformance suite stays around two minutes on two cores.
- "dev": fewer examples for quick local runs, but random, so every run explores new seeds;
  failures are saved in .hypothesis/ and replayed first next time.
- "thorough": many random examples, for hunting bugs before a release or after a rule change.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    # A whole playout per example: slow by hypothesis' standards, and that is expected.
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}

settings.register_profile("ci", max_examples=12, derandomize=True, database=None, **_COMMON)
settings.register_profile("dev", max_examples=5, **_COMMON)
settings.register_profile("thorough", max_examples=200, **_COMMON)

_default = "ci" if os.environ.get("CI") else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or _default)
