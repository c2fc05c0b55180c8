"""DiceService over gRPC: who may call, what is valid, and protos around `Dice`; and `Dice`
counting what it draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from partida.dice.logic import Dice
from partida.platform import metrics
from partida.platform.auth import require_player, require_service
from partida.platform.batch_calls import answer_each
from partida.platform.calls import caller
from partida.platform.errors import InvalidArgument, PermissionDenied
from partida.platform.validation import identifier
from partida.v1 import dice_pb2, dice_pb2_grpc

RULES_SERVICE = "rules"  # the only service allowed to draw and reveal
MAX_STREAMS = 1000  # streams in one CreateStreams call (dice.proto)


def _match_id(value: str) -> str:
    return identifier("match_id", value)


def _rules_only() -> None:
    principal = require_service(caller())
    if principal.subject != RULES_SERVICE:
        raise PermissionDenied("only the rules service may create, draw or reveal")


class CountedDice(Dice):
    """Dice counting the values drawn: the dice service's, and the embedded server's that
    the rules logic calls in-process (a rules process drawing remotely counts nothing)."""

    # create_stream goes through create_streams: counting here counts both, once.
    def create_streams(self, requests: Sequence[tuple[str, int]]
                       ) -> list[tuple[bytes, tuple[int, Sequence[int]]] | Exception]:
        outcome = super().create_streams(requests)
        metrics.DICE_DRAWS.inc(sum(len(o[1][1]) for o in outcome
                                   if not isinstance(o, Exception)))
        return outcome

    def draw(self, match_id: str, count: int) -> tuple[int, Sequence[int]]:
        first, values = super().draw(match_id, count)
        metrics.DICE_DRAWS.inc(len(values))
        return first, values


class DiceServicer(dice_pb2_grpc.DiceServiceServicer):
    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def CreateStream(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        _rules_only()
        commitment, (first, values) = self.dice.create_stream(_match_id(request.match_id),
                                                              request.draw)
        return dice_pb2.CreateStreamResponse(commitment=commitment, first_position=first,
                                             values=values)

    def CreateStreams(self, request: Any, context: Any) -> Any:  # noqa: N802
        _rules_only()
        if not 1 <= len(request.streams) <= MAX_STREAMS:
            raise InvalidArgument(f"streams must hold 1 to {MAX_STREAMS} streams")
        return dice_pb2.CreateStreamsResponse(results=answer_each(
            request.streams, lambda stream: (_match_id(stream.match_id), stream.draw),
            self.dice.create_streams, dice_pb2.CreateStreamResult,
            lambda made: {"stream": dice_pb2.CreateStreamResponse(
                commitment=made[0], first_position=made[1][0], values=made[1][1])}))

    def Draw(self, request: Any, context: Any) -> Any:  # noqa: N802
        _rules_only()
        first, values = self.dice.draw(_match_id(request.match_id), request.count)
        return dice_pb2.DrawResponse(first_position=first, values=values)

    def Reveal(self, request: Any, context: Any) -> Any:  # noqa: N802
        _rules_only()
        return dice_pb2.RevealResponse(seed=self.dice.reveal(_match_id(request.match_id)))

    def GetStream(self, request: Any, context: Any) -> Any:  # noqa: N802
        principal = require_player(caller())
        s = self.dice.stream(_match_id(request.match_id))
        # How far a match in play has drawn is the services' alone: any player may ask, and
        # the count moving would tell a spectator, live, what a delayed feed holds back (a
        # fight, a search). Verification needs it only once the seed is out.
        shown = s.revealed or principal.is_service
        return dice_pb2.GetStreamResponse(commitment=s.commitment,
                                          next_position=s.next_position if shown else 0,
                                          seed=s.seed if s.revealed else b"")
