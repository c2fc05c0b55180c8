"""A match the rules service made but whose answer the matcher did not get before the
tickets expired (a slow answer, a timeout, a reply lost). Its players were told EXPIRED
while seated: the claim was released as soon as a failed creation found every ticket past
its expiry, and the next sweep expired them. The table is now asked again (the same request
id: the same match) and assigned. Over the in-memory store here; ExpiryRaces runs over Redis
too, in tests/integration/test_matchmaking_audit33_expiry.py."""

import threading
import time

import pytest

from partida.matchmaking.matcher import RETRY_SECONDS, UNANSWERED_SECONDS, Matcher
from partida.matchmaking.store import MemoryTicketStore
from partida.matchmaking.tickets import ASSIGNED, CLAIMED, EXPIRED
from partida.platform.errors import Unavailable
from tests.unit.matchmaking.factory import POLICY, CallFailed, RecordingCreator
from tests.unit.matchmaking.store_contract import NOW, new, pair, statuses

TTL = 10.0  # the tickets' time to live: they expire at NOW + TTL
LEASE = 30.0


class MadeThenFailed(RecordingCreator):
    """The rules service makes each match asked for, then, for the next `bad` calls, its
    answer fails: it comes `takes` seconds late (the clock moves on meanwhile), and then
    `how`: "lost" (the call timed out: no answer at all), or "refused" (it answered the
    table UNAVAILABLE, its session store failing after the match was recorded)."""

    def __init__(self, clock, *, how="lost", bad=1, takes=0.0):
        super().__init__()
        self.clock, self.how, self.bad, self.takes = clock, how, bad, takes
        self.calls = 0

    def create_matches(self, proposals):
        made = super().create_matches(proposals)
        with self.lock:
            self.calls += 1
            if not self.bad:
                return made
            self.bad -= 1
        self.clock[0] += self.takes
        if self.how == "lost":
            raise CallFailed()
        return [Unavailable("the session store is out of reach; retry") for _ in made]


class NeverAnswers(RecordingCreator):
    """Out of reach: every call fails as a whole, and nothing is made."""

    def create_matches(self, proposals):
        raise CallFailed()


def untold(store, creator):
    """The seats of matches made whose ticket does not say so: (match, seat, player, the
    ticket's status). Empty when every player was told of every match."""
    wrong = []
    for match_id, (_, _, seats) in sorted(creator.by_match().items()):
        for seat, (player, _) in enumerate(seats):
            t = store.get(player.removeprefix("p-"))
            if (t.status, t.match_id, t.seat) != (ASSIGNED, match_id, seat):
                wrong.append((match_id, seat, player, t.status))
    return wrong


def run(store, creator, clock, until, **kw):
    """Ticks every second of the fake clock up to `until`."""
    m = Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=1, **kw)
    while clock[0] < until:
        m.tick()
        clock[0] += 1.0
    return m


class ExpiryRaces:
    @pytest.mark.parametrize("how", ["lost", "refused"])
    def test_a_match_made_whose_answer_came_after_the_expiry_is_assigned(self, store, how):
        """Asked at NOW + 1, answered (badly) at NOW + 13, past both expiries: before the
        fix, the claim was released and the tickets expired, though seated."""
        new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
        clock = [NOW + 1]
        creator = MadeThenFailed(clock, how=how, takes=12.0)
        run(store, creator, clock, NOW + 13 + RETRY_SECONDS + 2)
        assert len(creator.matches) == 1
        assert untold(store, creator) == []
        assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]

    def test_a_match_made_whose_retries_past_the_expiry_time_out_too_is_assigned(self, store):
        """The rules service stays too slow for a while after the tickets expired: each ask
        times out, the match made all the same; it is assigned once an answer arrives."""
        new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
        clock = [NOW + 9]
        creator = MadeThenFailed(clock, bad=4, takes=2.0)  # answers the fifth call
        run(store, creator, clock, NOW + 60)
        assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
        assert creator.calls == 5 and len(creator.matches) == 1
        assert untold(store, creator) == []

    def test_a_claim_recovered_past_the_expiry_whose_ask_times_out_is_assigned(self, store):
        """The matcher that claimed a and b made their match and died. Another one takes the
        claim over once its lease ran out, past the tickets' expiry, and its ask times out:
        the claim is kept and asked again, not released to expire."""
        new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
        p = pair("a", "b")
        assert store.claim([p], NOW + 1, LEASE) == [True]
        clock = [NOW + 1 + LEASE]
        creator = MadeThenFailed(clock, takes=1.0)
        creator.create_match(p.game_id, p.scenario_id, p.seats, p.request_id)  # ... died
        run(store, creator, clock, NOW + 1 + LEASE + RETRY_SECONDS + 3)
        assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
        assert len(creator.matches) == 1 and untold(store, creator) == []

    def test_a_table_never_answered_expires_once_asking_past_the_expiry_is_given_up(
            self, store):
        """A ticket is not held for ever by a rules service out of reach: asked again up to
        UNANSWERED_SECONDS past the expiry, then released, and expired."""
        new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
        clock = [NOW + 1]
        m = run(store, NeverAnswers(), clock, NOW + TTL + UNANSWERED_SECONDS - 1)
        assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
        clock[0] = NOW + TTL + UNANSWERED_SECONDS + RETRY_SECONDS + 1
        m.tick(), m.tick()
        assert statuses(store, "a", "b") == [EXPIRED, EXPIRED]


class TestMemoryStore(ExpiryRaces):
    @pytest.fixture
    def store(self):
        return MemoryTicketStore()


class HeldThenLost(RecordingCreator):
    """Holds its first call until `go` is set; that call then makes the match and loses
    the reply (RecordingCreator.lose). Later calls answer at once."""

    def __init__(self):
        super().__init__()
        self.lose = 1
        self.go, self.holding = threading.Event(), threading.Event()

    def create_matches(self, proposals):
        if not self.holding.is_set():
            self.holding.set()
            assert self.go.wait(10)
        return super().create_matches(proposals)


def test_a_slow_call_that_outlasted_the_expiry_and_was_lost_leaves_its_table_assigned():
    """A call still running when its tick gave up waiting settles its table when it ends;
    here it ended past the expiry, its answer lost. Before, the late settlement released
    the claim (every ticket had expired by then), and the next sweep expired them."""
    store, creator, clock = MemoryTicketStore(), HeldThenLost(), [NOW + 1]
    new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
    m = Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=2,
                tick_wait_seconds=0.05)
    try:
        assert m.tick() == 0 and creator.holding.is_set()
        clock[0] = NOW + TTL + 5
        m.tick()  # the sweep leaves claimed tickets alone
        assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
        creator.go.set()  # the match is made, its reply lost, past the expiry
        deadline = time.monotonic() + 5
        while not store.get("a").final and time.monotonic() < deadline:
            time.sleep(0.02)
            clock[0] += 0.5
            m.tick()
        assert len(creator.matches) == 1
        assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
        assert untold(store, creator) == []
    finally:
        creator.go.set()
        m.stop()
