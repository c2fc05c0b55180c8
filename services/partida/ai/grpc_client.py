"""The rules service seen by a bot worker over gRPC, with a service token."""

from __future__ import annotations

import json
from typing import Any

import grpc

from partida.ai.turns import SeatSnapshot
from partida.engine import Action
from partida.platform.service_client import ServiceClient
from partida.v1 import common_pb2, rules_pb2, rules_pb2_grpc


class GrpcRulesClient(ServiceClient):
    def __init__(self, channel: grpc.Channel, token: str, timeout: float = 10.0) -> None:
        super().__init__(rules_pb2_grpc.RulesServiceStub(channel), token, timeout)

    def snapshot(self, match_id: str, seat: int) -> SeatSnapshot:
        r = self.call("GetView", rules_pb2.GetViewRequest(match_id=match_id, seat=seat,
                                                          include_actions=True, json_only=True))
        return SeatSnapshot(
            version=r.view.version, to_act=list(r.decision.seats),
            view=json.loads(r.view.data_json),
            actions=[Action(a.action_id, a.description) for a in r.actions])

    def bot_state(self, match_id: str, seat: int) -> tuple[int, dict[str, Any]]:
        r = self.call("GetBotState", rules_pb2.GetBotStateRequest(match_id=match_id, seat=seat))
        return r.version, json.loads(r.state_json)

    def submit(self, match_id: str, seat: int, version: int, request_id: str,
               action_id: str, keep_turn: bool = False) -> SeatSnapshot | None:
        r = self.call("SubmitAction", rules_pb2.SubmitActionRequest(
            match_id=match_id, seat=seat, expected_version=version, request_id=request_id,
            action=common_pb2.Action(action_id=action_id), json_only=True,
            keep_turn=keep_turn))
        if not r.HasField("next_view"):  # not kept, not the seat's, or a repeat's answer
            return None
        return SeatSnapshot(r.version, list(r.decision.seats), json.loads(r.next_view.data_json),
                            [Action(a.action_id, a.description) for a in r.next_actions])
