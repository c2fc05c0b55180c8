"""The Redis TicketStore against a real redis-server: the shared contract, claim atomicity
across matcher replicas, expiry, and cancel racing a claim."""

import json
import random
import socket
import threading
import time
import uuid

import pytest
import redis
from redis.crc import key_slot

from partida.matchmaking.matcher import Matcher
from partida.matchmaking.pools import form_matches
from partida.matchmaking.store import RedisTicketStore
from partida.matchmaking.tickets import ASSIGNED, CANCELLED, EXPIRED, SEARCHING
from partida.platform import errors
from tests.unit.matchmaking.factory import POLICY, RecordingCreator, ticket
from tests.unit.matchmaking.store_contract import NOW, StoreContract, new, pair


@pytest.fixture
def prefix():
    return f"{{mm-{uuid.uuid4().hex[:8]}}}"  # tests share the server, not their keys


@pytest.fixture
def store(redis_url, prefix):
    s = RedisTicketStore(redis_url, prefix=prefix, retain_seconds=120)
    yield s
    s.close()


class TestRedisStore(StoreContract):
    pass


def test_ended_tickets_keep_their_keys_only_for_the_retention_time(store, redis_url, prefix):
    new(store, "a")
    r = redis.Redis.from_url(redis_url)
    assert r.ttl(f"{prefix}:t:a") > 300  # a searching ticket outlives its expiry
    store.cancel("a")
    assert 0 < r.ttl(f"{prefix}:t:a") <= 120


def test_every_key_of_the_store_lives_in_one_cluster_slot(store, redis_url, prefix):
    # Redis Cluster runs a script only over keys of one slot: the prefix's hash tag puts
    # every matchmaking key there (ARCHITECTURE.md, "State and storage").
    for tid in "abcd":
        new(store, tid, game="quest" if tid < "c" else "raid", seats=2 + (tid == "d"))
    assert store.claim([pair("a", "b")], now=NOW + 1, lease=30.0) == [True]
    store.cancel("c")
    r = redis.Redis.from_url(redis_url)
    keys = [k.decode() for k in r.keys(f"{prefix}*")]
    assert len(keys) >= 8
    assert {key_slot(k.encode()) for k in keys} == {key_slot(prefix.encode())}


def test_tickets_stored_before_the_campaign_fields_are_still_read(store, redis_url, prefix):
    """A rolling upgrade: tickets written by a matchmaker without the campaign fields (no
    hash fields, a shorter doc) are read and matched by the new one, with no campaign."""
    for tid in "ab":
        new(store, tid)
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    for tid in "ab":
        key = f"{prefix}:t:{tid}"
        r.hdel(key, "campaign_id", "campaign_team")
        r.hset(key, "doc", json.dumps(json.loads(r.hget(key, "doc"))[:-2]))
    old = store.get("a")
    assert old is not None and old.campaign_id == "" and old.status == SEARCHING
    assert sorted(t.ticket_id for t in store.searching()) == ["a", "b"]


def test_replicas_never_assign_a_ticket_twice(redis_url, prefix):
    """Four matchers share one pool; whatever the interleaving, no ticket is assigned twice
    and nothing matchable is left. Rounds repeat on fresh pools until the replicas were
    seen competing for a ticket (a loaded machine may let one thread take them all)."""
    competed = 0
    for round_ in range(5):
        competed = _replicas_round(redis_url, "{" + prefix.strip("{}") + f"-{round_}" + "}")
        if competed:
            break
    assert competed > 0  # the race this test is about did happen


def _replicas_round(redis_url, prefix) -> int:
    """One round of four replicas over 600 tickets; the invariants checked; how many claims
    were lost to another replica."""
    rng = random.Random(7)
    seed = RedisTicketStore(redis_url, prefix=prefix)
    tables = [("quest", "forest", 2), ("quest", "", 3), ("quest", "cave", 3),
              ("quest", "", 4), ("chess", "classic", 2)]
    for i in range(600):
        game, scenario, seats = rng.choice(tables)
        if scenario == "" and rng.random() < 0.5:
            scenario = rng.choice(["forest", "cave"]) if seats in (3, 4) else "forest"
        seed.create(ticket(f"t{i}", created=time.time(), game=game, scenario=scenario,
                           seats=seats, rating=rng.uniform(1400, 1600),
                           bots=rng.random() < 0.3, player=f"p{i}"), f"r{i}", 5)
    creator = RecordingCreator()
    creator.fail = 25  # some creations fail, so claims are also postponed and asked again
    stop, start, lost = threading.Event(), threading.Barrier(4), []

    def replica():
        own = RedisTicketStore(redis_url, prefix=prefix)  # its own connections
        claim = own.claim
        own.claim = lambda ps, now, lease: _count_lost(claim(ps, now, lease), lost)
        matcher = Matcher(own, creator, POLICY, workers=2)
        start.wait()
        while not stop.is_set():
            matcher.tick()
        own.close()

    threads = [threading.Thread(target=replica) for _ in range(4)]
    for t in threads:
        t.start()
    _wait_until_settled(seed, redis.Redis.from_url(redis_url), prefix)
    stop.set()
    for t in threads:
        t.join()

    tickets = [seed.get(f"t{i}") for i in range(600)]
    matches = creator.by_match()
    seated = [p for _, _, seats in matches.values() for p, _ in seats if p]
    assert len(seated) == len(set(seated))  # no player is in two matches
    assigned = [t for t in tickets if t.status == ASSIGNED]
    assert sorted(t.player_id for t in assigned) == sorted(seated)
    for t in assigned:
        game, scenario, seats = matches[t.match_id]
        assert (game, len(seats), seats[t.seat][0]) == (t.game_id, t.seats, t.player_id)
        assert t.scenario_id in ("", scenario)
    left = [t for t in tickets if t.status != ASSIGNED]
    assert all(t.status == SEARCHING for t in left)
    assert form_matches(left, time.time(), POLICY) == []  # nothing matchable was left
    assert len(assigned) > 500
    seed.close()
    return sum(lost)


