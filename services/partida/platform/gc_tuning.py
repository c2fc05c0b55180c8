"""The garbage collector in long-running server processes.

Everything built at start-up (modules, protobuf descriptors, game content, the gRPC server)
lives as long as the process, yet every full collection walks it again, with every thread
stopped. Measured in a rules process under 200 matches at 200 actions/s: ~124,000 such
objects; a full collection paused it 62 ms and a middle one 24 ms, against 9.3 and 2.5 ms
with them frozen out of the collector's scans (gc.freeze). Objects made later are collected
as before.
"""

from __future__ import annotations

import gc


def freeze_startup() -> int:
    """Collect once, then move every object that survives into the permanent generation,
    which the collector no longer scans. Call when start-up is done; returns how many."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
