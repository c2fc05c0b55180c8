"""The one-process server's tickets kept in its database (matchmaking/store/journal): the
shared store contract holds for a store started afresh from its database before every call,
so each change must have been kept; and the embedded server, stopped and started again,
still has a ticket it acknowledged and matches it."""

from __future__ import annotations

import time
from typing import Any

import grpc
import pytest

from partida.matchmaking.store import MemoryTicketStore
from partida.matchmaking.store.journal import TicketJournal
from partida.matchmaking.tickets import ASSIGNED, CLAIMED, SEARCHING
from partida.persistence.db import make_engine, migrate
from tests.unit.matchmaking.factory import ticket
from tests.unit.matchmaking.store_contract import NOW, StoreContract, new, pair, statuses


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    yield engine
    engine.dispose()


def reopened(engine, clock=time.time, retain_seconds=3600.0) -> MemoryTicketStore:
    """A store as a new process makes it: empty, then recovered from the database."""
    store = MemoryTicketStore(retain_seconds, clock, journal=TicketJournal(engine))
    store.recover()
    return store


class Restarting:
    """The kept store, started afresh from its database before every call (its watches
    carried over, as a client following a ticket would follow it again)."""

    def __init__(self, engine) -> None:
        self._engine = engine
        self._store = reopened(engine)

    def __getattr__(self, name: str) -> Any:
        notifier = self._store._notifier
        self._store = reopened(self._engine)
        self._store._notifier = notifier
        return getattr(self._store, name)


class TestKeptStoreRestartedBeforeEveryCall(StoreContract):
    @pytest.fixture
    def store(self, engine):
        return Restarting(engine)


def test_a_claim_held_at_a_stop_is_handed_out_once_its_lease_runs_out(engine):
    """The process stopped while it created a table: its tickets stay claimed, and the
    claim goes back to the matcher (to create the same match, by its request id)."""
    first = reopened(engine)
    for tid in "ab":
        new(first, tid)
    p = pair("a", "b")
    assert first.claim([p], NOW, 30) == [True]
    again = reopened(engine)
    assert statuses(again, "a", "b") == [CLAIMED, CLAIMED]
    assert again.searching() == []
    assert again.stale_claims(NOW + 10, 30) == []
    assert again.stale_claims(NOW + 31, 30) == [p]
    again.assign([(p, "m1")])
    after = reopened(engine)
    assert [(t.status, t.match_id, t.seat) for t in map(after.get, "ab")] == [
        (ASSIGNED, "m1", 0), (ASSIGNED, "m1", 1)]


def test_open_tickets_repeats_and_age_order_survive_a_restart(engine):
    first = reopened(engine)
    for tid, at in (("late", NOW + 5), ("early", NOW)):
        first.create(ticket(tid, created=at, player="ann"), f"req-{tid}", 2)
    again = reopened(engine)
    assert [t.ticket_id for t in again.searching()] == ["early", "late"]
    repeat = again.create(ticket("other", created=NOW, player="ann"), "req-late", 2)
    assert repeat.ticket_id == "late"  # the opening call's repeat finds its ticket
    with pytest.raises(Exception, match="ann"):  # still two open: her bound holds
        again.create(ticket("third", created=NOW, player="ann"), "req-third", 2)


def test_ended_tickets_are_forgotten_when_due_across_a_restart(engine):
    clock = [0.0]
    first = reopened(engine, clock=lambda: clock[0], retain_seconds=60)
    new(first, "a")
    first.cancel("a")
    clock[0] = 60
    again = reopened(engine, clock=lambda: clock[0], retain_seconds=60)
    assert again.get("a") is not None
    again.expire(0)
    assert again.get("a") is None
    assert reopened(engine).get("a") is None  # forgotten in the database too


def test_a_change_that_could_not_be_kept_fails_and_is_kept_by_the_next(engine):
    """The database refusing a write fails the call (nothing acknowledged), and what it
    changed is written with the next change."""
    store = reopened(engine)
    journal = store._journal
    real = journal.write
    journal.write = lambda *a: (_ for _ in ()).throw(OSError("disk full"))
    with pytest.raises(OSError):
        new(store, "a")
    journal.write = real
    new(store, "b")
    assert statuses(reopened(engine), "a", "b") == [SEARCHING, SEARCHING]


def test_the_embedded_server_keeps_an_acknowledged_ticket_across_a_restart(tmp_path):
    from partida.platform.assembly import build
    from partida.platform.auth import Authority
    from partida.platform.config import Settings
    from partida.v1 import matchmaking_pb2 as pb
    from partida.v1.matchmaking_pb2_grpc import MatchmakingServiceStub

    secrets = {"token_secret": "p" * 32, "service_token_secret": "s" * 32}
    auth = Authority("p" * 32, "s" * 32, {})

    def started():
        process = build("all", Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}",
                                        port=0, metrics_port=0, **secrets))
        process.start()
        assert process.ready.wait(30)
        return process, grpc.insecure_channel(f"127.0.0.1:{process.server.port}")

    def as_player(name):
        return (("authorization", f"Bearer {auth.player_token(name, 600)[0]}"),)

    def open_ticket(stub, name):
        return stub.CreateTicket(pb.CreateTicketRequest(
            game_id="montanas", scenario_id="standard", seats=2, request_id=f"r-{name}"),
            metadata=as_player(name)).ticket.ticket_id

    process, channel = started()
    try:
        ann = open_ticket(MatchmakingServiceStub(channel), "ann")
    finally:
        channel.close()
        process.stop(0)
    process, channel = started()
    try:
        stub = MatchmakingServiceStub(channel)
        kept = stub.GetTicket(pb.GetTicketRequest(ticket_id=ann),
                              metadata=as_player("ann")).ticket
        assert kept.status == pb.TICKET_STATUS_SEARCHING
        open_ticket(stub, "bob")
        deadline = time.monotonic() + 20
        while kept.status == pb.TICKET_STATUS_SEARCHING and time.monotonic() < deadline:
            time.sleep(0.1)
            kept = stub.GetTicket(pb.GetTicketRequest(ticket_id=ann),
                                  metadata=as_player("ann")).ticket
        assert kept.status == pb.TICKET_STATUS_ASSIGNED and kept.match_id
    finally:
        channel.close()
        process.stop(0)
