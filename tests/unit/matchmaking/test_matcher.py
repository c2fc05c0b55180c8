"""The Matcher loop over the in-memory store: create, assign, release, recover, expire."""

import threading
import time

import grpc

from partida.matchmaking.matcher import RETRY_SECONDS, Matcher
from partida.matchmaking.store import MemoryTicketStore
from partida.matchmaking.tickets import ASSIGNED, CLAIMED, EXPIRED, FAILED, SEARCHING
from partida.platform.errors import FailedPrecondition, Unavailable
from tests.unit.matchmaking.factory import POLICY, CallFailed, RecordingCreator
from tests.unit.matchmaking.store_contract import NOW, new, pair, statuses


def matcher(store, creator, clock):
    return Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=2)


def test_a_tick_creates_the_match_and_assigns_the_seats():
    store, creator, clock = MemoryTicketStore(), RecordingCreator(), [NOW + 1]
    new(store, "a"), new(store, "b"), new(store, "c")
    assert matcher(store, creator, clock).tick() == 2
    [(match_id, (game, scenario, seats))] = creator.by_match().items()
    assert (game, scenario, seats) == ("quest", "forest", [("p-a", None), ("p-b", None)])
    assert [(store.get(t).match_id, store.get(t).seat) for t in "ab"] == [(match_id, 0),
                                                                           (match_id, 1)]
    assert statuses(store, "c") == [SEARCHING]


def test_a_failed_creation_keeps_its_tickets_and_is_asked_again():
    """The failure may have come after the match was made: the tickets wait for the same
    proposal (the same request id) to be asked again, RETRY_SECONDS later."""
    store, creator, clock = MemoryTicketStore(), RecordingCreator(), [NOW + 1]
    new(store, "a"), new(store, "b")
    creator.fail = 1
    m = matcher(store, creator, clock)
    assert m.tick() == 0
    assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
    clock[0] += RETRY_SECONDS - 1
    assert m.tick() == 0
    clock[0] += 1
    assert m.tick() == 2
    assert len(creator.matches) == 1


def test_a_failing_creation_lets_its_tickets_expire_in_the_end():
    """Asked again while any of its tickets is unexpired; then released, and expired."""
    store, creator, clock = MemoryTicketStore(), RecordingCreator(), [NOW + 1]
    new(store, "a", ttl=10), new(store, "b", ttl=20)
    creator.fail = 10**6
    m = matcher(store, creator, clock)
    for clock[0] in (NOW + 1, NOW + 10, NOW + 16):  # asked at 1, 10 (a expired), 16
        m.tick()
        assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
    clock[0] = NOW + 21
    m.tick()  # asked again, b expired too: released
    m.tick()
    assert statuses(store, "a", "b") == [EXPIRED, EXPIRED]
    assert creator.matches == {}


def test_a_claim_left_by_a_dead_matcher_is_finished_with_the_same_match():
    store, creator, clock = MemoryTicketStore(), RecordingCreator(), [NOW]
    new(store, "a"), new(store, "b")
    p = pair("a", "b")
    store.claim([p], NOW, 30)
    first = creator.create_match(p.game_id, p.scenario_id, p.seats, p.request_id)
    # ... and the matcher died before assigning. Another one takes over after the lease:
    m = matcher(store, creator, clock)
    assert m.tick() == 0
    clock[0] = NOW + 31
    assert m.tick() == 2
    assert len(creator.matches) == 1
    assert {store.get(t).match_id for t in "ab"} == {first}


def test_expired_tickets_are_not_matched():
    store, creator, clock = MemoryTicketStore(), RecordingCreator(), [NOW + 10]
    new(store, "a", ttl=10), new(store, "b", ttl=60)
    assert matcher(store, creator, clock).tick() == 0
    assert statuses(store, "a", "b") == [EXPIRED, SEARCHING]


