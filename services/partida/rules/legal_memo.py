"""The legal action ids this process last listed, per (match, version, seat).

A submit is checked against the legal actions of the state it acts on; listing them is the
costliest step of many actions (for Las Montañas, every card against every monster). The
same list was usually built moments before: for the previous result, a GetView or a bot's
queued turn. A match's state at a version is fixed once its log record is written (the log
takes one record per version), so ids remembered after that write stay true; an action not
among them (or a forgotten entry) is checked in full, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from partida.engine import Action


class LegalMemo:
    """Bounded, first in first out: only a match's latest version is asked for again."""

    def __init__(self, size: int = 4096) -> None:
        self._ids: dict[tuple[str, int, int], frozenset[str]] = {}
        self._size = size
        self._lock = threading.Lock()

    def remember(self, match_id: str, version: int, seat: int,
                 actions: Iterable[Action]) -> None:
        ids = frozenset(a.id for a in actions)
        with self._lock:
            self._ids[(match_id, version, seat)] = ids
            while len(self._ids) > self._size:
                del self._ids[next(iter(self._ids))]

    def listed(self, match_id: str, version: int, seat: int) -> frozenset[str]:
        """The ids remembered for that state and seat; empty if none are."""
        return self._ids.get((match_id, version, seat), frozenset())
