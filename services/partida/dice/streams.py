"""Seeds, commitments and stream values (pure). See ARCHITECTURE.md, "Randomness"."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from partida.engine.rng import StreamValues, stream_values

SEED_BYTES = 32
MAX_DRAW = 1024


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> bytes:
    """What is published at creation: SHA-256 of the seed."""
    return hashlib.sha256(seed).digest()


values = stream_values  # values first .. first + count - 1 of a match's stream


def verify(commitment_: bytes, seed: bytes, match_id: str,
           drawn: Iterable[tuple[int, int]]) -> list[str]:
    """Problems found checking recorded (position, value) pairs against a revealed seed:
    the seed must match the commitment, every value must be the stream's, and positions must
    only go forward (each used once). An empty list means everything checks out."""
    problems: list[str] = []
    if not hmac.compare_digest(commitment(seed), commitment_):
        problems.append("the revealed seed does not match the published commitment")
    last = -1
    at = StreamValues(seed, match_id).at
    for position, value in drawn:
        if position <= last:
            problems.append(f"position {position} is used out of order or twice")
        last = max(last, position)
        expected = at(position)
        if expected != value:
            problems.append(f"value at position {position} is {value}, the seed gives {expected}")
    return problems
