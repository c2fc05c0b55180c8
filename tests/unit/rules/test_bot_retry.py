"""A bot seat's queued turn that is never taken (its worker died with it) is queued again
after BOT_RETRY_SECONDS, and again while it stays untaken; a turn taken in time is not.
(ARCHITECTURE.md, "A match's life": bots act through the same write path as players.)"""

import time

import pytest

from partida.rules.ledger import LocalLedger
from partida.rules.matches import BOT_RETRY_SECONDS, Matches
from partida.rules.session import MemorySessionStore

from .conftest import ALICE, BOTS, Dice, new_match, rid


class LosingScheduler:
    """Records every bot turn queued and never plays it: a broker whose worker died."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, int, int]] = []

    def schedule(self, match_id: str, seat: int, version: int, game_id: str, bot: str,
                 seen: object = None) -> None:
        self.queued.append((match_id, seat, version))


@pytest.fixture
def lost(store, clock):
    bots = LosingScheduler()
    return Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock), bots


def _bot_first(matches):
    """A match whose first decision is the bot seat's (seat 0)."""
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    assert matches.session(s.match_id).seats[0].controller == "bot"
    return s


def test_a_lost_bot_turn_is_queued_again_after_the_retry_time(lost, clock):
    matches, bots = lost
    s = _bot_first(matches)
    first = [q for q in bots.queued if q[0] == s.match_id]
    assert first and all(v == 0 for _, _, v in first)
    clock.now += BOT_RETRY_SECONDS / 2
    matches.expire_decisions()
    assert len([q for q in bots.queued if q[0] == s.match_id]) == len(first)  # not yet
    clock.now += BOT_RETRY_SECONDS / 2 + 0.1
    matches.expire_decisions()
    again = [q for q in bots.queued if q[0] == s.match_id]
    assert again[len(first):] == first  # the same seat and version: a harmless repeat
    clock.now += BOT_RETRY_SECONDS + 0.1
    matches.expire_decisions()
    assert len([q for q in bots.queued if q[0] == s.match_id]) == 3 * len(first)


def test_a_bot_turn_taken_in_time_is_not_queued_again(lost, clock):
    matches, bots = lost
    s = _bot_first(matches)
    version, state = matches.bot_state(s.match_id, 0)
    _, _, default, _ = matches.legal(s.match_id, 0, BOTS)
    clock.now += BOT_RETRY_SECONDS - 1
    matches.submit(s.match_id, 0, version, rid(), default, BOTS)  # the bot acts
    queued = len(bots.queued)
    clock.now += 2  # past the first decision's retry time, not the new one's
    matches.expire_decisions()
    assert len(bots.queued) == queued


def test_a_seat_handed_to_a_bot_is_watched_too(store, clock):
    bots = LosingScheduler()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)
    s = new_match(matches)  # two human seats, no timers: nothing to wake for
    assert matches.sessions.due_deadlines(clock.now + 3600, 10) == []
    assert matches.legal(s.match_id, 0, ALICE)[3] == (0,)  # first_seat 0
    matches.set_controller(s.match_id, 0, "bot", "heuristic", ALICE)
    assert len(bots.queued) == 1
    clock.now += BOT_RETRY_SECONDS + 0.1
    matches.expire_decisions()
    assert bots.queued == [bots.queued[0]] * 2


def test_a_decision_kept_by_a_worker_that_then_died_is_queued_after_the_retry_time(
        lost, clock):
    """keep_turn: the caller holds the seat's next decision, so none is queued for it; a
    worker that dies holding it is covered like a lost turn."""
    matches, bots = lost
    s = _bot_first(matches)
    seat = 0
    version = matches.session(s.match_id).version
    while True:  # play seat 0's decisions until one falls to it again at once, kept
        _, _, default, to_act = matches.legal(s.match_id, seat, BOTS)
        assert to_act == (seat,)
        result = matches.submit(s.match_id, seat, version, rid(), default, BOTS,
                                keep_turn=True)
        version = result.version
        if result.next_view is not None:
            break
    assert (s.match_id, seat, version) not in bots.queued
    clock.now += BOT_RETRY_SECONDS + 0.1
    matches.expire_decisions()
    assert bots.queued[-1] == (s.match_id, seat, version)


