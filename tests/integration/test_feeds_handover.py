"""A seat handed to a bot and taken back (SetSeatController) while another rules replica
applies an action of the match, on the embedded store and on a real redis-server alike."""

from __future__ import annotations

import pytest

from partida.dice.logic import Dice
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform.errors import PermissionDenied
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.redis_session import RedisSessionStore
from partida.rules.session import MemorySessionStore
from tests.support.ledgers import PausingLedger
from tests.unit.rules.conftest import ALICE, BOB, BOTS, Clock, new_match, step


@pytest.fixture(params=["memory", "redis"])
def replicas(request, tmp_path):
    """Two rules replicas, A and B, on one session store and one database; B's ledger
    lets a test run something between its log append and its session commit."""
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    db = PersistenceStore(engine)
    if request.param == "memory":
        shared = MemorySessionStore()
        sessions = (shared, shared)
    else:
        url = request.getfixturevalue("redis_url")
        sessions = (RedisSessionStore.from_url(url, idle_ttl=600),
                    RedisSessionStore.from_url(url, idle_ttl=600))
    clock = Clock()
    a = Matches(sessions[0], LocalLedger(db), Dice(db), clock=clock)
    b = Matches(sessions[1], PausingLedger(db), Dice(db), clock=clock)
    return a, b


def _bobs_turn(a: Matches) -> str:
    """A match of Alice (seat 0) and Bob (seat 1) played on until Bob's seat is to act."""
    match_id = new_match(a).match_id
    while a.legal(match_id, 1, BOB)[3] != (1,):
        step(a, match_id)
    return match_id


def _bot_submits(m: Matches, match_id: str) -> None:
    s = m.session(match_id)
    default = m.legal(match_id, 1, BOB)[2]
    m.submit(match_id, 1, s.version, f"bot:{s.version}:1:{match_id}", default, BOTS)


def test_a_seat_taken_back_while_its_bot_acts_elsewhere_stays_taken_back(replicas):
    """Bob takes his seat back on replica A just as its bot's action, checked before, is
    applied on replica B. B's session write, from the session it read before, put the seat
    back in the bot's hands: the bot went on playing Bob's seat (and Bob was refused with
    "handed to a bot") though his call had succeeded and the record said his."""
    a, b = replicas
    match_id = _bobs_turn(a)
    a.set_controller(match_id, 1, "bot", "", BOB)
    b.ledger.then = lambda: a.set_controller(match_id, 1, "human", "", BOB)
    _bot_submits(b, match_id)
    live = a.session(match_id)
    assert live.seats[1].controller == "human"
    assert a.ledger.load_match(match_id)[0].seats[1].controller == "human"
    if 1 in a.legal(match_id, 0, ALICE)[3]:  # the bot may no longer act for Bob
        with pytest.raises(PermissionDenied):
            _bot_submits(a, match_id)


def test_a_seat_handed_to_a_bot_while_another_replica_acts_stays_the_bots(replicas):
    """The other way round: a seat handed to a bot on A while B applies an action read
    before went back to its absent player in the session, and its bot was never asked."""
    a, b = replicas
    match_id = _bobs_turn(a)
    b.ledger.then = lambda: a.set_controller(match_id, 0, "bot", "", ALICE)
    step(b, match_id)  # Bob plays on B; Alice hands her seat to a bot on A meanwhile
    assert a.session(match_id).seats[0].controller == "bot"
    assert b.session(match_id).seats[0].controller == "bot"
