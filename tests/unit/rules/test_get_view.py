"""GetView through a real gRPC server over the in-process rules: `json_only` leaves out the
game's typed messages and nothing else."""

from __future__ import annotations

import json

import grpc
import pytest

from partida.platform.auth import Authority
from partida.platform.server import Registration, Server
from partida.rules.service import RulesServicer
from partida.v1 import rules_pb2, rules_pb2_grpc
from tests.unit.rules.conftest import new_match


@pytest.fixture
def rules(matches):
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.RulesService", RulesServicer(matches),
                       rules_pb2_grpc.add_RulesServiceServicer_to_server)
    server = Server([reg], auth, "127.0.0.1:0")
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        token = auth.player_token("alice", 60)[0]
        yield rules_pb2_grpc.RulesServiceStub(channel), (("authorization", f"Bearer {token}"),)
    server.stop(0)


def test_json_only_leaves_out_the_typed_view_and_actions_and_nothing_else(rules, matches):
    stub, alice = rules
    match_id = new_match(matches).match_id

    def get(json_only: bool) -> rules_pb2.GetViewResponse:
        return stub.GetView(rules_pb2.GetViewRequest(match_id=match_id, seat=0,
                                                     include_actions=True, json_only=json_only),
                            metadata=alice)

    full, lean = get(False), get(True)
    assert full.view.HasField("montanas") and not lean.view.HasField("montanas")
    assert all(a.HasField("montanas") for a in full.actions)
    assert not any(a.WhichOneof("game") for a in lean.actions)
    assert json.loads(lean.view.data_json) == json.loads(full.view.data_json)
    assert lean.view.version == full.view.version
    assert [(a.action_id, a.description) for a in lean.actions] == \
        [(a.action_id, a.description) for a in full.actions] != []
    assert lean.default_action_id == full.default_action_id
    assert lean.decision == full.decision
