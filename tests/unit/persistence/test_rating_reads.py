"""Matchmaking's rating reads from a remote persistence service (rules/clients.py
PersistenceRatings) against a real gRPC server over SQLite: reads asked for together share
one GetRatings call, and each gets its own player's rating."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from partida.devstack.servers import free_port
from partida.persistence.store import PersistenceStore
from partida.rules.clients import PersistenceRatings
from tests.unit.persistence.support import AUTHORITY, a_match, finished, serving


class CountingStore(PersistenceStore):
    """Counts the batched reads, and holds the first one until released so that the reads
    asked for meanwhile queue up behind it."""

    def __init__(self, engine, gate):
        super().__init__(engine)
        self.calls, self.gate = [], gate

    def get_ratings(self, keys):
        self.calls.append(len(keys))
        self.gate.wait(5)
        return super().get_ratings(keys)


def test_concurrent_reads_share_calls_and_each_gets_its_own_rating(engine):
    gate = threading.Event()
    store = CountingStore(engine, gate)
    won, lost = finished(store, a_match(), winners=(0,))
    players = ["p1", "p2", *[f"new-{i}" for i in range(30)]]
    with serving(store) as channel:
        ratings = PersistenceRatings(channel, AUTHORITY.service_token("matchmaking"))
        with ThreadPoolExecutor(len(players)) as pool:
            reads = [pool.submit(ratings.rating, p, "montanas") for p in players]
            deadline = time.monotonic() + 5
            while not store.calls:  # until the first read is in the store, held there
                assert time.monotonic() < deadline
                time.sleep(0.005)
            gate.set()
            got = [r.result(10) for r in reads]
    assert got == [won.rating, lost.rating, *[1500.0] * 30]
    assert sum(store.calls) == len(players) and len(store.calls) < len(players)


def test_a_read_fails_when_persistence_is_out_of_reach():
    with grpc.insecure_channel(f"127.0.0.1:{free_port()}") as gone:  # nobody listens
        ratings = PersistenceRatings(gone, AUTHORITY.service_token("matchmaking"), timeout=1)
        with pytest.raises(grpc.RpcError):
            ratings.rating("p1", "montanas")
