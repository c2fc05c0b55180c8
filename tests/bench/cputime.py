"""CPU time of processes, for the benchmarks' CPU per action, per seat and per call."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

import psutil


def _cpu_seconds(pids: list[int]) -> float:
    """CPU seconds of the process trees rooted at `pids`: each root's own, its children's
    that have ended, and its live descendants'. PostgreSQL starts a backend per connection
    while the load runs and ends some; their time counts either way."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            root = psutil.Process(pid)
            times = root.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
            for child in root.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    times = child.cpu_times()
                    total += times.user + times.system
    return total


@contextlib.contextmanager
def cpu_meanwhile(pids: Mapping[str, list[int]]) -> Iterator[dict[str, float]]:
    """CPU seconds each named group of process trees (see _cpu_seconds) uses while the block
    runs; the dict yielded is filled when the block ends."""
    before = {name: _cpu_seconds(p) for name, p in pids.items()}
    used: dict[str, float] = {}
    yield used
    used.update({name: _cpu_seconds(p) - before[name] for name, p in pids.items()})
