"""Requests the persistence service used to accept, or to refuse with no clear status (and
then failing every other entry of the same batch call), found by an audit; and a page
token the service issued and then refused. Over real gRPC, on SQLite."""

from __future__ import annotations

from dataclasses import replace

import grpc
import pytest

from partida.persistence import convert
from partida.v1 import common_pb2
from partida.v1 import persistence_pb2 as pb
from tests.unit.persistence.service_behaviours import (
    PLAYER,
    SERVICE,
    ServedPersistence,
    append_request,
    codes,
    record_pb,
    record_request,
    start_request,
    status,
)
from tests.unit.persistence.support import a_match, action, setup_record

Code = grpc.StatusCode
DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON, too deep for Python's parser


def _bad_time(message: pb.LogRecord | common_pb2.Match) -> None:
    message.create_time.seconds = 253402300800  # 10000-01-01: past Timestamp's range


class TestAuditFindings(ServedPersistence):
    @pytest.mark.parametrize("request_", [
        append_request(record_pb(2, events_json="[NaN]")),
        append_request(record_pb(2, events_json='[{"hp": -Infinity}]')),
        record_request(options_json='{"speed": Infinity}'),
    ], ids=["events NaN", "events -Infinity", "options Infinity"])
    def test_json_with_nan_or_infinity_is_invalid(self, stub, store, m1, request_):
        """NaN and Infinity are not JSON (RFC 8259), though Python's parser takes them: a
        client reading the log or the match with any other parser would fail on them."""
        call = stub.AppendLog if isinstance(request_, pb.AppendLogRequest) else stub.RecordMatch
        before = store.get_match_log("m1")
        assert status(call, request_, SERVICE) == Code.INVALID_ARGUMENT
        assert store.get_match_log("m1") == before
        assert [m.match_id for m in store.player_history("p1").matches] == ["m1"]  # no m2

    def test_too_deeply_nested_json_is_invalid_and_refused_alone(self, stub, store, m1):
        """JSON nested beyond the parser's depth is INVALID_ARGUMENT (it raised
        RecursionError: UNKNOWN), and in a batch call only its own entry is refused (it
        failed the whole call, the well-formed entries too)."""
        deep = append_request(record_pb(2, events_json=DEEP))
        assert status(stub.AppendLog, deep, SERVICE) == Code.INVALID_ARGUMENT
        assert status(stub.RecordMatch, record_request(options_json=DEEP),
                      SERVICE) == Code.INVALID_ARGUMENT
        reply = stub.AppendLogs(pb.AppendLogsRequest(appends=[append_request(action(2)), deep]),
                                metadata=SERVICE)
        assert codes(reply.results) == [Code.OK, Code.INVALID_ARGUMENT]
        assert [r.sequence for r in store.get_match_log("m1")[1]] == [0, 1, 2]

    def test_a_create_time_out_of_range_is_invalid_and_refused_alone(self, stub, store, m1):
        """A create_time beyond google.protobuf.Timestamp's range is INVALID_ARGUMENT (it
        raised ValueError: UNKNOWN), and in a batch call only its own entry is refused."""
        bad_match = start_request("m2")
        _bad_time(bad_match.match)
        assert status(stub.RecordMatch, bad_match, SERVICE) == Code.INVALID_ARGUMENT
        bad_record = record_pb(2)
        _bad_time(bad_record)
        assert status(stub.AppendLog, append_request(bad_record),
                      SERVICE) == Code.INVALID_ARGUMENT
        recorded = stub.RecordMatches(pb.RecordMatchesRequest(
            matches=[start_request("m3"), bad_match]), metadata=SERVICE)
        assert codes(recorded.results) == [Code.OK, Code.INVALID_ARGUMENT]
        appended = stub.AppendLogs(pb.AppendLogsRequest(appends=[
            append_request(action(2)), append_request(bad_record)]), metadata=SERVICE)
        assert codes(appended.results) == [Code.OK, Code.INVALID_ARGUMENT]
        assert [r.sequence for r in store.get_match_log("m1")[1]] == [0, 1, 2]
        assert [r.sequence for r in store.get_match_log("m3")[1]] == [0]
        assert status(stub.GetMatchLog, pb.GetMatchLogRequest(match_id="m2"),
                      SERVICE) == Code.NOT_FOUND

    def test_an_action_id_with_a_nul_is_invalid(self, stub, store, m1):
        """PostgreSQL text cannot hold NUL: such an action id failed the INSERT of its whole
        group commit there (every append batched with it: UNKNOWN), and SQLite stored it.
        It is INVALID_ARGUMENT, and nothing is written."""
        bad = append_request(convert.record_pb(replace(action(2), action_id="play:\x00")))
        before = store.get_match_log("m1")
        assert status(stub.AppendLog, bad, SERVICE) == Code.INVALID_ARGUMENT
        assert store.get_match_log("m1") == before
        reply = stub.AppendLogs(pb.AppendLogsRequest(appends=[bad, append_request(action(2))]),
                                metadata=SERVICE)
        assert codes(reply.results) == [Code.INVALID_ARGUMENT, Code.OK]

    def test_every_page_token_the_service_issues_is_accepted(self, stub, store):
        """Ids are up to 128 printable characters of any script; the token naming them was
        longer than the 512 characters page_token may have, so the pages after the first
        could not be reached."""
        player = "😀" * 128  # 4 UTF-8 bytes (12 as JSON \u escapes) each
        for i in range(3):
            store.record_match(a_match(f"{i}" + "😀" * 127, players=(player, "p2")))
            store.append_log(f"{i}" + "😀" * 127, [setup_record()])
        seen, token = [], ""
        while True:
            page = stub.GetPlayerHistory(pb.GetPlayerHistoryRequest(
                player_id=player, page_size=1, page_token=token), metadata=PLAYER)
            seen += [m.match_id[0] for m in page.matches]
            if not (token := page.next_page_token):
                break
        assert seen == ["2", "1", "0"]
