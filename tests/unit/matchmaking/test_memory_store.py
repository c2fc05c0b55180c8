"""The in-memory TicketStore: the shared contract, plus forgetting ended tickets."""

import pytest

from partida.matchmaking.store import MemoryTicketStore
from partida.platform.notify import Notifier
from tests.unit.matchmaking.factory import ticket
from tests.unit.matchmaking.store_contract import StoreContract, new


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def store(self):
        return MemoryTicketStore()


def test_ended_tickets_are_forgotten_after_the_retention_time():
    clock = [0.0]
    store = MemoryTicketStore(retain_seconds=60, clock=lambda: clock[0])
    new(store, "a")
    store.cancel("a")
    clock[0] = 59
    store.expire(0)
    assert store.get("a") is not None
    clock[0] = 60
    store.expire(0)
    assert store.get("a") is None
    again = store.create(ticket("b", player="p-a"), "req-a", 5)
    assert again.ticket_id == "b"  # the idempotency key went with the ticket


def test_notify_all_wakes_the_followers_of_every_ticket_once():
    """What a store does when it may have missed announcements (the Redis store's
    subscriber coming back): every follower re-reads, then waits as before."""
    notifier = Notifier()
    with notifier.watch("a") as a, notifier.watch("b") as b:
        notifier.notify_all()
        assert a.wait(0) and b.wait(0)
        assert not a.wait(0.01) and not b.wait(0.01)
