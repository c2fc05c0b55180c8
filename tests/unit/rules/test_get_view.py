"""GetView through a real gRPC server over the in-process rules: `json_only` leaves out the
game's typed messages and nothing else."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from partida.v1 import common_pb2, rules_pb2
from tests.unit.rules.conftest import new_match, served


@pytest.fixture
def rules(matches):
    with served(matches, "alice") as stub_and_token:
        yield stub_and_token


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


def _decisions(stub, match_id: str, metadata, steps: int = 60
               ) -> Iterator[tuple[int, rules_pb2.ListLegalActionsResponse]]:
    """The seat to act and its legal actions, while the match goes on (the caller acts)."""
    for _ in range(steps):
        legal = stub.ListLegalActions(rules_pb2.ListLegalActionsRequest(
            match_id=match_id, seat=0), metadata=metadata)
        if not legal.decision.seats:
            return
        seat = legal.decision.seats[0]
        if seat != 0:
            legal = stub.ListLegalActions(rules_pb2.ListLegalActionsRequest(
                match_id=match_id, seat=seat), metadata=metadata)
        yield seat, legal


def test_a_json_only_submit_leaves_out_the_typed_events_and_next_actions_only(rules, matches):
    """SubmitAction's json_only (the bot workers set it): the events as data_json, the next
    actions by id; the same events as a typed answer to the same request, the same next
    actions as ListLegalActions lists at the new version."""
    stub, alice = rules
    match_id = new_match(matches, players=("alice", "alice")).match_id
    checked = 0
    for seat, legal in _decisions(stub, match_id, alice):
        request = rules_pb2.SubmitActionRequest(
            match_id=match_id, seat=seat, expected_version=legal.version,
            request_id=f"json-only-{legal.version}", json_only=True,
            action=common_pb2.Action(action_id=legal.default_action_id))
        lean = stub.SubmitAction(request, metadata=alice)
        request.json_only = False
        typed = stub.SubmitAction(request, metadata=alice)  # a repeat: the first result
        assert lean.events and not any(e.WhichOneof("game") for e in lean.events)
        assert all(e.HasField("montanas") for e in typed.events)
        assert [(e.sequence, e.version, e.kind, json.loads(e.data_json)) for e in lean.events] \
            == [(e.sequence, e.version, e.kind, json.loads(e.data_json)) for e in typed.events]
        if lean.next_actions:
            after = stub.ListLegalActions(rules_pb2.ListLegalActionsRequest(
                match_id=match_id, seat=seat), metadata=alice)
            assert not any(a.WhichOneof("game") for a in lean.next_actions)
            assert [(a.action_id, a.description) for a in lean.next_actions] == \
                [(a.action_id, a.description) for a in after.actions]
            assert lean.next_default_action_id == after.default_action_id
            checked += 1
    assert checked  # some action left its seat to decide again at once


def test_keep_turn_answers_with_the_seats_next_view_when_it_decides_again(rules, matches):
    """SubmitAction's keep_turn (bot workers playing a seat's run of decisions): next_view
    is the seat's view at the new version, as GetView gives it; absent when not asked."""
    stub, alice = rules
    match_id = new_match(matches, players=("alice", "alice")).match_id
    kept = 0
    for step, (seat, legal) in enumerate(_decisions(stub, match_id, alice)):
        keep = step % 2 == 0
        r = stub.SubmitAction(rules_pb2.SubmitActionRequest(
            match_id=match_id, seat=seat, expected_version=legal.version,
            request_id=f"keep-{legal.version}", keep_turn=keep,
            action=common_pb2.Action(action_id=legal.default_action_id)), metadata=alice)
        again = seat in r.decision.seats
        assert r.HasField("next_view") == (keep and again)
        if r.HasField("next_view"):
            view = stub.GetView(rules_pb2.GetViewRequest(match_id=match_id, seat=seat),
                                metadata=alice).view
            assert r.next_view == view and r.next_view.version == r.version
            kept += 1
    assert kept
