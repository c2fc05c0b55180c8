"""DiceService over gRPC: thin methods over a `DiceStore` (the database's dice_streams)."""

from __future__ import annotations

from typing import Any, Protocol

from partida.dice import streams
from partida.platform.auth import require_player, require_service
from partida.platform.calls import caller
from partida.platform.errors import InvalidArgument, PermissionDenied
from partida.v1 import dice_pb2, dice_pb2_grpc

RULES_SERVICE = "rules"  # the only service allowed to draw and reveal


class DiceStore(Protocol):
    """Durable stream bookkeeping; the seed never leaves it before the reveal."""

    def create_stream(self, match_id: str, seed: bytes, commitment: bytes) -> bytes: ...

    def advance(self, match_id: str, count: int) -> int: ...

    def reveal(self, match_id: str) -> bytes: ...

    def get_stream(self, match_id: str) -> Any: ...


def _match_id(value: str) -> str:
    if not value or len(value) > 128:
        raise InvalidArgument("match_id must be 1 to 128 characters")
    return value


def _rules_only() -> None:
    principal = require_service(caller())
    if principal.subject != RULES_SERVICE:
        raise PermissionDenied("only the rules service may draw or reveal")


class DiceServicer(dice_pb2_grpc.DiceServiceServicer):
    def __init__(self, store: DiceStore) -> None:
        self.store = store
        self._seeds: dict[str, bytes] = {}  # seeds never change: read each from the store once

    def _seed(self, match_id: str) -> bytes:
        seed = self._seeds.get(match_id)
        if seed is None:
            if len(self._seeds) > 100_000:
                self._seeds.clear()
            seed = self._seeds[match_id] = self.store.get_stream(match_id).seed
        return seed

    def CreateStream(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        _rules_only()
        seed = streams.new_seed()
        stored = self.store.create_stream(_match_id(request.match_id), seed,
                                          streams.commitment(seed))
        return dice_pb2.CreateStreamResponse(commitment=stored)

    def Draw(self, request: Any, context: Any) -> Any:  # noqa: N802
        _rules_only()
        match_id = _match_id(request.match_id)
        if not 1 <= request.count <= streams.MAX_DRAW:
            raise InvalidArgument(f"count must be 1 to {streams.MAX_DRAW}")
        first = self.store.advance(match_id, request.count)
        seed = self._seed(match_id)
        return dice_pb2.DrawResponse(first_position=first,
                                     values=streams.values(seed, match_id, first, request.count))

    def Reveal(self, request: Any, context: Any) -> Any:  # noqa: N802
        _rules_only()
        return dice_pb2.RevealResponse(seed=self.store.reveal(_match_id(request.match_id)))

    def GetStream(self, request: Any, context: Any) -> Any:  # noqa: N802
        require_player(caller())
        s = self.store.get_stream(_match_id(request.match_id))
        return dice_pb2.GetStreamResponse(commitment=s.commitment, next_position=s.next_position,
                                          seed=s.seed if s.revealed else b"")
