"""What every TicketStore must do; test modules subclass StoreContract with a `store`
fixture (the in-memory store here, the Redis one in tests/integration)."""

import threading
import time

import pytest

from partida.matchmaking.pools import Proposal
from partida.matchmaking.store import TooManyOpen
from partida.matchmaking.tickets import ASSIGNED, CANCELLED, CLAIMED, EXPIRED, FAILED, SEARCHING
from tests.unit.matchmaking.factory import ticket

NOW = 1_700_000_000.0  # tickets are created at NOW; leases and expiry count from it


def new(store, tid, **kw):
    return store.create(ticket(tid, created=NOW, **kw), f"req-{tid}", max_open=5)


def pair(*tids):
    return Proposal("quest", "forest", tids, tuple(f"p-{t}" for t in tids))


def statuses(store, *tids):
    return [store.get(t).status for t in tids]


class StoreContract:
    def test_a_ticket_reads_back_as_created(self, store):
        made = ticket("a", created=NOW, scenario="", rating=1612.25, bots=True)
        assert store.create(made, "r", 5) == made == store.get("a")
        assert store.get("missing") is None

    def test_create_is_idempotent_per_player_and_request_id(self, store):
        first = store.create(ticket("a", created=NOW, player="ann"), "r1", 5)
        assert store.create(ticket("b", created=NOW, player="ann"), "r1", 5) == first
        assert store.get("b") is None
        other = store.create(ticket("c", created=NOW, player="bob"), "r1", 5)
        assert other.ticket_id == "c"
        assert sorted(t.ticket_id for t in store.searching()) == ["a", "c"]

    def test_open_tickets_per_player_are_bounded(self, store):
        for i in range(2):
            store.create(ticket(f"t{i}", created=NOW, player="ann"), f"r{i}", 2)
        with pytest.raises(TooManyOpen):
            store.create(ticket("t2", created=NOW, player="ann"), "r2", 2)
        store.cancel("t0")
        assert store.create(ticket("t2", created=NOW, player="ann"), "r2", 2).ticket_id == "t2"

    def test_cancel_only_ends_a_searching_ticket(self, store):
        new(store, "a")
        assert store.cancel("a").status == CANCELLED
        assert store.cancel("a").status == CANCELLED
        assert store.searching() == []
        assert store.cancel("missing") is None
        new(store, "b"), new(store, "c")
        store.claim([pair("b", "c")], NOW, 30)
        assert store.cancel("b").status == CLAIMED

    def test_a_claim_takes_all_tickets_or_none(self, store):
        for t in "abc":
            new(store, t)
        store.cancel("c")
        assert store.claim([pair("a", "c"), pair("a", "b"), pair("b", "a")], NOW, 30) == [
            False, True, False]
        assert statuses(store, "a", "b", "c") == [CLAIMED, CLAIMED, CANCELLED]
        assert store.searching() == []

    def test_an_expired_ticket_cannot_be_claimed(self, store):
        new(store, "a", ttl=10), new(store, "b", ttl=60)
        assert store.claim([pair("a", "b")], NOW + 10, 30) == [False]

    def test_assign_gives_seats_in_proposal_order_and_frees_the_player(self, store):
        for i in range(5):
            store.create(ticket(f"x{i}", created=NOW, player="ann"), f"r{i}", 5)
        new(store, "b")
        p = pair("b", "x0")
        store.claim([p], NOW, 30)
        store.assign([(p, "m1")])
        b, x0 = store.get("b"), store.get("x0")
        assert (b.status, b.match_id, b.seat) == (ASSIGNED, "m1", 0)
        assert (x0.status, x0.match_id, x0.seat) == (ASSIGNED, "m1", 1)
        store.create(ticket("x5", created=NOW, player="ann"), "r5", 5)  # room again

    def test_release_puts_tickets_back_and_ends_the_claim(self, store):
        new(store, "a"), new(store, "b")
        p = pair("a", "b")
        store.claim([p], NOW, 30)
        store.release([p])
        assert statuses(store, "a", "b") == [SEARCHING, SEARCHING]
        assert sorted(t.ticket_id for t in store.searching()) == ["a", "b"]
        store.assign([(p, "late")])  # the claim is gone: nothing happens
        assert statuses(store, "a", "b") == [SEARCHING, SEARCHING]
        assert store.stale_claims(NOW + 999, 30) == []

    def test_a_postponed_claim_is_handed_out_again_after_the_delay(self, store):
        new(store, "a"), new(store, "b")
        p = pair("a", "b")
        store.claim([p], NOW, 30)
        store.postpone([p], NOW + 1, 5)
        assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
        assert store.searching() == []
        assert store.stale_claims(NOW + 5, 30) == []
        assert store.stale_claims(NOW + 6, 30) == [p]
        store.assign([(p, "m")])
        store.postpone([p], NOW + 7, 5)  # a claim that ended: nothing to keep
        assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
        assert store.stale_claims(NOW + 99, 30) == []

    def test_a_postponed_claim_whose_tickets_all_expired_is_released(self, store):
        new(store, "a", ttl=10), new(store, "b", ttl=60)
        p = pair("a", "b")
        store.claim([p], NOW, 30)
        store.postpone([p], NOW + 30, 5)  # b has not expired: kept
        assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
        store.postpone([p], NOW + 60, 5)
        assert statuses(store, "a", "b") == [SEARCHING, SEARCHING]
        assert store.stale_claims(NOW + 99, 30) == []
        assert store.expire(NOW + 60) == 2
        assert statuses(store, "a", "b") == [EXPIRED, EXPIRED]

    def test_fail_ends_a_refused_claims_tickets_with_the_reason(self, store):
        new(store, "a"), new(store, "b"), new(store, "c")
        p, q = pair("a", "b"), pair("c", "a")
        store.claim([p], NOW, 30)
        store.fail([(p, "FAILED_PRECONDITION: scenario 'arrest' was played")])
        a, b = store.get("a"), store.get("b")
        assert (a.status, a.failure) == (b.status, b.failure) == (
            FAILED, "FAILED_PRECONDITION: scenario 'arrest' was played")
        assert [t.ticket_id for t in store.searching()] == ["c"]
        assert store.stale_claims(NOW + 999, 30) == []  # the claim ended
        assert store.cancel("a").status == FAILED  # final: cancelling changes nothing
        store.fail([(q, "not claimed")])  # a claim nobody holds fails no ticket
        assert statuses(store, "c") == [SEARCHING] and store.get("c").failure == ""

    def test_a_claim_whose_lease_ran_out_is_handed_to_one_caller(self, store):
        new(store, "a"), new(store, "b")
        p = pair("a", "b")
        store.claim([p], NOW, 5)
        assert store.stale_claims(NOW + 4, 5) == []
        assert store.stale_claims(NOW + 6, 5) == [p]
        assert store.stale_claims(NOW + 7, 5) == []  # re-leased until NOW + 11
        store.assign([(p, "m")])
        assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
        assert store.stale_claims(NOW + 99, 5) == []

    def test_expiry_ends_searching_tickets_only(self, store):
        new(store, "a", ttl=10), new(store, "b", ttl=10), new(store, "c", ttl=10)
        new(store, "d", ttl=60)
        p = pair("b", "c")
        store.claim([p], NOW, 30)
        assert store.expire(NOW + 5) == 0
        assert store.expire(NOW + 10) == 1
        assert statuses(store, "a", "b", "d") == [EXPIRED, CLAIMED, SEARCHING]
        assert [t.ticket_id for t in store.searching()] == ["d"]
        assert store.cancel("a").status == EXPIRED
        store.release([p])  # back in the pool, but past its time: the next sweep ends it
        assert store.expire(NOW + 11) == 2
        assert statuses(store, "b", "c") == [EXPIRED, EXPIRED]

    def test_a_watch_wakes_on_a_change_and_times_out_otherwise(self, store):
        new(store, "a"), new(store, "b")
        with store.watch("a") as changes:
            assert not changes.wait(0.05)
            threading.Timer(0.1, store.cancel, ["a"]).start()
            started = time.monotonic()
            assert changes.wait(5)
            assert time.monotonic() - started < 2
            store.cancel("b")  # another ticket: no wake-up
            assert not changes.wait(0.1)
