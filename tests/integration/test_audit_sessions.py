"""Live sessions on a real redis-server, found by an audit: what a rebuild from the log must
give back as the live session had it (ARCHITECTURE.md, "State and storage": a match lost from
Redis is rebuilt from the log; abandoned matches expire)."""

from __future__ import annotations

import uuid

import pytest
import redis

from partida.dice.logic import Dice
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.redis_session import RedisSessionStore
from partida.rules.session import MemorySessionStore, SeatMeta, Session
from tests.support.ledgers import PausingLedger
from tests.unit.rules.conftest import ALICE, Clock, new_match, play_defaults, rid, who


def _act(matches: Matches, match_id: str) -> int:
    """The seat to act plays its default; returns how many events the action made."""
    s = matches.session(match_id)
    seat = matches.legal(match_id, 0, ALICE)[3][0]
    player = who(s.seats[seat].player_id)
    default = matches.legal(match_id, seat, player)[2]
    matches.submit(match_id, seat, s.version, rid(), default, player)
    return matches.session(match_id).event_seq - s.event_seq


def _act_with_events(matches: Matches, match_id: str) -> None:
    for _ in range(200):
        if _act(matches, match_id):
            return
    raise AssertionError("no action with events")


def test_events_of_an_action_whose_session_commit_was_lost_are_still_followed(db, redis_url):
    """Replica A logs an action; replica B, which read the same version, loses the log race
    and drops the session meanwhile, so A's session commit fails and the action's events
    never reach the Redis stream (the next read rebuilds the session from the log). A
    follower just before them must get them from the log, not be told that the stream holds
    everything after it and be handed the next action's events across the hole."""
    sessions = RedisSessionStore.from_url(redis_url, idle_ttl=600)
    ledger = PausingLedger(db)
    a = Matches(sessions, ledger, Dice(db), clock=Clock())
    b = Matches(sessions, ledger, Dice(db), clock=Clock())  # another rules replica
    match_id = new_match(a).match_id
    _act_with_events(a, match_id)
    followed = a.session(match_id).event_seq

    def replica_b_acts_at_the_same_version() -> None:
        s = b.session(match_id)  # A's action is logged, its session not yet written
        seat = b.legal(match_id, 0, ALICE)[3][0]
        player = who(s.seats[seat].player_id)
        with pytest.raises(Exception, match="another action was applied first"):
            b.submit(match_id, seat, s.version, rid(), b.legal(match_id, seat, player)[2],
                     player)

    ledger.then = replica_b_acts_at_the_same_version
    _act_with_events(a, match_id)  # its commit fails: the log has it, Redis not
    assert ledger.then is None
    _act_with_events(a, match_id)  # after the rebuild: into the stream again
    last = a.session(match_id).event_seq
    events, _, _ = a.events(match_id, 0, ALICE, followed, 0)
    assert [e["seq"] for e in events] == list(range(followed + 1, last + 1))


def _session(match_id: str, version: int, event_seq: int) -> Session:
    return Session(match_id, "montanas", "standard", [SeatMeta("a")], {}, "00", 0.0, 0, 0,
                   version=version, event_seq=event_seq)


def _events(first: int, n: int, version: int) -> list[dict]:
    return [{"seq": i, "version": version, "kind": "k", "data": {}}
            for i in range(first, first + n)]


@pytest.mark.parametrize("kind", ["redis", "memory"])
def test_a_store_holding_events_with_a_hole_says_it_is_incomplete(kind, redis_url):
    """The store's side of the finding above, for both stores: events 3 and 4 never
    committed (the session was dropped and rebuilt at version 2), then 5 and 6: a follower
    after 2 is told to read the log; one after 4 is not."""
    store = (RedisSessionStore.from_url(redis_url, idle_ttl=60) if kind == "redis"
             else MemorySessionStore())
    mid = uuid.uuid4().hex
    store.create(_session(mid, 0, 0))
    assert store.commit(_session(mid, 1, 2), 0, _events(1, 2, 1), "", "")
    store.invalidate(mid)
    assert store.create(_session(mid, 2, 4))  # rebuilt: version 2's events are in the log
    assert store.commit(_session(mid, 3, 6), 2, _events(5, 2, 3), "", "")
    found, complete = store.events_after(mid, 2, 0)
    assert [e["seq"] for e in found] == [5, 6] and not complete
    found, complete = store.events_after(mid, 4, 0)
    assert [e["seq"] for e in found] == [5, 6] and complete


def test_a_finished_match_rebuilt_from_the_log_is_kept_for_the_finished_ttl(db, redis_url):
    """A read of a finished match whose session went rebuilds it; like the memory store and
    like the commit that ended it, Redis keeps it FINISHED_TTL, not the IDLE_TTL of a match
    that may go on."""
    sessions = RedisSessionStore.from_url(redis_url, idle_ttl=6000, finished_ttl=60)
    matches = Matches(sessions, LocalLedger(db), Dice(db), clock=Clock())
    match_id = new_match(matches).match_id
    play_defaults(matches, match_id)
    client = redis.Redis.from_url(redis_url)
    key = f"match:{{{match_id}}}:session"
    assert 0 < client.ttl(key) <= 60
    sessions.invalidate(match_id)
    assert matches.session(match_id).status == "finished"  # rebuilt
    assert 0 < client.ttl(key) <= 60


def test_creating_a_session_already_there_leaves_it_and_its_lifetime(redis_url):
    """A create that finds the session (another replica rebuilt it first) changes nothing:
    not the session, and not its time to live (a finished one's must not grow back)."""
    store = RedisSessionStore.from_url(redis_url, idle_ttl=6000, finished_ttl=60)
    client = redis.Redis.from_url(redis_url)
    mid = uuid.uuid4().hex
    end = _session(mid, 3, 5)
    end.status = "finished"
    assert store.create(end)
    key = f"match:{{{mid}}}:session"
    assert 0 < client.ttl(key) <= 60
    assert not store.create(_session(mid, 3, 5))
    assert 0 < client.ttl(key) <= 60 and store.load(mid) == end
