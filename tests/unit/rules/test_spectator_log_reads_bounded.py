"""A follower the live session store no longer keeps up (it holds a match's last 32 events)
reads the missing events from the log. A delayed spectator is such a follower by design
once the delay spans more events than that; it used to read the match's whole log on every
action. The log read is now bounded: the entries since the follower's last events, up to
the version it may see, and the events served are the same as before."""

from __future__ import annotations

from typing import Any

from partida.dice.logic import Dice
from partida.platform.auth import PLAYER, Principal
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches, project
from partida.rules.session import MemorySessionStore, SeatMeta
from tests.unit.rules.conftest import ALICE, BOB, rid

EVE = Principal(PLAYER, "eve")  # holds no seat: a spectator
DELAY = 40
# Games whose matches last over 100 actions with the defaults: in bandas each action has
# events, in ¿Pasarán? about half have none (the follower's last event lies further back).
BANDAS, PASARAN = ("bandas", "street_fight"), ("pasaran", "campaign")


class CountingLedger(LocalLedger):
    """The real ledger, counting the log entries its reads returned."""

    read = 0

    def load_match(self, match_id):  # type: ignore[no-untyped-def]
        loaded = super().load_match(match_id)
        self.read += len(loaded[1]) if loaded else 0
        return loaded

    def load_entries(self, match_id, after_version, up_to_version):  # type: ignore[no-untyped-def]
        entries = super().load_entries(match_id, after_version, up_to_version)
        self.read += len(entries)
        return entries


def counted(store: Any, clock: Any) -> tuple[Matches, CountingLedger]:
    ledger = CountingLedger(store)
    return Matches(MemorySessionStore(), ledger, Dice(store), clock=clock), ledger


def create(matches: Matches, game: tuple[str, str], delay: int = DELAY) -> str:
    seats = [SeatMeta("alice", "human", ""), SeatMeta("bob", "human", "")]
    return matches.create(game[0], game[1], seats, {}, spectator_delay=delay).match_id


def play(matches: Matches, match_id: str, actions: int) -> None:
    """Up to `actions` defaults, fewer if the match ends."""
    for _ in range(actions):
        s = matches.session(match_id)
        if s.status != "active":
            return
        seat = matches.legal(match_id, 0, ALICE)[3][0]
        player = (ALICE, BOB)[seat]
        default = matches.legal(match_id, seat, player)[2]
        matches.submit(match_id, seat, s.version, rid(), default, player)


class Follower:
    """Follows a match through Matches.events as StreamMatch does (without waiting)."""

    def __init__(self, matches: Matches, match_id: str, seat: int | None = None,
                 after: int = 0) -> None:
        self.matches, self.match_id, self.seat = matches, match_id, seat
        self.after, self.seen = after, -1

    def next(self) -> tuple[list[dict[str, Any]], Any, int]:
        """The events served, the session read, and where the follower stood before."""
        before = self.after
        events, s, self.after = self.matches.events(
            self.match_id, self.seat, ALICE if self.seat == 0 else EVE, self.after, 0,
            self.seen)
        self.seen = s.version
        return events, s, before


def expected(store: Any, match_id: str, after: int, seat: int | None,
             up_to: int | None) -> list[dict[str, Any]]:
    """What the follower is owed, read from the whole log as the fallback did before."""
    log = LocalLedger(store).load_match(match_id)[1]  # type: ignore[index]
    return project([e for entry in log for e in entry.events if e["seq"] > after
                    and (up_to is None or e["version"] <= up_to)], seat)


def reads_per_action(matches: Matches, match_id: str, counter: Any, store: Any,
                     actions: int = 20) -> list[int]:
    """A delayed spectator joins the match after 60 actions, then follows `actions` more,
    one at a time: the log entries `counter` read (its `read`) at each step. Each step's
    events are checked against those the whole log (in `store`) gives."""
    play(matches, match_id, 60)
    spectator = Follower(matches, match_id)
    spectator.next()
    reads = []
    for _ in range(actions):
        play(matches, match_id, 1)
        counter.read = 0
        events, s, before = spectator.next()
        reads.append(counter.read)
        assert events == expected(store, match_id, before, None, s.spectator["version"])
    return reads


def test_a_delayed_spectator_reads_only_the_entries_each_action_reveals(store, clock):
    matches, ledger = counted(store, clock)
    match_id = create(matches, BANDAS)
    play(matches, match_id, 60)
    spectator = Follower(matches, match_id)
    spectator.next()  # where it joins: the first 20 versions, all of them new to it
    for _ in range(30):
        play(matches, match_id, 1)
        ledger.read = 0
        events, s, _ = spectator.next()
        assert s.version > 60 and s.status == "active" and events
        # The one entry the action revealed, not the 60 and more of the log.
        assert ledger.read == 1


def test_a_delayed_spectator_reads_back_only_to_its_last_event(store, clock):
    """Actions without events: the read goes back to the follower's last event, no
    further than twice as far."""
    matches, ledger = counted(store, clock)
    match_id = create(matches, PASARAN)
    play(matches, match_id, 60)
    spectator = Follower(matches, match_id)
    spectator.next()
    log = {e["seq"]: e["version"] for entry in matches.ledger.load_match(match_id)[1]
           for e in entry.events}
    for _ in range(30):
        play(matches, match_id, 1)
        ledger.read = 0
        _, s, before = spectator.next()
        assert s.status == "active"
        back_to = log.get(before, 0)  # the version of the follower's last event
        assert ledger.read <= 2 * (s.spectator["version"] - back_to) + 1
        log = {e["seq"]: e["version"] for entry in matches.ledger.load_match(match_id)[1]
               for e in entry.events}


def test_a_delayed_spectator_is_served_what_the_whole_log_holds(store, clock):
    """Joining late, resuming from an event, followed after each action or a few, to the
    end of the match: the events served are those of the whole log up to the delayed
    version (everything at the end), as they were before."""
    for game in (BANDAS, PASARAN):
        matches, _ = counted(store, clock)
        match_id = create(matches, game)
        play(matches, match_id, 60)
        resumed = Follower(matches, match_id, after=25)  # a new stream, from an event
        followers = [Follower(matches, match_id), resumed]
        for actions in [1] * 10 + [3] * 10 + [7] * 30:
            for follower in followers:
                events, s, before = follower.next()
                assert events == expected(store, match_id, before, None,
                                          s.spectator["version"])
            play(matches, match_id, actions)
        assert matches.session(match_id).status == "finished"
        for follower in followers:
            events, s, before = follower.next()
            assert events == expected(store, match_id, before, None, None)
            assert follower.after == s.event_seq


def test_a_seat_the_store_no_longer_keeps_up_reads_only_what_it_missed(store, clock):
    """The same fallback serves a seat fallen behind the live events: unbounded above (all
    committed so far), from the version it was last served."""
    matches, ledger = counted(store, clock)
    match_id = create(matches, BANDAS)
    play(matches, match_id, 10)
    seat = Follower(matches, match_id, seat=0)
    seat.next()
    for actions in (40, 45):  # more events than the store keeps
        play(matches, match_id, actions)
        ledger.read = 0
        events, s, before = seat.next()
        assert s.status == "active" and ledger.read == actions
        assert events == expected(store, match_id, before, 0, None)
