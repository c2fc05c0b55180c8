"""Matchmaking when something fails part-way (the rules service's reply, Redis, a matcher
dying between creating a match and assigning it), against a real redis-server. Whatever
fails, every seat of a match made belongs to a ticket assigned to that match: no player is
seated in a match nobody was told of, or in two matches."""

import time
import uuid

import pytest
import redis

from partida.matchmaking.matcher import ConstantRatings, Matcher
from partida.matchmaking.pools import form_matches
from partida.matchmaking.service import MatchmakingServicer
from partida.matchmaking.store import RedisTicketStore
from partida.matchmaking.tickets import ASSIGNED, CLAIMED, SEARCHING
from partida.platform import errors
from partida.platform.errors import Unavailable
from partida.v1 import matchmaking_pb2 as pb
from tests.unit.matchmaking.factory import CATALOG, POLICY, RecordingCreator, ticket
from tests.unit.matchmaking.store_contract import NOW, statuses
from tests.unit.matchmaking.test_service import as_player

LEASE = 30.0  # the Matcher's default


@pytest.fixture
def store(redis_url):
    s = RedisTicketStore(redis_url, prefix=f"{{mm-{uuid.uuid4().hex[:8]}}}",
                         retain_seconds=120)
    yield s
    s.close()


def put(store, tid, at, rating=1500.0):
    """Ticket `tid` of player p-<tid>, opened `at` seconds after NOW."""
    return store.create(ticket(tid, created=NOW + at, rating=rating), f"req-{tid}", 5)


def matcher(store, creator, clock):
    return Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=1)


def untold(store, creator):
    """The seats of matches made whose ticket does not say so: (match, seat, player, the
    ticket's status and match). Empty when every player was told of every match."""
    wrong = []
    for match_id, (_, _, seats) in sorted(creator.by_match().items()):
        for seat, (player, _) in enumerate(seats):
            t = store.get(player.removeprefix("p-")) if player else None
            if t is not None and (t.status, t.match_id, t.seat) != (ASSIGNED, match_id, seat):
                wrong.append((match_id, seat, player, t.status, t.match_id))
    return wrong


class RefusedAfterMaking(RecordingCreator):
    """The rules service makes each match, then answers UNAVAILABLE for it (its session
    could not be stored after the match was recorded, say) `refuse` calls in a row."""

    def __init__(self):
        super().__init__()
        self.refuse = 0

    def create_matches(self, proposals):
        made = super().create_matches(proposals)
        with self.lock:
            if not self.refuse:
                return made
            self.refuse -= 1
        return [Unavailable("the session store is out of reach; retry") for _ in made]


def three_tickets(store):
    """a and b, rated alike, and x between them in age but 140 points above: a's first
    window (100) leaves x out, so a and b make a table; from 5 s on (150) it takes x, the
    older of the two."""
    put(store, "a", 0), put(store, "x", 1, rating=1640.0), put(store, "b", 2)


@pytest.mark.parametrize("how", ["reply lost", "refused after making it"])
def test_a_match_made_but_not_confirmed_keeps_its_players(store, how):
    """The rules service made the match of a and b, but the matcher was not told so (the
    call timed out, or the rules service answered UNAVAILABLE after making it). The
    tickets went back to their pool; a's window then reached x, and a was seated in a
    second match with x while b searched on, seated in the first one, which nobody was ever
    told of. Now the same table is asked again (same request id: the same match) and
    assigned, and x waits."""
    three_tickets(store)
    creator = RefusedAfterMaking()
    if how == "reply lost":
        creator.lose = 1
    else:
        creator.refuse = 1
    clock = [NOW + 3]
    m = matcher(store, creator, clock)
    assert m.tick() == 0
    [(_, _, seats)] = creator.by_match().values()
    assert seats == [("p-a", None), ("p-b", None)]  # made, though the matcher never heard
    clock[0] = NOW + 6
    m.tick()
    clock[0] = NOW + 6 + LEASE
    m.tick()
    assert untold(store, creator) == []
    assert len(creator.matches) == 1
    assert statuses(store, "a", "b", "x") == [ASSIGNED, ASSIGNED, SEARCHING]


