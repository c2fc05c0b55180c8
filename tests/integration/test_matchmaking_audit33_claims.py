"""A claim whose record in Redis is gone (its keys evicted by a maxmemory policy, or
removed): its tickets stayed CLAIMED for good, their players waiting until their ticket's
keys expired. The claim is now recorded again from the copy of its proposal its tickets
keep, and finished with the same match. Against a real redis-server, the keys deleted
directly."""

import uuid

import pytest
import redis

from partida.matchmaking.matcher import RETRY_SECONDS, Matcher
from partida.matchmaking.pools import form_matches
from partida.matchmaking.store import RedisTicketStore
from partida.matchmaking.tickets import ASSIGNED, CLAIMED, EXPIRED, SEARCHING
from tests.unit.matchmaking.factory import POLICY, RecordingCreator
from tests.unit.matchmaking.store_contract import NOW, new, statuses

LEASE = 30.0  # the Matcher's default
TTL = 60.0


@pytest.fixture
def prefix():
    return f"{{mm-{uuid.uuid4().hex[:8]}}}"


@pytest.fixture
def store(redis_url, prefix):
    s = RedisTicketStore(redis_url, prefix=prefix, retain_seconds=120)
    yield s
    s.close()


@pytest.fixture
def r(redis_url):
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    client.close()


def matcher(store, creator, clock):
    return Matcher(store, creator, POLICY, clock=lambda: clock[0], workers=1)


def claimed_by_a_dead_matcher(store, creator):
    """a and b claimed at NOW + 1, their match made, and the matcher died."""
    new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
    [p] = form_matches(store.searching(), NOW + 1, POLICY)
    assert store.claim([p], NOW + 1, LEASE) == [True]
    return p, creator.create_match(p.game_id, p.scenario_id, p.seats, p.request_id)


def test_a_claim_whose_proposal_key_is_gone_is_finished_with_the_same_match(store, r, prefix):
    creator = RecordingCreator()
    p, first = claimed_by_a_dead_matcher(store, creator)
    assert r.delete(f"{prefix}:claim:{p.request_id}") == 1  # evicted
    clock = [NOW + 2 + LEASE]  # the lease ran out
    assert matcher(store, creator, clock).tick() == 2
    assert statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]
    assert {store.get(t).match_id for t in "ab"} == {first} and len(creator.matches) == 1


def test_a_postponed_claim_whose_proposal_key_is_gone_is_asked_again(store, r, prefix):
    """The creation failed (the matcher alive): its claim waits to be asked again, and its
    key is evicted meanwhile."""
    new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
    creator = RecordingCreator()
    creator.lose = 1  # made, the reply lost
    clock = [NOW + 1]
    m = matcher(store, creator, clock)
    assert m.tick() == 0 and statuses(store, "a", "b") == [CLAIMED, CLAIMED]
    [request_id] = creator.matches
    assert r.delete(f"{prefix}:claim:{request_id}") == 1
    clock[0] += RETRY_SECONDS + 1
    assert m.tick() == 2
    assert len(creator.matches) == 1 and statuses(store, "a", "b") == [ASSIGNED, ASSIGNED]


def test_a_claim_no_longer_listed_is_recorded_again_when_its_tickets_are_due(store, r, prefix):
    """Both keys of the claim gone (or the list of claims): nothing names the claim any
    more but its tickets; the sweep finds them at their expiry and records it again, and
    they end assigned to the match made, not stuck (nor expired while seated)."""
    creator = RecordingCreator()
    p, first = claimed_by_a_dead_matcher(store, creator)
    r.delete(f"{prefix}:claim:{p.request_id}", f"{prefix}:claims")
    clock = [NOW + 2 + LEASE]
    m = matcher(store, creator, clock)
    assert m.tick() == 0 and statuses(store, "a", "b") == [CLAIMED, CLAIMED]
    clock[0] = NOW + TTL
    assert m.tick() == 2
    assert {store.get(t).match_id for t in "ab"} == {first} and len(creator.matches) == 1


def test_tickets_of_a_lost_claim_without_a_copy_go_back_to_their_pool(store, r, prefix):
    """A ticket claimed by an older replica keeps no copy of the proposal: it is searching
    again (then matched, or expired), not stuck."""
    new(store, "a", ttl=TTL), new(store, "b", ttl=TTL)
    [p] = form_matches(store.searching(), NOW + 1, POLICY)
    assert store.claim([p], NOW + 1, LEASE) == [True]
    for t in "ab":
        r.hdel(f"{prefix}:t:{t}", "claimdoc")
    r.delete(f"{prefix}:claim:{p.request_id}")
    assert store.stale_claims(NOW + 2 + LEASE, LEASE) == []
    assert statuses(store, "a", "b") == [SEARCHING, SEARCHING]
    assert sorted(t.ticket_id for t in store.searching()) == ["a", "b"]
    store.expire(NOW + TTL)
    assert statuses(store, "a", "b") == [EXPIRED, EXPIRED]


def test_a_claim_with_its_keys_is_not_touched_by_the_sweep(store, r, prefix):
    """A guard: a claimed ticket past its expiry whose claim is recorded is left to it."""
    new(store, "a", ttl=10), new(store, "b", ttl=10)
    [p] = form_matches(store.searching(), NOW + 1, POLICY)
    assert store.claim([p], NOW + 1, LEASE) == [True]
    before = r.zscore(f"{prefix}:claims", p.request_id)
    assert store.expire(NOW + 20) == 0
    assert statuses(store, "a", "b") == [CLAIMED, CLAIMED]
    assert r.zscore(f"{prefix}:claims", p.request_id) == before
