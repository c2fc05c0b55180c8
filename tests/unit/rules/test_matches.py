"""The rules service's logic over real in-process parts (ARCHITECTURE.md, "A match's life")."""

import hashlib
import time

import pytest

from partida.dice import streams
from partida.dice.logic import Dice
from partida.platform.errors import (
    Aborted,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Unavailable,
)
from partida.rules.ledger import LocalLedger, to_match
from partida.rules.matches import RETRY_FAILED_SECONDS, Matches
from partida.rules.session import MemorySessionStore

from .conftest import ALICE, BOB, BOTS, new_match, play_defaults, rid


def test_create_publishes_a_commitment_and_logs_the_setup(matches, store):
    s = new_match(matches)
    assert s.version == 0 and s.status == "active"
    match, log = store.get_match_log(s.match_id)
    assert [r.kind for r in log] == ["setup"] and log[0].random_values
    assert match.dice_commitment.hex() == s.commitment


def test_a_repeated_create_request_returns_the_same_match(matches):
    a = new_match(matches, request_id="create-1")
    b = new_match(matches, request_id="create-1")
    assert a.match_id == b.match_id


def test_a_create_retried_after_its_session_was_lost_keeps_the_first_set_up(matches, store):
    first = new_match(matches, request_id="create-2")
    matches.sessions.invalidate(first.match_id)  # e.g. Redis flushed before the retry
    again = new_match(matches, request_id="create-2")
    assert (again.match_id, again.state) == (first.match_id, first.state)
    assert [r.sequence for r in store.get_match_log(first.match_id)[1]] == [0]


def test_a_persistence_service_that_ignores_the_set_up_still_gets_it(store, clock):
    """A persistence service from before RecordMatch carried the set-up records the match
    alone (its reply then says nothing was written): the set-up is appended after it."""

    class OlderLedger(LocalLedger):
        def record_match(self, session, setup):
            self.store.record_match(to_match(session))
            return False

    older = Matches(MemorySessionStore(), OlderLedger(store), Dice(store), clock=clock)
    s = new_match(older)
    assert [r.kind for r in store.get_match_log(s.match_id)[1]] == ["setup"]
    assert play_defaults(older, s.match_id).status == "finished"  # the log chains on from it


def test_bad_creations_are_refused(matches):
    with pytest.raises(InvalidArgument):
        matches.create("chess", "standard", [], {})
    with pytest.raises(InvalidArgument):
        new_match(matches, players=["p"] * 6)
    with pytest.raises(InvalidArgument):
        new_match(matches, scenario="nope")


def test_only_the_seats_player_acts(matches):
    s = new_match(matches)
    _, _, default, _ = matches.legal(s.match_id, 0, ALICE)
    before = matches.session(s.match_id)
    with pytest.raises(PermissionDenied):
        matches.submit(s.match_id, 0, 0, rid(), default, BOB)
    with pytest.raises(PermissionDenied):
        matches.submit(s.match_id, 0, 0, rid(), default, BOTS)  # seat 0 is not a bot seat
    with pytest.raises(PermissionDenied):
        matches.submit(s.match_id, 0, 0, rid(), default, None)
    assert matches.session(s.match_id).to_json() == before.to_json()


def test_stale_version_is_aborted_and_changes_nothing(matches):
    s = new_match(matches)
    _, _, default, _ = matches.legal(s.match_id, 0, ALICE)
    matches.submit(s.match_id, 0, 0, rid(), default, ALICE)
    before = matches.session(s.match_id).to_json()
    with pytest.raises(Aborted):
        matches.submit(s.match_id, 0, 0, rid(), default, ALICE)
    assert matches.session(s.match_id).to_json() == before


