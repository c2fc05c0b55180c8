"""Commands started as a shell starts them for Ctrl-C: SIGINT handled by default and not
blocked, whatever the test process inherited or did to it (a child keeps an ignored or blocked
SIGINT across exec, and then a Ctrl-C test sees the command go on as if never pressed)."""

from __future__ import annotations

import sys

_RESET = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
          "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
          "os.execv(sys.argv[1], sys.argv[1:])")


def interruptible(command: list[str]) -> list[str]:
    """`command` (its program a path) run with SIGINT as a shell gives it."""
    return [sys.executable, "-c", _RESET, *command]
