"""How the rules service's clients answer each caller of a batched call (rules/clients.py):
AppendLogs, RecordMatches and CreateStreams carry the calls of several callers at once, and
each caller must get what a call of its own would have given it."""

import grpc
import pytest

from partida.platform.batching import Pending
from partida.platform.errors import AlreadyExists, Unavailable
from partida.rules.clients import append_refusal, settle_batch
from partida.v1 import persistence_pb2


class Failed(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.DEADLINE_EXCEEDED


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