def test_a_repeated_request_id_returns_the_first_result(matches, store):
    s = new_match(matches)
    _, _, default, _ = matches.legal(s.match_id, 0, ALICE)
    first = matches.submit(s.match_id, 0, 0, "same", default, ALICE)
    again = matches.submit(s.match_id, 0, 0, "same", default, ALICE)
    assert (again.version, again.events, again.to_act) == (first.version, first.events,
                                                           first.to_act)
    assert again.next_actions == []  # a repeat lists its next actions afresh
    matches.sessions = type(matches.sessions)()  # Redis flushed: the log still answers
    again = matches.submit(s.match_id, 0, 0, "same", default, ALICE)
    assert again.version == first.version and again.events == first.events
    assert len(store.get_match_log(s.match_id)[1]) == 2


def test_illegal_action_is_refused_with_the_engines_reason(matches):
    s = new_match(matches)
    with pytest.raises(FailedPrecondition, match="not a legal action"):
        matches.submit(s.match_id, 0, 0, rid(), "play:99:m0", ALICE)
    with pytest.raises(InvalidArgument):
        matches.submit(s.match_id, 0, 0, rid(), "", ALICE)
    with pytest.raises(InvalidArgument):
        matches.submit(s.match_id, 0, 0, "", "end", ALICE)
    with pytest.raises(NotFound):
        matches.submit("no-such-match", 0, 0, rid(), "end", ALICE)


def test_a_lost_session_is_rebuilt_from_the_log(matches):
    s = new_match(matches)
    for _ in range(40):
        cur = matches.session(s.match_id)
        _, _, _, to_act = matches.legal(s.match_id, 0, ALICE)
        principal = ALICE if to_act[0] == 0 else BOB
        _, actions, _, _ = matches.legal(s.match_id, to_act[0], principal)
        matches.submit(s.match_id, to_act[0], cur.version, rid(), actions[-1].id, principal)
    live = matches.session(s.match_id)
    matches.sessions.invalidate(s.match_id)
    rebuilt = matches.session(s.match_id)
    assert rebuilt.state == live.state and rebuilt.version == live.version
    assert rebuilt.event_seq == live.event_seq


def test_the_end_reveals_the_seed_and_every_value_verifies(matches, store):
    s = new_match(matches)
    end = play_defaults(matches, s.match_id)
    assert end.status == "finished" and end.outcome is not None
    seed = bytes.fromhex(end.seed)
    assert hashlib.sha256(seed).hexdigest() == end.commitment
    match, log = store.get_match_log(s.match_id)
    assert match.status == "finished" and match.dice_seed == seed
    drawn = [(p, v) for r in log for p, v in zip(r.random_positions, r.random_values, strict=True)]
    assert drawn and streams.verify(bytes.fromhex(end.commitment), seed, s.match_id, drawn) == []
    with pytest.raises(FailedPrecondition):
        matches.submit(s.match_id, 0, end.version, rid(), "end", ALICE)


def test_views_redact_nothing_public_and_spectators_may_lag(matches):
    s = new_match(matches, spectator_delay=3)
    for _ in range(6):
        cur = matches.session(s.match_id)
        _, _, default, to_act = matches.legal(s.match_id, 0, ALICE)
        principal = ALICE if to_act[0] == 0 else BOB
        _, _, default, _ = matches.legal(s.match_id, to_act[0], principal)
        matches.submit(s.match_id, to_act[0], cur.version, rid(), default, principal)
    cur = matches.session(s.match_id)
    assert cur.spectator["version"] == cur.version - 3
    events, _, _ = matches.events(s.match_id, None, ALICE, 0, 0)
    assert events and max(e["version"] for e in events) <= cur.version - 3
    seat_events, _, _ = matches.events(s.match_id, 0, ALICE, 0, 0)
    assert max(e["version"] for e in seat_events) == cur.version
    with pytest.raises(PermissionDenied):
        matches.events(s.match_id, 1, ALICE, 0, 0)


def test_decisions_time_out_to_their_default(matches, clock):
    s = new_match(matches, decision_timeout=30)
    assert matches.expire_decisions() == 0
    clock.now += 31
    assert matches.expire_decisions() == 1
    cur = matches.session(s.match_id)
    assert cur.version == 1 and cur.deadline == clock.now + 30


