"""Finding an anchor's partners without walking the queue.

A pool's untaken tickets are split by kind (scenario, accepts bots); each kind keeps its
tickets in rating order under a min-segment tree of queue positions (position = age rank),
so "the oldest untaken ticket rated within [low, high]" costs O(log n). Walking the queue
instead is quadratic when ratings are spread out (10,000 far-apart tickets took seconds).
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

from partida.matchmaking.tickets import Ticket

_NONE = sys.maxsize  # "no ticket": larger than every position


class _Oldest:
    """Positions in rating order; a bottom-up min tree over them (leaves at n..2n-1)."""

    def __init__(self, entries: Sequence[tuple[float, int]]) -> None:
        self._ratings = [r for r, _ in entries]
        self._n = n = len(entries)
        self._tree = [_NONE] * n + [pos for _, pos in entries]
        self._leaf = {pos: n + k for k, (_, pos) in enumerate(entries)}
        for k in range(n - 1, 0, -1):
            self._tree[k] = min(self._tree[2 * k], self._tree[2 * k + 1])

    # Comparisons are spelled out below rather than calling min(): this is the inner loop of
    # a tick, and the call costs more than the comparison.

    def set(self, pos: int, present: bool) -> None:
        tree, k = self._tree, self._leaf[pos]
        tree[k] = pos if present else _NONE
        while k > 1:
            k >>= 1
            a, b = tree[2 * k], tree[2 * k + 1]
            tree[k] = a if a < b else b

    def oldest(self, low: float, high: float) -> int:
        tree, best = self._tree, _NONE
        lo = bisect_left(self._ratings, low) + self._n
        hi = bisect_right(self._ratings, high) + self._n
        while lo < hi:
            if lo & 1:
                if tree[lo] < best:
                    best = tree[lo]
                lo += 1
            if hi & 1:
                hi -= 1
                if tree[hi] < best:
                    best = tree[hi]
            lo >>= 1
            hi >>= 1
        return best


class PoolIndex:
    """The untaken tickets of one pool (a queue in age order)."""

    def __init__(self, queue: Sequence[Ticket]) -> None:
        kinds: dict[tuple[str, bool], list[tuple[float, int]]] = {}
        for pos, t in enumerate(queue):
            kinds.setdefault((t.scenario_id, t.fill_with_bots), []).append((t.rating, pos))
        self._kinds = {k: _Oldest(sorted(v)) for k, v in kinds.items()}
        self._kind_of = [(t.scenario_id, t.fill_with_bots) for t in queue]
        self._taken = [False] * len(queue)
        self._allowed: dict[tuple[str, bool], list[_Oldest]] = {}

    def taken(self, pos: int) -> bool:
        return self._taken[pos]

    def take(self, pos: int) -> None:
        self._set(pos, taken=True)

    def put_back(self, positions: Iterable[int]) -> None:
        for pos in positions:
            self._set(pos, taken=False)

    def _set(self, pos: int, taken: bool) -> None:
        self._taken[pos] = taken
        self._kinds[self._kind_of[pos]].set(pos, not taken)

    def oldest(self, low: float, high: float, scenario: str, bots_only: bool) -> int | None:
        """The oldest untaken ticket rated within [low, high] that can play `scenario`
        ("" for any), and, if bots_only, accepts bots."""
        key = (scenario, bots_only)
        if key not in self._allowed:  # few distinct keys per pool: work the filter out once
            self._allowed[key] = [tree for (s, bots), tree in self._kinds.items()
                                  if (not scenario or s in ("", scenario))
                                  and (bots or not bots_only)]
        best = min((tree.oldest(low, high) for tree in self._allowed[key]), default=_NONE)
        return None if best == _NONE else best