def test_an_index_lost_with_the_session_store_is_put_back_from_the_ledger(store, clock):
    """A session store that comes back empty (Redis restarted without persistence or flushed,
    the embedded server restarted) loses the index of deadlines and bot turns too. Matches
    nobody reads go on: their clocks run out and their bots are asked again (issue 3, turn
    timers; ARCHITECTURE.md, "A match's life", 5)."""
    clock.now = time.time()  # a rebuilt decision dates from its record, stamped by the database
    before = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), LosingScheduler(),
                     clock=clock)
    bots_turn = _bot_first(before)
    clocked = new_match(before, decision_timeout=30)  # Alice (seat 0) to act, on a 30 s clock
    unclocked = new_match(before)  # two humans, no clock: nothing to wake for
    over = new_match(before)
    before.resign(over.match_id, 0, rid(), ALICE)

    bots = LosingScheduler()  # the same records, an empty session store
    after = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)
    clock.now += 60  # the clock has run out, and the bot's turn is long overdue
    assert after.expire_decisions() == 0 and bots.queued == []  # nothing known to be due
    after.watch_clocks()  # puts the index back
    assert after.watch_clocks() == 1  # Alice's default is applied
    assert after.session(clocked.match_id).version == 1
    assert [q[0] for q in bots.queued] == [bots_turn.match_id]
    # Rebuilt, found with nothing to wake for, and not kept: nobody is playing it.
    assert after.sessions.load(unclocked.match_id) is None
    assert after.session(unclocked.match_id).version == 0
    due = after.sessions.due_deadlines(clock.now + 3600, 10)
    assert unclocked.match_id not in due and over.match_id not in due
    assert after.restore_lost_index() == 0  # once only: the index is whole again


def test_a_bot_turn_lost_with_the_session_store_is_asked_again_at_once(store, clock):
    """The embedded server's queue of bot turns dies with the process: after a restart the
    rebuilt match's bot was asked again only BOT_RETRY_SECONDS after its decision arose,
    the bots idle meanwhile. A rebuilt match's bot turn is queued at the first round."""
    clock.now = time.time()  # a rebuilt decision dates from its record, stamped by the database
    before = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), LosingScheduler(),
                     clock=clock)
    bots_turn = _bot_first(before)
    bots = LosingScheduler()  # restarted at once: the same records, an empty session store
    after = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)
    clock.now += 1
    after.watch_clocks()  # puts the index back
    after.watch_clocks()
    assert [q[0] for q in bots.queued] == [bots_turn.match_id]


def test_the_lost_index_is_put_back_page_by_page(store, clock):
    before = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), clock=clock)
    made = sorted(new_match(before).match_id for _ in range(5))
    after = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), clock=clock)
    assert after.restore_lost_index(page=2) == 5
    assert sorted(after.sessions.due_deadlines(clock.now, 10)) == made


class DownScheduler(LosingScheduler):
    """A broker out of reach: queueing fails, until it is back."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True

    def schedule(self, match_id: str, seat: int, version: int, game_id: str, bot: str,
                 seen: object = None) -> None:
        if self.down:
            raise ConnectionError("the broker is out of reach")
        super().schedule(match_id, seat, version, game_id, bot, seen)


def test_an_action_stands_when_its_bot_turn_cannot_be_queued(store, clock):
    bots = DownScheduler()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)
    s = new_match(matches, players=("alice",), bots=("heuristic",))  # Alice first
    while True:  # Alice plays until the bot is to act: that action's queueing fails
        session, _, default, _ = matches.legal(s.match_id, 0, ALICE)
        version = session.version
        result = matches.submit(s.match_id, 0, version, rid(), default, ALICE)
        assert result.version == version + 1  # acknowledged all the same
        if 1 in result.to_act:
            break
    assert bots.queued == []
    bots.down = False
    clock.now += BOT_RETRY_SECONDS + 0.1
    matches.expire_decisions()
    assert bots.queued == [(s.match_id, 1, result.version)]