def _count_lost(results, lost):
    lost.append(results.count(False))
    return results


def _wait_until_settled(store, r, prefix, timeout=60.0):
    """Until the pools stop shrinking and no claim is in flight."""
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = (len(store.searching()), r.zcard(f"{prefix}:claims"))
        if now == last and now[1] == 0:
            return
        last = now
    raise AssertionError("the matchers did not settle")


def test_a_matcher_expires_tickets_instead_of_matching_them(store):
    clock = [NOW + 10]
    new(store, "a", ttl=10), new(store, "b", ttl=60)
    matcher = Matcher(store, RecordingCreator(), POLICY, clock=lambda: clock[0])
    assert matcher.tick() == 0
    assert [store.get(t).status for t in "ab"] == [EXPIRED, SEARCHING]
    assert [t.ticket_id for t in store.searching()] == ["b"]


def test_cancel_racing_a_claim_has_exactly_one_winner(redis_url, prefix):
    creator, rng = RecordingCreator(), random.Random(3)
    stores = [RedisTicketStore(redis_url, prefix=prefix) for _ in range(2)]
    matcher = Matcher(stores[0], creator, POLICY, clock=lambda: NOW + 1)
    outcomes, tick_time, i = set(), 0.002, 0
    # Rounds go on until both sides have won at least once: the cancel starts at a random
    # moment within a tick, so sometimes before the claim and sometimes after it.
    while i < 40 or (len(outcomes) < 2 and i < 400):
        i += 1
        a, b = f"a{i}", f"b{i}"
        new(stores[1], a), new(stores[1], b)
        go, cancelled, delay = threading.Barrier(2), [], rng.uniform(0, tick_time)
        canceller = threading.Thread(target=_cancel_at, args=(go, delay, stores[1], a,
                                                              cancelled))
        canceller.start()
        go.wait()
        started = time.perf_counter()
        matcher.tick()
        tick_time = max(tick_time, time.perf_counter() - started)
        canceller.join()
        seated = {p for _, _, seats in creator.by_match().values() for p, _ in seats}
        final = stores[1].get(a).status
        if cancelled == [CANCELLED]:  # the cancel won: a was never matched, b still waits
            assert (final, f"p-{a}" in seated, stores[1].get(b).status) == (
                CANCELLED, False, SEARCHING)
            stores[1].cancel(b)
        else:  # the claim won: the cancel was refused and the match stands
            assert (final, f"p-{a}" in seated) == (ASSIGNED, True)
        outcomes.add(final)
    for s in stores:
        s.close()
    assert outcomes == {CANCELLED, ASSIGNED}


def _cancel_at(go, delay, store, ticket_id, out):
    go.wait()
    time.sleep(delay)
    out.append(store.cancel(ticket_id).status)


def test_claims_from_a_stale_batch_fail_once_tickets_moved_on(store):
    new(store, "a"), new(store, "b"), new(store, "c")
    snapshot = store.searching()
    store.claim([pair("a", "b")], NOW, 30)
    stale = form_matches(snapshot, NOW + 1, POLICY)  # a replica reading before the claim
    assert [p.ticket_ids for p in stale] == [("a", "b")]
    assert store.claim(stale, NOW + 1, 30) == [False]


def test_redis_out_of_reach_is_unavailable_not_unknown():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{s.getsockname()[1]}/0"
    store = RedisTicketStore(url)
    with pytest.raises(errors.Unavailable) as refused:
        store.get("a")
    # What a caller is told: Redis's own error named the store's host and port to clients.
    assert url.split("//")[1].split("/")[0] not in str(refused.value)
    with pytest.raises(errors.Unavailable):
        store.create(ticket("a"), "r", 5)
    store.close()


def test_followers_re_read_when_the_subscriber_comes_back(store, redis_url):
    """A change announced while the store's subscriber was cut off from Redis is never
    heard, so once the subscription is back every follower is woken to re-read (WatchTicket
    need not poll often to catch such a change)."""
    new(store, "a")
    with store.watch("a") as changes:
        assert not changes.wait(0.05)
        killed = redis.Redis.from_url(redis_url).client_kill_filter(_type="pubsub")
        assert killed >= 1
        started = time.monotonic()
        assert changes.wait(5)  # no change to the ticket: the resubscription woke it
        assert time.monotonic() - started < 4
        store.cancel("a")
        assert changes.wait(5)  # and announcements are heard again
