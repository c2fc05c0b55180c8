"""A queued bot turn carries what its seat sees then (ARCHITECTURE.md, "A match's life": the
worker acts with that seat's view only), so the bot submits without reading the match
first; a turn that is stale by the time it runs changes nothing."""

import pytest

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
    assert matches.session(s.match_id).version == version + 1
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
