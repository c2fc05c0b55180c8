"""A game's rules edition (GameInfo.rules_revision): a match records the one it was created
under, so a server whose rules changed since tells why an old log no longer replays (its
audit, a rebuild from the log) instead of looking like a forged log or failing INTERNAL."""

from __future__ import annotations

import dataclasses

import pytest

from partida.engine import IllegalAction, get
from partida.engine.types import Event
from partida.persistence import convert, hashchain
from partida.platform.errors import FailedPrecondition
from partida.rules.audit import audit
from partida.v1 import rules_pb2
from tests.unit.rules.conftest import new_match, play_defaults, served, step

MONTANAS = get("montanas")


def _edition(monkeypatch, revision: int) -> None:
    monkeypatch.setattr(MONTANAS, "info",
                        dataclasses.replace(MONTANAS.info, rules_revision=revision))


@pytest.fixture(autouse=True)
def _first_edition(monkeypatch) -> None:
    """Each test starts from edition 1, whichever the game is at now."""
    _edition(monkeypatch, 1)


def _rule_changed(monkeypatch, revision: int, refuse: bool = False) -> None:
    """The server now runs edition `revision`, where every action tells one more event (or,
    with `refuse`, none is legal any more)."""
    _edition(monkeypatch, revision)
    if refuse:
        monkeypatch.setattr(MONTANAS, "legal_actions", lambda state, seat: [])
        return
    first = MONTANAS._apply

    def changed(state, seat, action_id, rng):
        return [*first(state, seat, action_id, rng), Event("ruled_anew", {})]

    monkeypatch.setattr(MONTANAS, "_apply", changed)


def _public(store, match_id: str) -> tuple:
    """The match's record and log as PersistenceService.GetMatchLog serves them."""
    match, log = store.get_match_log(match_id)
    return convert.match_pb(match), [convert.record_pb(r) for r in log]


def _audit(store, match_id: str) -> list[str]:
    return audit(*_public(store, match_id))


def test_a_match_records_the_edition_it_was_created_under(matches, store, monkeypatch):
    _edition(monkeypatch, 3)
    s = new_match(matches)
    assert s.rules_revision == 3
    assert store.get_match(s.match_id).rules_revision == 3
    assert convert.match_pb(store.get_match(s.match_id)).rules_revision == 3


def test_clients_see_the_edition_of_a_game_and_of_a_match(matches, monkeypatch):
    s = new_match(matches)  # edition 1
    _edition(monkeypatch, 4)
    with served(matches, "alice") as (stub, auth):
        games = stub.ListGames(rules_pb2.ListGamesRequest(), metadata=auth).games
        match = stub.GetMatch(rules_pb2.GetMatchRequest(match_id=s.match_id),
                              metadata=auth).match
    assert {g.game_id: g.rules_revision for g in games}["montanas"] == 4
    assert match.rules_revision == 1


def test_an_honest_log_of_older_rules_that_still_replays_audits_clean(matches, store,
                                                                      monkeypatch):
    """Most changes leave most logs as they were: a raised edition alone is no problem."""
    s = new_match(matches)
    play_defaults(matches, s.match_id)
    _edition(monkeypatch, 2)
    assert _audit(store, s.match_id) == []


def test_a_log_of_older_rules_that_replays_otherwise_says_the_rules_changed(matches, store,
                                                                          monkeypatch):
    s = new_match(matches)
    play_defaults(matches, s.match_id)
    assert _audit(store, s.match_id) == []
    _rule_changed(monkeypatch, 2)
    problems = _audit(store, s.match_id)
    assert problems[0] == "record 1 replays to other events than it logged"
    assert problems[1] == ("the match was created under edition 1 of the montanas rules and "
                           "this server adjudicates edition 2: a rule changed since may be why "
                           "its log does not replay here")


def test_the_same_difference_under_the_same_edition_has_no_excuse(matches, store,
                                                                 monkeypatch):
    """A log that replays otherwise under the very rules it was made with is simply wrong."""
    s = new_match(matches)
    play_defaults(matches, s.match_id)
    _rule_changed(monkeypatch, 1)
    assert _audit(store, s.match_id) == ["record 1 replays to other events than it logged"]


def test_the_edition_is_sealed_with_the_match_record(matches, store, monkeypatch):
    """Claiming another edition for a match (to excuse a forged log) breaks its seal; seals
    made before editions were recorded (the first edition) are unchanged."""
    args = ("montanas", "standard", {"first_seat": 0}, ["alice", "bob"], bytes(32), "")
    assert hashchain.match_seal(*args, 1) == hashchain.match_seal(*args)
    assert hashchain.match_seal(*args, 2) != hashchain.match_seal(*args)
    _edition(monkeypatch, 2)
    s = new_match(matches)
    play_defaults(matches, s.match_id)
    assert _audit(store, s.match_id) == []
    match, log = _public(store, s.match_id)
    match.rules_revision = 1
    assert audit(match, log)[0] == ("the match's record (its seats, options, dice commitment "
                                    "or campaign) is not the one its log was started with")


def test_rebuilding_a_match_begun_under_other_rules_is_refused_with_why(matches,
                                                                        monkeypatch):
    """Redis lost across an upgrade that changed the rules: the match's log no longer
    replays, and a caller is told so (FAILED_PRECONDITION), not answered INTERNAL."""
    s = new_match(matches)
    for _ in range(3):
        step(matches, s.match_id)
    matches.sessions.invalidate(s.match_id)  # Redis lost
    _rule_changed(monkeypatch, 2, refuse=True)
    with pytest.raises(FailedPrecondition) as refused:
        matches.session(s.match_id)
    assert f"match {s.match_id} cannot be rebuilt from its log (record 1: " in str(refused.value)
    assert "created under edition 1 of the montanas rules" in str(refused.value)


def test_a_log_that_no_longer_replays_under_its_own_edition_is_not_excused(matches,
                                                                          monkeypatch):
    s = new_match(matches)
    step(matches, s.match_id)
    matches.sessions.invalidate(s.match_id)  # Redis lost
    _rule_changed(monkeypatch, 1, refuse=True)
    with pytest.raises(IllegalAction):
        matches.session(s.match_id)
