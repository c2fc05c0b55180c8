"""A seat handed back to its player (SetSeatController) on one rules replica while another
replica is applying the bot's action for that seat: the bot's action must not stand, as the
seat was no longer the bot's when it was logged (ARCHITECTURE.md, "A match's life": a seat
can be handed to a bot and taken back). The log append carries who played each seat as the
acting replica read it, and the persistence store refuses it (ABORTED) once the match's
record says otherwise. Before, the append did not check seats: the action was logged, and so
stood, though the session commit after it lost."""

from __future__ import annotations

import pytest

from partida.dice.logic import Dice
from partida.persistence.service import PersistenceServicer
from partida.platform.auth import Authority
from partida.platform.errors import Aborted
from partida.platform.server import Registration, Server
from partida.rules.clients import LedgerClient
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore
from partida.v1 import persistence_pb2_grpc
from tests.support.serving import channel_to
from tests.unit.rules.conftest import BOB, BOTS, new_match, step


class Hooked:
    """Runs `before` once, right before the next append: while the acting replica has read
    the match and made its action but not yet logged it."""

    before = None

    def append_log(self, match_id, entries, controller=""):
        before, self.before = self.before, None
        if before is not None:
            before()
        super().append_log(match_id, entries, controller)  # type: ignore[misc]


class HookedLocal(Hooked, LocalLedger):
    pass


class HookedClient(Hooked, LedgerClient):
    pass


@pytest.fixture(params=["local", "remote"])
def replicas(request, store, clock):
    """Two rules replicas sharing the session store and the database; the first's appends
    are hooked. "remote": its ledger is the persistence service over gRPC."""
    sessions, dice = MemorySessionStore(), Dice(store)
    other = Matches(sessions, LocalLedger(store), dice, clock=clock)
    if request.param == "local":
        yield Matches(sessions, HookedLocal(store), dice, clock=clock), other
        return
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.PersistenceService", PersistenceServicer(store),
                       persistence_pb2_grpc.add_PersistenceServiceServicer_to_server)
    with channel_to(Server([reg], auth, "127.0.0.1:0")) as channel:
        ledger = HookedClient(channel, auth.service_token("rules"))
        yield Matches(sessions, ledger, dice, clock=clock), other


def test_a_bot_action_logged_after_its_seat_was_taken_back_is_refused(replicas, store):
    acting, other = replicas
    s = new_match(acting)
    while 1 not in acting.legal(s.match_id, 1, BOB)[3]:  # until seat 1 (Bob's) decides
        step(acting, s.match_id)
    acting.set_controller(s.match_id, 1, "bot", "", BOB)
    s = acting.session(s.match_id)
    _, _, default, _ = acting.legal(s.match_id, 1, BOTS)
    logged = len(store.get_match_log(s.match_id)[1])
    acting.ledger.before = lambda: other.set_controller(s.match_id, 1, "human", "", BOB)
    with pytest.raises(Aborted, match="seat changed hands"):
        acting.submit(s.match_id, 1, s.version, "bot-turn-1", default, BOTS)
    assert len(store.get_match_log(s.match_id)[1]) == logged  # nothing of it written
    after = acting.session(s.match_id)
    assert (after.version, after.seats[1].controller) == (s.version, "human")
    # Bob plays his seat on from there.
    _, _, default, _ = acting.legal(s.match_id, 1, BOB)
    assert acting.submit(s.match_id, 1, s.version, "bob-1", default, BOB).version == \
        s.version + 1


def test_an_action_under_unchanged_seats_is_kept(replicas, store):
    acting, _ = replicas
    s = new_match(acting)
    step(acting, s.match_id)
    assert [r.kind for r in store.get_match_log(s.match_id)[1]] == ["setup", "action"]
