"""Server processes freeze what start-up built out of the collector's scans (gc_tuning);
garbage made afterwards is still collected, and young and full collections come more
rarely. Run in child processes: freezing is for good."""

import json
import subprocess
import sys
from typing import Any


def _run(script: str, *args: str) -> Any:
    """What a child Python running `script` printed, read as JSON."""
    return json.loads(subprocess.run([sys.executable, "-c", script, *args],
                                     capture_output=True, text=True, check=True).stdout)


_CHILD = """
import gc, json, weakref
from partida.platform.gc_tuning import freeze_startup
class Node: pass
early = Node(); early.me = early
frozen = freeze_startup()
late = Node(); late.me = late      # a cycle: only the collector frees it
gone = weakref.ref(late); del late
gc.collect()
print(json.dumps({"frozen": frozen,
                  "early_scanned": any(o is early for o in gc.get_objects()),
                  "late_freed": gone() is None}))
"""


def test_startup_objects_leave_the_scans_and_later_garbage_is_still_collected():
    seen = _run(_CHILD)
    assert seen["frozen"] > 1000  # the interpreter's and partida's own start-up objects
    assert not seen["early_scanned"]
    assert seen["late_freed"]


_CHURN = """
import gc, json, sys
from collections import deque
if sys.argv[1] == "tuned":
    from partida.platform.gc_tuning import freeze_startup
    freeze_startup()
else:  # frozen alike, Python's default thresholds
    gc.collect()
    gc.freeze()
runs = [0, 0, 0]
def count(phase, info):
    if phase == "start":
        runs[info["generation"]] += 1
gc.callbacks.append(count)
held = deque(maxlen=300_000)  # objects kept a while, as open calls keep theirs
for i in range(6_000_000):
    held.append([i])
print(json.dumps(runs))
"""


def test_young_and_full_collections_are_spaced_out():
    # how many collections of each generation the churn ran
    default, tuned = _run(_CHURN, "default"), _run(_CHURN, "tuned")
    assert default[2] >= 2
    assert tuned[2] < default[2]
    assert tuned[0] * 10 < default[0]  # 700 allocations apart by default, 20,000 tuned


_CYCLES = """
import gc, json, weakref
from partida.platform.gc_tuning import YOUNG_EVERY, freeze_startup
freeze_startup()
class Node: pass
first = Node(); first.me = first   # a cycle: only the collector frees it
gone = weakref.ref(first); del first
made = 0
while gone() is not None and made < 20 * YOUNG_EVERY:
    node = Node(); node.me = node  # more cycles, never collected by hand
    made += 1
print(json.dumps({"freed": gone() is None, "made": made, "young_every": YOUNG_EVERY}))
"""


def test_cycles_made_after_startup_are_still_freed_by_the_collector_on_its_own():
    seen = _run(_CYCLES)
    assert seen["freed"]
    assert seen["made"] <= 2 * seen["young_every"]  # within a young collection or two
