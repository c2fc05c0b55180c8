"""The rules service remembers the legal actions it listed for a logged state, so a submit
taken from that list is not checked by listing them all again; everything else is checked
in full as before."""

import pytest

from partida.engine import Action, get
from partida.engine.errors import IllegalAction
from partida.engine.rng import LocalRng
from partida.platform.errors import FailedPrecondition
from partida.rules.ledger import LocalLedger
from partida.rules.legal_memo import LegalMemo
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore

from .conftest import ALICE, BOTS, Dice, new_match, rid, who
from .test_bot_turns import KeepingScheduler


class Counting:
    """Counts the game's legal-action listings while the test runs."""

    def __init__(self, monkeypatch, game_id="montanas"):
        game = get(game_id)
        self.calls = 0
        real = type(game).legal_actions

        def counted(g, state, seat):
            self.calls += 1
            return real(g, state, seat)
        monkeypatch.setattr(type(game), "legal_actions", counted)


def test_the_memo_keeps_ids_per_match_version_and_seat_and_forgets_the_oldest():
    memo = LegalMemo(size=2)
    memo.remember("m", 3, 0, [Action("a", ""), Action("b", "")])
    memo.remember("m", 3, 1, [Action("c", "")])
    assert memo.listed("m", 3, 0) == {"a", "b"} and memo.listed("m", 3, 1) == {"c"}
    assert memo.listed("m", 4, 0) == set() and memo.listed("n", 3, 0) == set()
    memo.remember("m", 4, 0, [Action("d", "")])
    assert memo.listed("m", 3, 0) == set()  # the oldest went
    assert memo.listed("m", 4, 0) == {"d"}


def test_an_action_listed_by_legal_actions_is_applied_without_listing_them_again(
        monkeypatch):
    game = get("montanas")
    state = game.new_state("standard", 2, {"first_seat": 0}, LocalRng(1))
    seat = game.to_act(state)[0]
    ids = {a.id for a in game.legal_actions(state, seat)}
    counting = Counting(monkeypatch)
    game.apply(state, seat, sorted(ids)[0], LocalRng(2), ids)
    assert counting.calls == 0


def test_an_action_missing_from_the_listed_ids_is_still_checked_in_full():
    game = get("montanas")
    state = game.new_state("standard", 2, {"first_seat": 0}, LocalRng(1))
    seat = game.to_act(state)[0]
    with pytest.raises(IllegalAction):
        game.apply(state, seat, "no-such-action", LocalRng(2), {"deploy:1"})
    other = 1 - seat  # listed ids for the seat to act say nothing of the other seat
    legal = {a.id for a in game.legal_actions(state, seat)}
    with pytest.raises(IllegalAction):
        game.apply(state, other, sorted(legal)[0], LocalRng(2), set())


def test_a_submit_taken_from_the_last_result_lists_the_actions_once(matches, monkeypatch):
    """ARCHITECTURE.md, "A match's life": the submit is still validated against the state it
    acts on; the list it is checked against is the one the previous result gave out."""
    s = new_match(matches)
    look = matches.view(s.match_id, 0, ALICE, with_actions=True)  # lists, and remembers
    counting = Counting(monkeypatch)
    seat = look.to_act[0]
    result = matches.submit(s.match_id, seat, look.session.version, rid(),
                            look.actions[0].id, who(look.session.seats[seat].player_id))
    listings = counting.calls
    assert listings <= 1  # at most the next list, for the result; none to check the action
    if result.next_actions:
        counting.calls = 0
        matches.submit(s.match_id, seat, result.version, rid(), result.next_actions[0][0],
                       who(look.session.seats[seat].player_id))
        assert counting.calls <= 1


def test_a_remembered_list_does_not_make_an_illegal_action_legal(matches):
    s = new_match(matches)
    look = matches.view(s.match_id, 0, ALICE, with_actions=True)
    seat = look.to_act[0]
    with pytest.raises(FailedPrecondition):
        matches.submit(s.match_id, seat, look.session.version, rid(), "play:999:nowhere",
                       who(look.session.seats[seat].player_id))
    assert matches.session(s.match_id).version == look.session.version


def test_a_list_from_an_older_version_is_not_used_for_a_newer_state(matches):
    s = new_match(matches)
    first = matches.view(s.match_id, 0, ALICE, with_actions=True)
    seat = first.to_act[0]
    principal = who(first.session.seats[seat].player_id)
    matches.submit(s.match_id, seat, first.session.version, rid(), first.actions[0].id,
                   principal)
    now = matches.session(s.match_id)
    stale_only = ({a.id for a in first.actions}
                  - {a.id for a in matches.legal(s.match_id, seat, principal)[1]})
    for action_id in sorted(stale_only)[:3]:  # legal then, not now: refused
        with pytest.raises(FailedPrecondition):
            matches.submit(s.match_id, seat, now.version, rid(), action_id, principal)
    assert matches.session(s.match_id).version == now.version


def test_a_bot_turn_shares_one_listing_between_the_result_and_the_queued_turn(
        store, clock, monkeypatch):
    bots = KeepingScheduler()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots,
                      clock=clock)
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    counting = Counting(monkeypatch)
    for _ in range(20):
        match_id, seat, version, _, _, seen = bots.queued[-1]
        counting.calls = 0
        matches.submit(match_id, seat, version, rid(), seen.actions[0].id, BOTS)
        assert counting.calls <= 1  # the next seat's list, for its turn (and the result)
        if matches.session(s.match_id).status != "active":
            break
