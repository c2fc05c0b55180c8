"""The Matcher loop over the in-memory store: create, assign, release, recover, expire."""

from partida.matchmaking.matcher import Matcher
from partida.matchmaking.store import MemoryTicketStore
from partida.matchmaking.tickets import ASSIGNED, EXPIRED, FAILED, SEARCHING
from partida.platform.errors import FailedPrecondition, Unavailable
from tests.unit.matchmaking.factory import POLICY, RecordingCreator
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


def test_a_failed_creation_releases_the_tickets_for_the_next_tick():
    store, creator, clock = MemoryTicketStore(), RecordingCreator(), [NOW + 1]
    new(store, "a"), new(store, "b")
    creator.fail = 1
    m = matcher(store, creator, clock)
    assert m.tick() == 0
    assert statuses(store, "a", "b") == [SEARCHING, SEARCHING]
    assert m.tick() == 2


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
    assert statuses(store, "c", "d") == [SEARCHING, SEARCHING]  # released for the next tick
    assert all(store.get(t).status == ASSIGNED for t in "abefghij")
    assert len(creator.matches) == 4


def test_a_failed_call_releases_only_the_tickets_of_its_batch():
    store, assigned = _one_tick("abcd", ChunkedCreator(lost="a"), workers=1, batch=1)
    assert assigned == 2
    assert [store.get(t).status for t in "abcd"] == [SEARCHING, SEARCHING, ASSIGNED, ASSIGNED]


def test_a_table_refused_for_good_fails_its_tickets_with_the_reason():
    """A refusal that asking again cannot change (FAILED_PRECONDITION: the campaign scenario
    was played meanwhile) put the tickets back in their pools: the same table was proposed
    and refused every tick (0.1 s) until they expired, and their players never learnt why.
    They now fail with the reason; a refusal that may pass (UNAVAILABLE) still releases."""
    class Refusing(RecordingCreator):
        def create_matches(self, proposals):
            return [FailedPrecondition("scenario 'arrest' of campaign 'c1' was played")
                    if "a" in p.ticket_ids else Unavailable("persistence is restarting")
                    for p in proposals]

    store, creator, clock = MemoryTicketStore(), Refusing(), [NOW + 1]
    new(store, "a"), new(store, "b"), new(store, "c"), new(store, "d")
    assert matcher(store, creator, clock).tick() == 0
    assert statuses(store, "a", "b", "c", "d") == [FAILED, FAILED, SEARCHING, SEARCHING]
    assert store.get("a").failure == (
        "FAILED_PRECONDITION: scenario 'arrest' of campaign 'c1' was played")
    assert sorted(t.ticket_id for t in store.searching()) == ["c", "d"]