def _act_default(matches, match_id):
    cur = matches.session(match_id)
    seat = matches.legal(match_id, 0, ALICE)[3][0]
    principal = ALICE if seat == 0 else BOB
    _, _, default, _ = matches.legal(match_id, seat, principal)
    matches.submit(match_id, seat, cur.version, rid(), default, principal)


def test_later_deadlines_leave_the_index_early_and_an_early_entry_is_re_armed(matches, clock):
    """The deadline index holds a time at or before each match's real deadline: actions
    that push the deadline later do not rewrite it; finding it early re-arms it, and the
    decision still times out at its real deadline."""
    s = new_match(matches, decision_timeout=30)
    first = clock.now + 30
    for _ in range(3):
        clock.now += 9
        _act_default(matches, s.match_id)
    real = matches.session(s.match_id).deadline
    assert real == clock.now + 30 and matches.sessions.due_deadlines(first, 10) == [s.match_id]
    clock.now = first + 1  # the indexed time has passed, the real deadline has not
    version = matches.session(s.match_id).version
    assert matches.expire_decisions() == 0 and matches.session(s.match_id).version == version
    assert matches.sessions.due_deadlines(clock.now, 10) == []  # re-armed to the real one
    clock.now = real + 1
    assert matches.expire_decisions() == 1
    assert matches.session(s.match_id).version == version + 1


class PatchyLedger(LocalLedger):
    """The durable record, but the logs of the `unreadable` matches cannot be read (a
    persistence replica's hiccup, a log the engine cannot replay)."""

    def __init__(self, store) -> None:
        super().__init__(store)
        self.unreadable: set[str] = set()

    def load_match(self, match_id):
        if match_id in self.unreadable:
            raise Unavailable("the log cannot be read just now")
        return super().load_match(match_id)


def test_a_match_whose_clock_fails_holds_up_no_other_clock(store, clock):
    """The round that applies timed-out defaults stopped at the first match that failed, so
    one match that could not be rebuilt stopped every clock of the replica after it, for as
    long as it failed."""
    clock.now = time.time()  # a rebuilt decision dates from its record, stamped by the database
    ledger = PatchyLedger(store)
    matches = Matches(MemorySessionStore(), ledger, Dice(store), clock=clock)
    failing = new_match(matches, decision_timeout=10)
    clock.now += 1
    healthy = new_match(matches, decision_timeout=10)  # due after the failing one
    matches.sessions.invalidate(failing.match_id)  # to be rebuilt from a log...
    ledger.unreadable.add(failing.match_id)  # ...that cannot be read
    clock.now += 20
    assert matches.expire_decisions() == 1
    assert matches.session(healthy.match_id).version == 1
    # Tried again later, not in every round meanwhile; it times out once it can be read.
    assert failing.match_id not in matches.sessions.due_deadlines(clock.now, 10)
    ledger.unreadable.clear()
    clock.now += RETRY_FAILED_SECONDS
    assert matches.expire_decisions() == 1
    assert matches.session(failing.match_id).version == 1


class DownDice(Dice):
    """Dice whose service is out of reach for reveals while `down`."""

    down = False

    def reveal(self, match_id: str) -> bytes:
        if self.down:
            raise Unavailable("the dice service is out of reach")
        return super().reveal(match_id)


def test_a_match_ended_while_the_dice_were_out_of_reach_is_closed_unread(store, clock):
    """The action that ends a match is durable before the seed is revealed and the match
    closed. Should either fail, the end was left to the next read: a match nobody read again
    stayed open in the record, unrated, its seed never revealed."""
    clock.now = time.time()  # a rebuilt decision dates from its record, stamped by the database
    dice = DownDice(store)
    matches = Matches(MemorySessionStore(), LocalLedger(store), dice, clock=clock)
    s = new_match(matches)  # two humans, no clock: nothing else would wake the match
    dice.down = True
    with pytest.raises(Unavailable):
        matches.resign(s.match_id, 1, rid(), BOB)
    assert store.get_match(s.match_id).status == "active"
    dice.down = False
    clock.now += RETRY_FAILED_SECONDS
    matches.expire_decisions()
    assert store.get_match(s.match_id).status == "finished"
    assert store.get_match(s.match_id).dice_seed


