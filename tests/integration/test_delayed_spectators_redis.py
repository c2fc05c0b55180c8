"""Delayed spectators with the live sessions on a real redis-server, read by another rules
replica: the delayed position they are told of (its version, its decision's deadline)
travels in the session, so every replica tells them the same; seats get the live one."""

from __future__ import annotations

from partida.dice.logic import Dice
from partida.platform.auth import PLAYER, Principal
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.redis_session import RedisSessionStore
from tests.unit.rules.conftest import ALICE, Clock, new_match, step

EVE = Principal(PLAYER, "eve")  # holds no seat: a spectator
DELAY, TIMEOUT = 3, 60


def test_another_replica_tells_a_delayed_spectator_the_delayed_position(db, redis_url):
    clock = Clock()
    a = Matches(RedisSessionStore.from_url(redis_url, idle_ttl=600), LocalLedger(db),
                Dice(db), clock=clock)
    b = Matches(RedisSessionStore.from_url(redis_url, idle_ttl=600), LocalLedger(db),
                Dice(db), clock=clock)  # another rules replica, on the same Redis
    match_id = new_match(a, decision_timeout=TIMEOUT, spectator_delay=DELAY).match_id
    deadlines = {0: a.session(match_id).deadline}
    for _ in range(5):  # replica A plays, 7 s apart
        clock.now += 7
        version = step(a, match_id)[2].version
        deadlines[version] = a.session(match_id).deadline
    live = b.session(match_id)
    shown = b.view(match_id, None, EVE)
    assert (shown.version, shown.deadline) == (live.version - DELAY,
                                               deadlines[live.version - DELAY])
    assert shown.deadline != live.deadline and shown.to_act
    assert b.version_for(live, EVE) == live.version - DELAY
    assert b.version_for(live, ALICE) == live.version
    seated = b.view(match_id, 0, ALICE)
    assert (seated.version, seated.deadline) == (live.version, live.deadline)
