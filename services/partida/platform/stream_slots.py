"""Bounds on the response streams a synchronous gRPC server holds open.

Each open stream (StreamMatch, WatchTicket, SeekMatch, health Watch) holds one of the
server's threads until it ends, and a call finding every thread taken waits in line. So the
server has threads for its other calls beside those its streams may take (platform/server),
and one player may hold only a few streams. A stream beyond either bound is refused at once
instead of waiting: UNAVAILABLE when the process is full (transient: retry with backoff,
perhaps on another replica), RESOURCE_EXHAUSTED when the player holds their share (a quota:
close a stream first).
"""

from __future__ import annotations

import threading

from partida.platform.errors import ResourceExhausted, Unavailable

DEFAULT_PER_PLAYER = 16


class StreamSlots:
    """`total` streams at once in this process, `per_player` of them for one player (services
    count toward the total only)."""

    def __init__(self, total: int, per_player: int = DEFAULT_PER_PLAYER) -> None:
        self.total, self.per_player = total, per_player
        self._open = 0
        self._by_player: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, player: str | None) -> None:
        """Takes a slot for a stream of `player` (None: a service), or raises the refusal
        to answer with."""
        with self._lock:
            if self._open >= self.total:
                raise Unavailable("this server follows as many streams as it can; retry "
                                  "with backoff (another replica may have room)")
            held = self._by_player.get(player, 0) if player is not None else 0
            if player is not None and held >= self.per_player:
                raise ResourceExhausted(f"a player may follow at most {self.per_player} "
                                        f"streams at once; close one first")
            self._open += 1
            if player is not None:
                self._by_player[player] = held + 1
            return None

    def give(self, player: str | None) -> None:
        """Frees the slot a stream of `player` took."""
        with self._lock:
            self._open -= 1
            if player is not None:
                left = self._by_player[player] - 1
                if left:
                    self._by_player[player] = left
                else:
                    del self._by_player[player]

    @property
    def open(self) -> int:
        with self._lock:
            return self._open