def test_a_finished_match_leaves_the_deadline_index(matches, clock):
    s = new_match(matches, decision_timeout=30)
    matches.resign(s.match_id, 1, rid(), BOB)
    assert matches.sessions.due_deadlines(clock.now + 3600, 10) == []


def test_a_rebuilt_session_indexes_its_deadline_again(matches, clock):
    """Sessions and the index flushed together (one Redis): the rebuild re-indexes."""
    s = new_match(matches, decision_timeout=30)
    _act_default(matches, s.match_id)
    matches.sessions = MemorySessionStore()
    matches.session(s.match_id)  # a read rebuilds the session (its clock restarts)
    clock.now += 31
    assert matches.expire_decisions() == 1


def test_resign_ends_the_match(matches, store):
    s = new_match(matches)
    result = matches.resign(s.match_id, 1, rid(), BOB)
    assert result.outcome["winners"] == [] and "seat 1" in result.outcome["reason"]
    assert store.get_match(s.match_id).status == "finished"


def test_bot_seats_are_acted_for_by_services_only(matches):
    s = new_match(matches, players=["alice"], bots=["heuristic"])
    cur = matches.session(s.match_id)
    assert cur.seats[1].controller == "bot"
    version, state = matches.bot_state(s.match_id, 1)
    assert version == 0 and state["hands"] == cur.state["hands"]
    with pytest.raises(FailedPrecondition):
        matches.bot_state(s.match_id, 0)


def test_a_seat_handed_to_a_bot_and_taken_back(matches):
    s = new_match(matches)
    matches.set_controller(s.match_id, 1, "bot", "heuristic", BOB)
    assert matches.session(s.match_id).seats[1].controller == "bot"
    with pytest.raises(PermissionDenied):
        matches.set_controller(s.match_id, 1, "human", "", ALICE)
    matches.set_controller(s.match_id, 1, "human", "", BOB)
    assert matches.session(s.match_id).seats[1].controller == "human"


def test_a_seat_handed_to_a_bot_stays_a_bots_after_a_rebuild(matches, store):
    s = new_match(matches)
    matches.set_controller(s.match_id, 1, "bot", "random", BOB)
    matches.sessions.invalidate(s.match_id)  # e.g. Redis flushed
    rebuilt = matches.session(s.match_id)
    assert (rebuilt.seats[1].controller, rebuilt.seats[1].bot) == ("bot", "random")
    assert store.get_match(s.match_id).seats[1].controller == "bot"


def test_seats_carry_the_sides_dealt_at_the_set_up(matches, store):
    """Seat.side ("the side the seat plays") was always empty: the rules service knew no
    sides. ¿Pasarán? deals seat 0 the Republic and seat 1 the Nationalists (its scenario);
    Dynamit Joe's arrest (rulebook 9.1) seats the law and the thieves in turn. The sides
    reach the session, GetMatch, the durable record and a rebuild, and handing a seat to a
    bot keeps its side."""
    from partida.rules import protos
    from partida.rules.session import SeatMeta
    people = [SeatMeta(p) for p in ("alice", "bob")]
    pasaran = matches.create("pasaran", "campaign", people, {})
    assert [m.side for m in matches.session(pasaran.match_id).seats] == [
        "republicans", "nationalists"]
    joe = matches.create("dynamit_joe", "arrest",
                         [SeatMeta(p) for p in ("alice", "bob", "cy", "di")], {})
    dealt = ["law", "thieves", "law", "thieves"]
    assert [m.side for m in protos.match(matches.session(joe.match_id)).seats] == dealt
    assert [m.side for m in store.get_match(joe.match_id).seats] == dealt
    matches.set_controller(joe.match_id, 1, "bot", "random", BOB)
    assert [m.side for m in store.get_match(joe.match_id).seats] == dealt
    matches.sessions.invalidate(joe.match_id)
    assert [m.side for m in matches.session(joe.match_id).seats] == dealt


