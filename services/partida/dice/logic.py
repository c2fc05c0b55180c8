"""The dice service's work, free of gRPC: seeds kept in a `DiceStore`, values computed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from partida.dice import streams
from partida.platform.batch_calls import each_checked, only
from partida.platform.errors import InvalidArgument


class DiceStore(Protocol):
    """Durable stream bookkeeping; the seed never leaves it before the reveal."""

    def create_stream(self, match_id: str, seed: bytes, commitment: bytes, reserve: int = 0
                      ) -> tuple[bytes, int]: ...

    def create_streams(self, items: Sequence[tuple[str, bytes, bytes, int]]
                       ) -> list[tuple[bytes, int] | Exception]: ...

    def advance(self, match_id: str, count: int) -> int: ...

    def reveal(self, match_id: str) -> bytes: ...

    def get_stream(self, match_id: str) -> Any: ...


_Fresh = tuple[str, int, bytes, bytes]  # a stream to create: match_id, draw, seed, commitment


class Dice:
    """Commit, draw forward, reveal. Also the rules service's in-process dice port."""

    def __init__(self, store: DiceStore) -> None:
        self.store = store
        self._seeds: dict[str, bytes] = {}  # seeds never change: read each from the store once

    def create_stream(self, match_id: str, draw: int = 0
                      ) -> tuple[bytes, tuple[int, Sequence[int]]]:
        """The stream's commitment, and its next `draw` values (first position, values)."""
        return only(self.create_streams([(match_id, draw)]))

    def create_streams(self, requests: Sequence[tuple[str, int]]
                       ) -> list[tuple[bytes, tuple[int, Sequence[int]]] | Exception]:
        """Several `create_stream` (match_id, draw) in one store call, each created or
        refused alone: per request, its answer or why it was refused."""
        return each_checked(requests, _with_seed, self._create_all)

    def _create_all(self, requests: list[_Fresh]
                    ) -> list[tuple[bytes, tuple[int, Sequence[int]]] | Exception]:
        stored = self.store.create_streams([(match_id, seed, ours, draw)
                                            for match_id, draw, seed, ours in requests])
        return [answer if isinstance(answer, Exception) else self._answer(request, *answer)
                for request, answer in zip(requests, stored, strict=True)]

    def _answer(self, request: _Fresh, commitment: bytes, first: int
                ) -> tuple[bytes, tuple[int, Sequence[int]]]:
        match_id, draw, seed, ours = request
        if commitment == ours:  # our seed was stored, not an earlier call's
            self._remember(match_id, seed)
        values = streams.values(self._seed(match_id), match_id, first, draw) if draw else []
        return commitment, (first, values)

    def draw(self, match_id: str, count: int) -> tuple[int, Sequence[int]]:
        if not 1 <= count <= streams.MAX_DRAW:
            raise InvalidArgument(f"count must be 1 to {streams.MAX_DRAW}")
        first = self.store.advance(match_id, count)
        return first, streams.values(self._seed(match_id), match_id, first, count)

    def reveal(self, match_id: str) -> bytes:
        return self.store.reveal(match_id)

    def stream(self, match_id: str) -> Any:
        return self.store.get_stream(match_id)

    def _seed(self, match_id: str) -> bytes:
        seed = self._seeds.get(match_id)
        if seed is None:
            seed = self._remember(match_id, self.store.get_stream(match_id).seed)
        return seed

    def _remember(self, match_id: str, seed: bytes) -> bytes:
        if len(self._seeds) > 100_000:
            self._seeds.clear()
        self._seeds[match_id] = seed
        return seed


def _with_seed(request: tuple[str, int]) -> _Fresh:
    """A create_stream request (match_id, draw), checked, with a new seed for its stream and
    the seed's commitment."""
    match_id, draw = request
    if not 0 <= draw <= streams.MAX_DRAW:
        raise InvalidArgument(f"draw must be 0 to {streams.MAX_DRAW}")
    seed = streams.new_seed()
    return match_id, draw, seed, streams.commitment(seed)
