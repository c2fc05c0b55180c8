"""A queued bot turn carries what its seat sees then (ARCHITECTURE.md, "A match's life": the
worker acts with that seat's view only), so the bot submits without reading the match
first; a turn that is stale by the time it runs changes nothing."""

import pytest

from partida.ai import turns
from partida.ai.local import LocalRulesClient
from partida.ai.turns import SeatSnapshot, play_turn
from partida.platform.errors import Aborted
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore

from .conftest import ALICE, BOTS, Dice, new_match, rid


class KeepingScheduler:
    """Keeps every queued turn, to be played by the test."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, int, int, str, str, SeatSnapshot | None]] = []

    def schedule(self, match_id: str, seat: int, version: int, game_id: str, bot: str,
                 seen: SeatSnapshot | None = None) -> None:
        self.queued.append((match_id, seat, version, game_id, bot, seen))


def _matches(store, clock, bots):
    return Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)


def test_a_queued_turn_carries_its_seats_own_view_and_actions_at_that_version(store, clock):
    bots = KeepingScheduler()
    matches = _matches(store, clock, bots)
    s = new_match(matches, players=("alice",), bots=("heuristic",))
    while not bots.queued:  # alice acts until the decision is the bot's
        live, _, default, _ = matches.legal(s.match_id, 0, ALICE)
        matches.submit(s.match_id, 0, live.version, rid(), default, ALICE)
    match_id, seat, version, _, _, seen = bots.queued[-1]
    assert (match_id, seat) == (s.match_id, 1) and seen is not None
    look = matches.view(s.match_id, 1, BOTS, with_actions=True)
    assert seen.version == version == look.session.version
    assert seen.view == look.view and list(seen.to_act) == list(look.to_act)
    assert [(a.id, a.description) for a in seen.actions] == \
        [(a.id, a.description) for a in look.actions] != []
    assert SeatSnapshot.from_plain(seen.to_plain()) == seen  # as it travels in a message


def test_the_bot_plays_from_what_its_turn_carries_and_a_stale_turn_changes_nothing(
        store, clock):
    bots = KeepingScheduler()
    matches = _matches(store, clock, bots)
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    client = LocalRulesClient(matches)
    match_id, seat, version, game_id, bot, seen = bots.queued[-1]
    assert play_turn(client, match_id, seat, version, game_id, bot, seed=1,
                     seen=seen) == "played"
    assert matches.session(s.match_id).version > version  # its run of decisions
    # The same turn delivered again (the broker's redelivery): its request id is the first
    # one's, so the rules service answers with the first result and applies nothing.
    before = matches.session(s.match_id)
    assert play_turn(client, match_id, seat, version, game_id, bot, seed=2,
                     seen=seen) == "played"
    after = matches.session(s.match_id)
    assert (after.version, after.state) == (before.version, before.state)
    # A turn at that version under another request id (a stale one): refused, nothing moves.
    with pytest.raises(Aborted):
        matches.submit(match_id, seat, version, rid(), seen.actions[0].id, BOTS)
    assert matches.session(s.match_id).version == after.version


def _runs(matches, match_id: str) -> list[int]:
    """The acting seat of every action in the log, in order."""
    return [e.seat for e in matches.ledger.load_match(match_id)[1] if e.kind == "action"]


def test_a_turn_plays_its_seats_following_decisions_without_queueing_them(store, clock):
    """The rules service queues a turn only when a decision passes to the bot seat; the run
    of decisions that follows is played by that turn (keep_turn)."""
    bots = KeepingScheduler()
    matches = _matches(store, clock, bots)
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    client = LocalRulesClient(matches)
    for _ in range(12):
        match_id, seat, version, game_id, bot, seen = bots.queued.pop()
        assert bots.queued == []
        assert play_turn(client, match_id, seat, version, game_id, bot, seed=3,
                         seen=seen) == "played"
        now = matches.session(s.match_id)
        if now.status != "active":
            break
        # What is queued now is the next decision, at the version the run stopped at: the
        # other seat's, or this one's if the run reached the limit of one turn.
        nxt = matches.legal(s.match_id, seat, BOTS)[3][0]
        assert [(q[1], q[2]) for q in bots.queued] == [(nxt, now.version)]
        played = now.version - version
        assert _runs(matches, s.match_id)[version:] == [seat] * played
        assert nxt != seat or played == turns.KEEP_LIMIT
    assert any(len(run) > 1 for run in _run_lengths(_runs(matches, s.match_id)))


def _run_lengths(seats: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for seat in seats:
        if runs and runs[-1][-1] == seat:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    return runs


def test_a_turn_stops_after_its_limit_and_queues_the_rest(store, clock, monkeypatch):
    monkeypatch.setattr(turns, "KEEP_LIMIT", 2)
    bots = KeepingScheduler()
    matches = _matches(store, clock, bots)
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    client = LocalRulesClient(matches)
    while True:  # a turn whose seat has at least three decisions in a row
        match_id, seat, version, game_id, bot, seen = bots.queued.pop()
        probe = matches.session(s.match_id)
        assert play_turn(client, match_id, seat, version, game_id, bot, seed=4,
                         seen=seen) == "played"
        now = matches.session(s.match_id)
        if now.version - probe.version == 2 and bots.queued[-1][1] == seat:
            break
        assert now.status == "active"
    assert bots.queued[-1][2] == now.version  # the rest of the run is a turn of its own


def test_the_view_a_kept_turn_gets_is_the_seats_own_at_the_new_version(store, clock):
    bots = KeepingScheduler()
    matches = _matches(store, clock, bots)
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    while True:  # until a decision falls to the same seat at once
        match_id, seat, version, _, _, seen = bots.queued[-1]
        request = rid()
        result = matches.submit(match_id, seat, version, request, seen.actions[0].id, BOTS,
                                keep_turn=True)
        if result.next_view is not None:
            break
    look = matches.view(s.match_id, seat, BOTS, with_actions=True)
    assert look.session.version == result.version
    assert result.next_view == look.view
    assert result.next_actions == [[a.id, a.description] for a in look.actions]
    # The same request again (a redelivered turn): the first result, never a view to go on.
    repeat = matches.submit(match_id, seat, version, request, seen.actions[0].id, BOTS,
                            keep_turn=True)
    assert repeat.version == result.version and repeat.next_view is None