def test_a_seats_player_cannot_be_changed_in_the_record(matches, store):
    from partida.persistence import records
    s = new_match(matches)
    with pytest.raises(InvalidArgument):
        store.update_seat(s.match_id, records.Seat(1, "mallory", "human", ""))
    with pytest.raises(InvalidArgument):
        store.update_seat(s.match_id, records.Seat(7, "bob", "bot", "random"))
    assert store.get_match(s.match_id).seats[1].player_id == "bob"


def test_a_seat_that_decides_again_gets_its_next_actions_with_the_result(matches):
    # Saves the acting client a ListLegalActions call; only its own actions, never another's.
    s = new_match(matches)
    seen_same = seen_other = False
    for _ in range(200):
        current = matches.session(s.match_id)
        if current.status != "active" or (seen_same and seen_other):
            break
        seat = matches.legal(s.match_id, 0, ALICE)[3][0]
        principal = (ALICE, BOB)[seat]
        _, _, default, _ = matches.legal(s.match_id, seat, principal)
        result = matches.submit(s.match_id, seat, current.version, rid(), default, principal)
        if seat in result.to_act:
            seen_same = True
            _, actions, next_default, _ = matches.legal(s.match_id, seat, principal)
            assert result.next_actions == [[a.id, a.description] for a in actions]
            assert result.next_default == next_default and next_default
        else:
            seen_other = True
            assert result.next_actions == [] and result.next_default == ""
    assert seen_same and seen_other


def test_a_view_can_come_with_the_seats_actions_from_the_same_reading(matches):
    s = new_match(matches)
    look = matches.view(s.match_id, 0, ALICE, with_actions=True)
    _, actions, default, to_act = matches.legal(s.match_id, 0, ALICE)
    assert look.to_act == to_act == (0,)
    assert (look.actions, look.default) == (actions, default) and actions
    other = matches.view(s.match_id, 1, BOB, with_actions=True)  # not its decision
    assert other.actions == matches.legal(s.match_id, 1, BOB)[1] and other.default == ""
    assert matches.view(s.match_id, None, None, with_actions=True).actions == []  # spectator
    assert matches.view(s.match_id, 0, ALICE).actions == []  # not asked for
    with pytest.raises(PermissionDenied):
        matches.view(s.match_id, 0, BOB, with_actions=True)


def test_the_end_is_recorded_before_the_session_shows_it(matches, store):
    # Anyone who sees the outcome in the live session must find the match finished in the
    # record (its log is then readable by players).
    seen = []

    class Watching(MemorySessionStore):
        def commit(self, session, *args, **kwargs):
            if session.status == "finished":
                seen.append(store.get_match(session.match_id).status)
            return super().commit(session, *args, **kwargs)

    matches.sessions = Watching()
    s = new_match(matches)
    play_defaults(matches, s.match_id)
    assert seen == ["finished"]


def test_a_finished_match_leaves_the_live_store_and_reads_the_same_from_the_log(matches, clock):
    """A finished match's session goes FINISHED_TTL after its end (session.py); a later read
    rebuilds it from the log: the same end, seed, view and events."""
    matches.sessions = MemorySessionStore(idle_ttl=7 * 24 * 3600, finished_ttl=60, clock=clock)
    s = new_match(matches)
    end = play_defaults(matches, s.match_id)
    look = matches.view(s.match_id, 0, ALICE)
    events, _, _ = matches.events(s.match_id, 0, ALICE, 0, 0)
    clock.now += 61
    new_match(matches)  # a write, at which the store lets expired sessions go
    assert matches.sessions.load(s.match_id) is None
    again = matches.session(s.match_id)
    assert (again.status, again.outcome, again.seed, again.version) == (
        "finished", end.outcome, end.seed, end.version)
    assert matches.view(s.match_id, 0, ALICE).view == look.view
    assert matches.events(s.match_id, 0, ALICE, 0, 0)[0] == events
