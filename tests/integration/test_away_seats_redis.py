"""A seat handed to its bot after its player missed decisions (Matches._miss), on the Redis
session store with two rules replicas: the handover changes the seats as SetSeatController
does, so the store's compare-and-set of seats takes it, and the replica that served the
player before refuses her too, until she takes the seat back (issue 3: a seat whose player
disconnects can be handed to a bot and taken back)."""

from __future__ import annotations

import pytest

from partida.dice.logic import Dice
from partida.platform.errors import FailedPrecondition
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.redis_session import RedisSessionStore
from tests.unit.rules.conftest import ALICE, BOB, Clock, new_match, rid
from tests.unit.rules.test_bot_turns import KeepingScheduler


@pytest.fixture
def replicas(db, redis_url):
    clock = Clock()

    def replica() -> Matches:
        return Matches(RedisSessionStore.from_url(redis_url, idle_ttl=600), LocalLedger(db),
                       Dice(db), KeepingScheduler(), clock=clock, default_timeout=30)
    return clock, replica(), replica()


def _to_act(m: Matches, match_id: str) -> int:
    return m.legal(match_id, 0, ALICE)[3][0]


def test_the_handover_is_stored_and_the_other_replica_refuses_the_player_until_she_is_back(
        replicas, db):
    clock, a, b = replicas
    match_id = new_match(a, bot_after_missed=1).match_id  # alice (seat 0) first
    live, _, default, _ = a.legal(match_id, 0, ALICE)  # a's copy: alice to act, hers
    clock.now = b.session(match_id).deadline + 1
    assert b.expire_decisions() == 1  # b plays her default, and hands her seat over
    assert b.session(match_id).seats[0].controller == "bot"
    assert a.session(match_id).seats[0].controller == "bot"  # read from Redis
    assert db.get_match(match_id).seats[0].controller == "bot"
    while _to_act(b, match_id) != 0:  # bob plays until the seat decides again
        look, _, bobs, _ = b.legal(match_id, 1, BOB)
        b.submit(match_id, 1, look.version, rid(), bobs, BOB)
    version = b.session(match_id).version
    _, _, default, _ = b.legal(match_id, 0, ALICE)
    with pytest.raises(FailedPrecondition, match="handed to a bot"):
        a.submit(match_id, 0, version, rid(), default, ALICE)
    assert b.session(match_id).version == version and len(db.get_match_log(match_id)[1]) == \
        version + 1
    a.set_controller(match_id, 0, "human", "", ALICE)  # she is back
    assert b.session(match_id).seats[0].controller == "human"
    assert a.submit(match_id, 0, version, rid(), default, ALICE).version == version + 1
