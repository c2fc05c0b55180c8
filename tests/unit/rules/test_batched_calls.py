"""How the rules service's clients answer each caller of a batched call (rules/clients.py):
AppendLogs, RecordMatches and CreateStreams carry the calls of several callers at once, and
each caller must get what a call of its own would have given it."""

from concurrent import futures

import grpc
import pytest

from partida.matchmaking.pools import Proposal
from partida.platform.batching import Pending
from partida.platform.errors import AlreadyExists, Unavailable
from partida.rules.clients import (
    DiceClient,
    LedgerClient,
    RulesCreator,
    append_refusal,
    settle_batch,
)
from partida.rules.ports import LogEntry
from partida.rules.session import SeatMeta, Session
from partida.v1 import common_pb2, dice_pb2, persistence_pb2, rules_pb2


class Failed(grpc.RpcError):
    """A call that failed with `status` (a deadline passed, by default)."""

    def __init__(self, status: grpc.StatusCode = grpc.StatusCode.DEADLINE_EXCEEDED) -> None:
        super().__init__()
        self.status = status

    def code(self) -> grpc.StatusCode:
        return self.status


def _batch(n: int) -> list[Pending]:
    return [Pending(f"m{i}", None) for i in range(n)]


def _result(code: grpc.StatusCode, message: str = "") -> persistence_pb2.AppendLogResult:
    return persistence_pb2.AppendLogResult(code=code.value[0], message=message,
                                           last_sequence=7 if code == grpc.StatusCode.OK else 0)


def test_each_caller_gets_its_own_result_or_refusal():
    batch = _batch(3)
    settle_batch(batch, lambda: [_result(grpc.StatusCode.OK),
                            _result(grpc.StatusCode.ALREADY_EXISTS, "sequence 3 is taken"),
                            _result(grpc.StatusCode.NOT_FOUND, "no match")], append_refusal)
    assert batch[0].error is None and batch[0].result.last_sequence == 7
    assert isinstance(batch[1].error, AlreadyExists) and batch[1].error.message == \
        "sequence 3 is taken"
    # Anything else is what the caller's own call failing would have been: UNAVAILABLE,
    # naming the status the other service answered.
    assert isinstance(batch[2].error, Unavailable) and "NOT_FOUND" in batch[2].error.message
    assert batch[2].result is None


def test_without_a_refusal_rule_every_refusal_is_unavailable():
    batch = _batch(2)
    settle_batch(batch, lambda: [_result(grpc.StatusCode.ALREADY_EXISTS, "other content"),
                            _result(grpc.StatusCode.OK)])
    assert isinstance(batch[0].error, Unavailable) and "ALREADY_EXISTS" in batch[0].error.message
    assert batch[1].error is None


def test_a_failed_call_fails_every_caller_of_it():
    batch = _batch(3)

    def send():
        raise Failed()
    settle_batch(batch, send, append_refusal)
    assert all(isinstance(p.error, Unavailable) and "DEADLINE_EXCEEDED" in p.error.message
               for p in batch)


def test_results_must_answer_every_caller():
    with pytest.raises(ValueError):  # a reply short of results is a broken service, not OK
        settle_batch(_batch(2), lambda: [_result(grpc.StatusCode.OK)])


def test_a_service_too_old_for_the_batch_call_is_asked_one_at_a_time():
    batch = [Pending(f"m{i}", i) for i in range(3)]

    def send():
        raise Failed(grpc.StatusCode.UNIMPLEMENTED)

    def alone(payload):
        if payload == 1:
            raise Failed()
        return _result(grpc.StatusCode.OK, f"alone {payload}")
    settle_batch(batch, send, append_refusal, alone)
    assert [p.result.message if p.result else None for p in batch] == ["alone 0", None,
                                                                       "alone 2"]
    assert isinstance(batch[1].error, Unavailable) and "DEADLINE_EXCEEDED" in \
        batch[1].error.message
    # Without a way to ask alone, UNIMPLEMENTED fails the batch like any failed call.
    again = _batch(2)
    settle_batch(again, send)
    assert all(isinstance(p.error, Unavailable) and "UNIMPLEMENTED" in p.error.message
               for p in again)


@pytest.fixture
def old_services():
    """A real gRPC server answering as services older than the batch calls would: only
    RulesService.CreateMatch, DiceService.CreateStream and PersistenceService.RecordMatch
    (every other method, CreateMatches among them, is UNIMPLEMENTED)."""
    asked: list[str] = []

    def create_match(request, context):
        asked.append(request.request_id)
        return rules_pb2.CreateMatchResponse(match=common_pb2.Match(
            match_id=f"made-{request.request_id}"))

    def create_stream(request, context):
        return dice_pb2.CreateStreamResponse(commitment=request.match_id.encode(),
                                             first_position=0, values=[7] * request.draw)

    def record_match(request, context):
        return persistence_pb2.RecordMatchResponse(setup_written=bool(request.setup))

    def handler(service, method, behaviour, request_type):
        return grpc.method_handlers_generic_handler(service, {method: (
            grpc.unary_unary_rpc_method_handler(
                behaviour, request_deserializer=request_type.FromString,
                response_serializer=lambda m: m.SerializeToString()))})

    server = grpc.server(futures.ThreadPoolExecutor(4))
    server.add_generic_rpc_handlers((
        handler("partida.v1.RulesService", "CreateMatch", create_match,
                rules_pb2.CreateMatchRequest),
        handler("partida.v1.DiceService", "CreateStream", create_stream,
                dice_pb2.CreateStreamRequest),
        handler("partida.v1.PersistenceService", "RecordMatch", record_match,
                persistence_pb2.RecordMatchRequest)))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield channel, asked
    server.stop(0)


def test_clients_fall_back_to_single_calls_on_services_older_than_the_batch_calls(
        old_services):
    channel, asked = old_services
    proposals = [Proposal("montanas", "standard", (f"t{i}",), (f"p{i}",), bot_seats=1,
                          bot="heuristic") for i in range(2)]
    made = RulesCreator(channel, "token").create_matches(proposals)
    assert made == [f"made-{p.request_id}" for p in proposals]
    assert asked == [p.request_id for p in proposals]
    assert DiceClient(channel, "token").create_stream("m1", 3) == (b"m1", (0, [7, 7, 7]))
    session = Session(match_id="m1", game_id="montanas", scenario_id="standard",
                      seats=[SeatMeta("p1", "human", "", "")], options={}, commitment="00",
                      created_at=0.0, decision_timeout=0, spectator_delay=0)
    ledger = LedgerClient(channel, "token")
    setup = LogEntry(0, "setup", -1, "", "r", [], [], [])
    assert ledger.record_match(session, [setup]) is True
