"""Each rules replica keeps a copy of the sessions it last wrote, so that an action on a match
it served last does not read the session back from Redis (RedisSessionStore.recent,
Matches._recent). Another replica may have moved the match on meanwhile: the copy must then
never decide anything the store would decide otherwise (ARCHITECTURE.md, "A match's life":
any replica may serve any call; stale versions are ABORTED, a repeat gets its first result).
Two replicas here are two Matches, each with its own store object on one real redis-server,
sharing the database."""

from __future__ import annotations

import pytest
import redis

from partida.dice.logic import Dice
from partida.persistence.store import PersistenceStore
from partida.platform.errors import Aborted, FailedPrecondition
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.redis_session import RedisSessionStore
from tests.unit.rules.conftest import ALICE, BOB, BOTS, Clock, new_match, rid, who


@pytest.fixture
def replicas(db, redis_url):
    clock = Clock()

    def replica() -> Matches:
        return Matches(RedisSessionStore.from_url(redis_url, idle_ttl=600), LocalLedger(db),
                       Dice(db), clock=clock)
    return replica(), replica()


def _turn(m: Matches, match_id: str) -> tuple[int, str, int]:
    """(seat to act, its default action, the version) as `m` reads the store."""
    s = m.session(match_id)
    seat = m.legal(match_id, 0, ALICE)[3][0]
    return seat, m.legal(match_id, seat, who(s.seats[seat].player_id))[2], s.version


def _act(m: Matches, match_id: str, request_id: str | None = None):
    seat, default, version = _turn(m, match_id)
    return m.submit(match_id, seat, version, request_id or rid(), default,
                    who(m.session(match_id).seats[seat].player_id))


def _logged(db: PersistenceStore, match_id: str) -> int:
    return len(db.get_match_log(match_id)[1])


def _reads(redis_url: str) -> int:
    stats = redis.Redis.from_url(redis_url).info("commandstats")
    return int(stats.get("cmdstat_hmget", {}).get("calls", 0))


def test_a_replica_acting_on_a_match_it_served_last_reads_no_session_back(replicas,
                                                                          redis_url):
    a, _ = replicas
    match_id = new_match(a).match_id
    _act(a, match_id)
    seat, default, version = _turn(a, match_id)
    before = _reads(redis_url)
    a.submit(match_id, seat, version, rid(), default, who(a.session(match_id).seats[seat]
                                                          .player_id))
    assert _reads(redis_url) == before


def test_a_copy_behind_the_store_does_not_refuse_a_caller_who_is_up_to_date(replicas, db):
    a, b = replicas
    match_id = new_match(a).match_id
    _act(a, match_id)          # a's copy: this version
    _act(b, match_id)          # b moves the match on
    seat, default, version = _turn(b, match_id)
    logged = _logged(db, match_id)
    r = a.submit(match_id, seat, version, rid(), default,
                 who(b.session(match_id).seats[seat].player_id))
    assert r.version == version + 1 and _logged(db, match_id) == logged + 1


def test_a_stale_caller_served_from_an_equally_stale_copy_is_aborted(replicas, db):
    a, b = replicas
    match_id = new_match(a).match_id
    _act(a, match_id)
    seat, default, version = _turn(a, match_id)  # the caller reads this version...
    player = who(a.session(match_id).seats[seat].player_id)
    _act(b, match_id)                             # ...and b moves on meanwhile
    logged = _logged(db, match_id)
    with pytest.raises(Aborted):
        a.submit(match_id, seat, version, rid(), default, player)
    assert _logged(db, match_id) == logged
    _act(a, match_id)  # a reads the store afresh and goes on
    assert _logged(db, match_id) == logged + 1
    assert a.session(match_id).version == b.session(match_id).version


def test_a_repeat_of_the_request_a_replica_kept_gets_its_first_result(replicas):
    a, b = replicas
    match_id = new_match(a).match_id
    first = _act(a, match_id, request_id="kept")
    _act(b, match_id)
    seat = first.seat
    again = a.submit(match_id, seat, first.version - 1, "kept", "whatever",
                     who(a.session(match_id).seats[seat].player_id))
    assert (again.version, again.events) == (first.version, first.events)


def _until_bob_decides(m: Matches, match_id: str) -> None:
    while 1 not in m.legal(match_id, 1, BOB)[3]:
        _act(m, match_id)


def test_a_seat_taken_back_on_another_replica_is_played_by_its_player(replicas, db):
    a, b = replicas
    match_id = new_match(a).match_id
    _until_bob_decides(a, match_id)
    a.set_controller(match_id, 1, "bot", "", BOB)   # a's copy: Bob's seat is a bot's
    b.set_controller(match_id, 1, "human", "", BOB)  # b gives it back to him
    s = b.session(match_id)
    default = b.legal(match_id, 1, BOB)[2]
    r = a.submit(match_id, 1, s.version, rid(), default, BOB)
    assert r.version == s.version + 1
    assert a.session(match_id).seats[1].controller == "human"


def test_a_seat_handed_to_a_bot_on_another_replica_is_not_played_by_its_player(replicas, db):
    a, b = replicas
    match_id = new_match(a).match_id
    _until_bob_decides(a, match_id)
    s = a.session(match_id)                         # a's copy: Bob plays his seat
    default = a.legal(match_id, 1, BOB)[2]
    b.set_controller(match_id, 1, "bot", "", BOB)   # b hands it to a bot
    logged = _logged(db, match_id)
    with pytest.raises(Aborted, match="changed hands"):
        a.submit(match_id, 1, s.version, rid(), default, BOB)
    assert _logged(db, match_id) == logged
    with pytest.raises(FailedPrecondition, match="handed to a bot"):  # a knows it now
        a.submit(match_id, 1, s.version, rid(), default, BOB)
    r = a.submit(match_id, 1, s.version, "bot-turn-x", default, BOTS)  # the bot's turn
    assert r.version == s.version + 1


def test_a_match_ended_on_another_replica_takes_no_action_from_a_copy(replicas, db):
    a, b = replicas
    match_id = new_match(a).match_id
    _act(a, match_id)
    seat, default, version = _turn(a, match_id)
    player = who(a.session(match_id).seats[seat].player_id)
    b.resign(match_id, 1, rid(), BOB)
    logged = _logged(db, match_id)
    with pytest.raises((Aborted, FailedPrecondition)):
        a.submit(match_id, seat, version, rid(), default, player)
    assert _logged(db, match_id) == logged
    assert a.session(match_id).status == "finished"


def test_an_action_from_a_copy_after_redis_lost_everything_stands_and_is_rebuilt(
        replicas, db, redis_url):
    a, _ = replicas
    match_id = new_match(a).match_id
    _act(a, match_id)
    redis.Redis.from_url(redis_url).flushall()
    r = _act(a, match_id)
    assert _logged(db, match_id) - 1 == r.version  # logged (the set-up is record 0)
    assert a.session(match_id).version == r.version  # rebuilt from the log