def test_the_background_thread_matches_on_its_own():
    store, creator = MemoryTicketStore(), RecordingCreator()
    m = Matcher(store, creator, POLICY, interval=0.01)
    m.start()
    try:
        new(store, "a", ttl=10**10), new(store, "b", ttl=10**10)
        with store.watch("b") as changes:
            while store.get("b").status != ASSIGNED:
                assert changes.wait(5)
    finally:
        m.stop()


class ChunkedCreator(RecordingCreator):
    """Records the size of every create_matches call; refuses the proposals of `refused`
    tickets, and fails a whole call that holds `lost` ones."""

    def __init__(self, refused: str = "", lost: str = "") -> None:
        super().__init__()
        self.calls: list[int] = []
        self.refused, self.lost = refused, lost

    def create_matches(self, proposals):
        with self.lock:
            self.calls.append(len(proposals))
        if any(t in self.lost for p in proposals for t in p.ticket_ids):
            raise RuntimeError("the rules service went away")
        return [RuntimeError("refused") if p.ticket_ids[0] in self.refused
                else self.create_match(p.game_id, p.scenario_id, p.seats, p.request_id)
                for p in proposals]


def _one_tick(tickets: str, creator, **matcher) -> tuple[MemoryTicketStore, int]:
    """A store holding `tickets`, and how many of them one tick of a Matcher assigned."""
    store = MemoryTicketStore()
    for t in tickets:
        new(store, t)
    return store, Matcher(store, creator, POLICY, clock=lambda: NOW + 1, **matcher).tick()


def test_matches_are_created_a_batch_to_a_call_each_kept_or_released_alone():
    creator = ChunkedCreator(refused="c")
    store, assigned = _one_tick("abcdefghij", creator, workers=2, batch=2)
    assert assigned == 8  # five tables of two, in calls of two, two, one; one refused
    assert sorted(creator.calls) == [1, 2, 2]
    assert statuses(store, "c", "d") == [CLAIMED, CLAIMED]  # kept, to be asked again
    assert all(store.get(t).status == ASSIGNED for t in "abefghij")
    assert len(creator.matches) == 4


def test_a_failed_call_holds_only_the_tickets_of_its_batch():
    store, assigned = _one_tick("abcd", ChunkedCreator(lost="a"), workers=1, batch=1)
    assert assigned == 2
    assert [store.get(t).status for t in "abcd"] == [CLAIMED, CLAIMED, ASSIGNED, ASSIGNED]


def test_a_table_refused_for_good_fails_its_tickets_with_the_reason():
    """A refusal that asking again cannot change (FAILED_PRECONDITION: the campaign scenario
    was played meanwhile) put the tickets back in their pools: the same table was proposed
    and refused every tick (0.1 s) until they expired, and their players never learnt why.
    They now fail with the reason; a refusal that may pass (UNAVAILABLE) is asked again."""
    class Refusing(RecordingCreator):
        def create_matches(self, proposals):
            return [FailedPrecondition("scenario 'arrest' of campaign 'c1' was played")
                    if "a" in p.ticket_ids else Unavailable("persistence is restarting")
                    for p in proposals]

    store, creator, clock = MemoryTicketStore(), Refusing(), [NOW + 1]
    new(store, "a"), new(store, "b"), new(store, "c"), new(store, "d")
    assert matcher(store, creator, clock).tick() == 0
    assert statuses(store, "a", "b", "c", "d") == [FAILED, FAILED, CLAIMED, CLAIMED]
    assert store.get("a").failure == (
        "FAILED_PRECONDITION: scenario 'arrest' of campaign 'c1' was played")
    assert [p.ticket_ids for p in store.stale_claims(NOW + 1 + RETRY_SECONDS, 30)] == [
        ("c", "d")]


class BrokenByChess(RecordingCreator):
    """Fails every call that holds a chess table as a whole, as the rules service does when
    creating one of a call's matches raises outside its refusals (UNKNOWN)."""

    def __init__(self, code=grpc.StatusCode.UNKNOWN):
        super().__init__()
        self.calls, self.code = [], code

    def create_matches(self, proposals):
        self.calls.append(len(proposals))
        if any(p.game_id == "chess" for p in proposals):
            raise CallFailed(self.code, "Exception calling application: KeyError")
        return super().create_matches(proposals)


