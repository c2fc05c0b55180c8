"""Server processes freeze what start-up built out of the collector's scans (gc_tuning);
garbage made afterwards is still collected, and full collections come more rarely. Run in
child processes: freezing is for good."""

import json
import subprocess
import sys

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
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                         check=True).stdout
    seen = json.loads(out)
    assert seen["frozen"] > 1000  # the interpreter's and partida's own start-up objects
    assert not seen["early_scanned"]
    assert seen["late_freed"]


_CHURN = """
import gc, sys
from collections import deque
if sys.argv[1] == "tuned":
    from partida.platform.gc_tuning import freeze_startup
    freeze_startup()
else:  # frozen alike, Python's default thresholds
    gc.collect()
    gc.freeze()
full = 0
def count(phase, info):
    global full
    full += phase == "start" and info["generation"] == 2
gc.callbacks.append(count)
held = deque(maxlen=300_000)  # objects kept a while, as open calls keep theirs
for i in range(6_000_000):
    held.append([i])
print(full)
"""


def _full_collections(mode: str) -> int:
    return int(subprocess.run([sys.executable, "-c", _CHURN, mode], capture_output=True,
                              text=True, check=True).stdout)


def test_full_collections_are_spaced_out():
    default, tuned = _full_collections("default"), _full_collections("tuned")
    assert default >= 2
    assert tuned < default
