"""Randomness as engines see it: an `Rng` over a stream of 64-bit values.

`StreamRng` is the authoritative stream of the house plan: value *i* of a match is
HMAC-SHA256(seed, "<match id>:<i>") cut to 64 bits, so anyone holding the revealed seed
can recompute every roll. `LocalRng` serves bots' private simulations.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from abc import ABC, abstractmethod
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_U64 = 1 << 64


@dataclass(frozen=True)
class Draw:
    """One value handed out: what was asked (`kind`, `n` outcomes) and the result."""

    kind: str
    n: int
    result: int


def stream_value(seed: bytes, match_id: str, index: int) -> int:
    """Value `index` of a match's stream: the keyed hash the dice service publishes,
    HMAC-SHA256(seed, "<match id>:<index>") cut to its first 8 bytes, big-endian."""
    return StreamValues(seed, match_id).at(index)


class StreamValues:
    """The values of one match's stream. The key and the message's "<match id>:" prefix are
    hashed once and that state copied per value, which halves a value's cost when values
    come in runs (a set-up draws about a hundred, a replay every value of the match)."""

    def __init__(self, seed: bytes, match_id: str) -> None:
        self._prefix = hmac.new(seed, f"{match_id}:".encode(), hashlib.sha256)

    def at(self, index: int) -> int:
        mac = self._prefix.copy()
        mac.update(str(index).encode())
        return int.from_bytes(mac.digest()[:8], "big")


def stream_values(seed: bytes, match_id: str, first: int, count: int) -> list[int]:
    """Values `first` .. `first + count - 1` of a match's stream."""
    at = StreamValues(seed, match_id).at
    return [at(i) for i in range(first, first + count)]


class Rng(ABC):
    """Dice, choices and shuffles drawn from 64-bit values; records what it hands out."""

    def __init__(self) -> None:
        self.draws: list[Draw] = []

    @abstractmethod
    def next_u64(self) -> int:
        """The next raw 64-bit value of the stream."""

    def below(self, n: int, kind: str = "below") -> int:
        """A uniform integer in [0, n), unbiased (values past the last whole block are skipped)."""
        if not 0 < n <= _U64:
            raise ValueError("n must be from 1 to 2**64")  # one raw value must cover the range
        limit = _U64 - _U64 % n
        while True:
            v = self.next_u64()
            if v < limit:
                result = v % n
                self.draws.append(Draw(kind, n, result))
                return result

    def dn(self, n: int) -> int:
        """A roll of an n-sided die, 1..n."""
        return self.below(n, f"d{n}") + 1

    def d6(self) -> int:
        return self.dn(6)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq), "choice")]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1, "shuffle")
            items[i], items[j] = items[j], items[i]

    def scatter(self, directions: int = 8) -> int:
        """A scatter direction, 0..directions-1, clockwise from the thrower's front."""
        return self.below(directions, "scatter")


class StreamRng(Rng):
    """The match stream from `position` on; `position` advances with every value taken."""

    def __init__(self, seed: bytes, match_id: str, position: int = 0) -> None:
        super().__init__()
        self.seed = seed
        self.match_id = match_id
        self.position = position
        self._values = StreamValues(seed, match_id)

    def next_u64(self) -> int:
        v = self._values.at(self.position)
        self.position += 1
        return v


class LocalRng(Rng):
    """A private, seeded generator for simulations and tests; not authoritative."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self._random = random.Random(seed)

    def next_u64(self) -> int:
        return self._random.getrandbits(64)