def _chess_and_quest(store):
    for t in ("c1", "c2"):
        new(store, t, game="chess", scenario="classic")
    new(store, "q1"), new(store, "q2")


def test_a_table_that_breaks_its_call_does_not_hold_up_the_others_of_the_batch():
    """A call the rules service refused as a whole because of one of its tables failed
    every table of the batch, other games' too; they were batched with it again at every
    tick and never made, until all their tickets expired. Such a call is asked again one
    table to a call: the others are made, and only the broken one waits to be asked again."""
    store, creator, clock = MemoryTicketStore(), BrokenByChess(), [NOW + 1]
    _chess_and_quest(store)
    assert matcher(store, creator, clock).tick() == 2
    assert creator.calls == [2, 1, 1]
    assert statuses(store, "c1", "c2", "q1", "q2") == [CLAIMED, CLAIMED, ASSIGNED, ASSIGNED]


def test_a_call_that_timed_out_is_not_asked_again_one_table_at_a_time():
    """A call out of reach or too slow says nothing of its tables: asking each alone would
    only multiply the wait, so the batch waits to be asked again as it was."""
    store, creator, clock = MemoryTicketStore(), BrokenByChess(
        grpc.StatusCode.DEADLINE_EXCEEDED), [NOW + 1]
    _chess_and_quest(store)
    assert matcher(store, creator, clock).tick() == 0
    assert creator.calls == [2]
    assert statuses(store, "c1", "c2", "q1", "q2") == [CLAIMED] * 4


class HeldCreator(RecordingCreator):
    """Holds the creation of any table with a ticket in `held` until `go` is set."""

    def __init__(self, held: str) -> None:
        super().__init__()
        self.held, self.go, self.holding = held, threading.Event(), threading.Event()

    def create_matches(self, proposals):
        if any(t in self.held for p in proposals for t in p.ticket_ids):
            self.holding.set()
            assert self.go.wait(10)
        return super().create_matches(proposals)


def _settled(store, tickets: str, status: str) -> bool:
    """Whether `tickets` reach `status` within a few seconds (a late call settles on a
    creation thread of its own)."""
    deadline = time.monotonic() + 5
    while statuses(store, *tickets) != [status] * len(tickets):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_slow_creation_holds_up_only_its_own_table():
    """A tick waits tick_wait_seconds for its calls; one still running then settles its
    table itself. Before, every tick waited for its slowest call, so one table that kept
    timing out held up every pool's tickets."""
    store, creator, clock = MemoryTicketStore(), HeldCreator("a"), [NOW + 1]
    for t in "abcd":
        new(store, t)
    m = Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=2, batch=1,
                tick_wait_seconds=0.2)
    assert m.tick() == 2  # c and d, while a and b's call is held
    assert statuses(store, "a", "b", "c", "d") == [CLAIMED, CLAIMED, ASSIGNED, ASSIGNED]
    creator.go.set()
    assert _settled(store, "ab", ASSIGNED)
    assert len(creator.matches) == 2
    m.stop()


def test_no_table_is_claimed_while_every_creation_thread_is_held():
    """Tables claimed then would wait behind the slow calls, their leases running out:
    they stay in their pools until a creation thread is free."""
    store, creator, clock = MemoryTicketStore(), HeldCreator("a"), [NOW + 1]
    new(store, "a"), new(store, "b")
    m = Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=1, batch=1,
                tick_wait_seconds=0.1)
    assert m.tick() == 0
    new(store, "c"), new(store, "d")
    assert m.tick() == 0
    assert statuses(store, "c", "d") == [SEARCHING, SEARCHING]
    creator.go.set()
    assert _settled(store, "ab", ASSIGNED)
    assert m.tick() == 2
    m.stop()
