"""Server processes freeze what start-up built out of the collector's scans (gc_tuning);
garbage made afterwards is still collected. Run in a child process: freezing is for good."""

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