def test_a_claim_taken_over_keeps_its_tickets_when_asking_again_fails(store):
    """A matcher claimed a and b, made their match and died before assigning it. Another
    one took the claim over after the lease, but the rules service was out of reach: the
    tickets went back to their pool, and at the next tick a (whose window had long reached
    x) was seated in a second match with x, b left searching while seated in the first."""
    three_tickets(store)
    [p] = form_matches(store.searching(), NOW + 3, POLICY)
    assert p.ticket_ids == ("a", "b")
    assert store.claim([p], NOW + 3, LEASE) == [True]
    creator = RecordingCreator()
    creator.create_matches([p])  # ... and the matcher died here
    creator.fail = 1  # the rules service is out of reach when the claim is taken over
    clock = [NOW + 4 + LEASE]
    m = matcher(store, creator, clock)
    assert m.tick() == 0
    m.tick()
    clock[0] += LEASE
    m.tick()
    assert untold(store, creator) == []
    assert len(creator.matches) == 1
    assert statuses(store, "a", "b", "x") == [ASSIGNED, ASSIGNED, SEARCHING]


def test_a_cancel_after_a_lost_reply_is_not_told_cancelled(store):
    """After the reply of a match made was lost, b's player cancelled and was told
    CANCELLED, while seated in that match. The cancel is now refused (ABORTED: the ticket
    is being matched), and the ticket is assigned to the match when it is asked again."""
    put(store, "a", 0), put(store, "b", 1)
    creator = RecordingCreator()
    creator.lose = 1
    clock = [NOW + 2]
    m = matcher(store, creator, clock)
    assert m.tick() == 0 and len(creator.matches) == 1
    servicer = MatchmakingServicer(store, ConstantRatings(), ticket_ttl_seconds=300,
                                   catalog=CATALOG, poll_seconds=0.05, cancel_wait_seconds=0.3)
    with pytest.raises(errors.Aborted):
        as_player("p-b", servicer.CancelTicket, pb.CancelTicketRequest(ticket_id="b"))
    clock[0] += LEASE
    assert m.tick() == 2
    assert untold(store, creator) == []


def test_a_match_whose_assignment_failed_is_assigned_once_the_lease_ends(store, monkeypatch):
    """Redis failing after the match was made: the claim stays (the tickets are not matched
    again meanwhile), and the matcher that takes it over after the lease gets the same
    match (the same request id) and assigns it."""
    put(store, "a", 0), put(store, "b", 1)
    creator = RecordingCreator()
    assign = store.assign

    def broken(done):
        monkeypatch.setattr(store, "assign", assign)
        raise redis.ConnectionError("Connection reset by peer")

    monkeypatch.setattr(store, "assign", broken)
    clock = [NOW + 2]
    m = matcher(store, creator, clock)
    with pytest.raises(redis.ConnectionError):
        m.tick()
    assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
    clock[0] += 1
    assert m.tick() == 0
    clock[0] += LEASE
    assert m.tick() == 2
    assert len(creator.matches) == 1 and untold(store, creator) == []


def test_a_matcher_dying_between_creating_and_assigning_leaves_the_same_match(store):
    """Another matcher finishes the claim after the lease: the same match, assigned."""
    put(store, "a", 0), put(store, "b", 1)
    [p] = form_matches(store.searching(), NOW + 2, POLICY)
    assert store.claim([p], NOW + 2, LEASE) == [True]
    creator = RecordingCreator()
    [first] = creator.create_matches([p])  # ... and the matcher died here
    clock = [NOW + 3]
    m = matcher(store, creator, clock)
    assert m.tick() == 0  # the lease holds
    clock[0] = NOW + 3 + LEASE
    assert m.tick() == 2
    assert {store.get(t).match_id for t in "ab"} == {first}
    assert len(creator.matches) == 1


def test_ticks_failing_on_redis_do_not_stop_the_matcher(store, monkeypatch):
    """The background loop outlives ticks that fail (here the first three reads of the
    pools), and matches once Redis answers again."""
    searching, failures = store.searching, [3]

    def flaky():
        if failures[0]:
            failures[0] -= 1
            raise redis.ConnectionError("Connection refused")
        return searching()

    monkeypatch.setattr(store, "searching", flaky)
    now = time.time()
    for tid in "ab":
        store.create(ticket(tid, created=now), f"req-{tid}", 5)
    m = Matcher(store, RecordingCreator(), POLICY, interval=0.01)
    m.start()
    try:
        with store.watch("b") as changes:
            deadline = time.monotonic() + 5
            while store.get("b").status != ASSIGNED and time.monotonic() < deadline:
                changes.wait(0.5)
    finally:
        m.stop()
    assert failures == [0] and statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
