"""The bounded log read over gRPC: GetMatchLog takes an optional range of sequences, which a
rules replica (LedgerClient) sends when a follower the live store no longer keeps up reads
the log. A request without one still answers the whole log, and a persistence service from
before the range (answering the whole log) still gives the client just the range."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from partida.dice.logic import Dice
from partida.persistence.db import make_engine, migrate
from partida.persistence.service import PersistenceServicer
from partida.persistence.store import PersistenceStore
from partida.platform.auth import Authority
from partida.platform.server import Registration, Server
from partida.rules.clients import LedgerClient
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore
from partida.v1 import persistence_pb2, persistence_pb2_grpc
from tests.support.serving import channel_to
from tests.unit.rules.test_spectator_log_reads_bounded import (
    BANDAS,
    Follower,
    create,
    expected,
    play,
    reads_per_action,
)


class CountingStore(PersistenceStore):
    """The real store, counting the log records the persistence service read."""

    read = 0

    def get_match_log(self, match_id, *bounds):  # type: ignore[no-untyped-def]
        match, log = super().get_match_log(match_id, *bounds)
        self.read += len(log)
        return match, log


class OlderServicer(PersistenceServicer):
    """A persistence service from before the log's range: it answers the whole log."""

    def GetMatchLog(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        whole = persistence_pb2.GetMatchLogRequest(match_id=request.match_id)
        return super().GetMatchLog(whole, context)


@pytest.fixture
def counting_store(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    return CountingStore(engine)


@contextlib.contextmanager
def replica(store: PersistenceStore, clock: Any, servicer: type = PersistenceServicer
            ) -> Iterator[tuple[Matches, Any, tuple]]:
    """A rules replica whose ledger is the persistence service over gRPC; also a stub of
    that service and the call metadata of the rules service's token."""
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.PersistenceService", servicer(store),
                       persistence_pb2_grpc.add_PersistenceServiceServicer_to_server)
    with channel_to(Server([reg], auth, "127.0.0.1:0")) as channel:
        token = auth.service_token("rules")
        matches = Matches(MemorySessionStore(), LedgerClient(channel, token), Dice(store),
                          clock=clock)
        yield (matches, persistence_pb2_grpc.PersistenceServiceStub(channel),
               (("authorization", f"Bearer {token}"),))


def test_a_delayed_spectator_over_grpc_reads_only_what_each_action_reveals(counting_store,
                                                                           clock):
    with replica(counting_store, clock) as (matches, _, _):
        # Read by the service: one entry per action, not the whole log.
        assert set(reads_per_action(matches, create(matches, BANDAS), counting_store,
                                    counting_store)) == {1}


def test_a_request_without_a_range_still_answers_the_whole_log(store, clock):
    with replica(store, clock) as (matches, stub, rules):
        match_id = create(matches, BANDAS)
        play(matches, match_id, 12)
        reply = stub.GetMatchLog(persistence_pb2.GetMatchLogRequest(match_id=match_id),
                                 metadata=rules)
    assert [r.sequence for r in reply.records] == list(range(13))  # set-up included
    assert reply.match.version == 12


def test_get_match_log_answers_the_range_asked_for(store, clock):
    with replica(store, clock) as (matches, stub, rules):
        match_id = create(matches, BANDAS)
        play(matches, match_id, 12)

        def sequences(**bounds: int) -> list[int]:
            reply = stub.GetMatchLog(persistence_pb2.GetMatchLogRequest(
                match_id=match_id, **bounds), metadata=rules)
            return [r.sequence for r in reply.records]

        assert sequences(after_sequence=0) == list(range(1, 13))
        assert sequences(after_sequence=4, up_to_sequence=7) == [5, 6, 7]
        assert sequences(up_to_sequence=0) == [0]
        assert sequences(after_sequence=12) == sequences(after_sequence=9,
                                                         up_to_sequence=3) == []
        with pytest.raises(grpc.RpcError) as refused:
            sequences(after_sequence=-1)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        ledger = matches.ledger
        assert [e.sequence for e in ledger.load_entries(match_id, -1, 2)] == [0, 1, 2]
        assert [e.sequence for e in ledger.load_entries(match_id, 10, None)] == [11, 12]
        assert ledger.load_entries("no-such-match", -1, None) == []


def test_a_persistence_service_unaware_of_the_range_still_gives_just_the_range(store, clock):
    """During a rolling upgrade the persistence service may answer the whole log: the client
    keeps only the entries asked for, and a delayed spectator is served as before."""
    with replica(store, clock, OlderServicer) as (matches, _, _):
        match_id = create(matches, BANDAS)
        play(matches, match_id, 60)
        ledger = matches.ledger
        assert [e.sequence for e in ledger.load_entries(match_id, 4, 7)] == [5, 6, 7]
        assert [e.sequence for e in ledger.load_entries(match_id, 55, None)] == [
            56, 57, 58, 59, 60]
        spectator = Follower(matches, match_id)
        for _ in range(5):
            events, s, before = spectator.next()
            assert events == expected(store, match_id, before, None, s.spectator["version"])
            play(matches, match_id, 3)
