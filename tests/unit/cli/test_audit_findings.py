"""Findings of the CLI audit: `partida client verify` on the log of a match played to its end
on a real embedded server (in this process), then rewritten as a dishonest or broken server
could serve it, its hash chain made again over the change."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from partida.cli.client import client, verify_problems
from partida.devstack.stack import API_KEY
from partida.persistence import hashchain
from partida.persistence.records import GENESIS, LogRecord
from tests.e2e.play import play_to_end, player, seat_in_match
from tests.support.serving import embedded


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Iterator[tuple[str, Any, Any]]:
    """(server address, match log, dice stream) of a finished 2-seat Las Montañas match."""
    with embedded(tmp_path_factory.mktemp("verify"), metrics_port=0) as stack:
        remote = player(stack)
        match_id, seat = seat_in_match(remote, seats=2)
        assert play_to_end(remote, match_id, seat) is not None
        yield stack.address, remote.match_log(match_id), remote.dice_stream(match_id)


def _rechained(log: Any) -> Any:
    """`log` with every record's hashes made again, as whoever rewrote it would."""
    prev = GENESIS
    for r in log.records:
        record = LogRecord(
            sequence=r.sequence, kind=r.kind, seat=r.seat, action_id=r.action_id,
            request_id=r.request_id, random_positions=tuple(r.random_positions),
            random_values=tuple(r.random_values), events_json=r.events_json,
            match_id=log.match.match_id, prev_hash=prev)
        r.prev_hash, r.hash = prev, hashchain.record_hash(prev, log.match.match_id, record)
        prev = r.hash
    return log


def test_the_honest_log_verifies_through_the_command(finished):
    """The baseline: the match as served verifies, by the command and by its checks."""
    address, log, published = finished
    assert verify_problems(log, published) == []
    result = CliRunner().invoke(client, ["verify", log.match.match_id, "--server", address,
                                         "--api-key", API_KEY, "--player", "auditor"])
    assert result.exit_code == 0, result.output
    assert "verifies" in result.output


def test_events_added_to_the_set_up_record_are_found(finished):
    """The audit replays the set-up without comparing its events (the set-up logs none), so a
    set-up record given made-up events (which `client replay` prints as what happened)
    verified."""
    _, log, published = finished
    forged = copy.deepcopy(log)
    forged.records[0].events_json = json.dumps(
        [{"kind": "match_over", "data": {"won": False, "reason": "made up"}}])
    assert verify_problems(_rechained(forged), published) == [
        "the set-up record holds events, yet the set-up logs none"]


def test_players_moved_between_seats_in_the_match_record_are_found(finished):
    """The match's record (who sat in which seat, its options and dice commitment) is kept
    beside the log, not in it: two players swapped between seats there verified, the chain
    being untouched. The set-up record now carries the record's seal (hashchain.match_seal)."""
    _, log, published = finished
    forged = copy.deepcopy(log)
    first, second = forged.match.seats[0], forged.match.seats[1]
    first.player_id, second.player_id = second.player_id, first.player_id
    assert verify_problems(forged, published) == [
        "the match's record (its seats, options, dice commitment or campaign) is not the one "
        "its log was started with"]


def test_a_set_up_record_from_before_seals_still_verifies(finished):
    """Matches created before the seal have an empty action_id on their set-up record: their
    logs verify as before (what they cannot show is a changed match record)."""
    _, log, published = finished
    assert log.records[0].action_id.startswith("match:")
    older = copy.deepcopy(log)
    older.records[0].action_id = ""
    assert verify_problems(_rechained(older), published) == []


def test_a_record_of_an_unknown_kind_is_found(finished):
    """The audit replays every record after the set-up as an action, whatever its kind."""
    _, log, published = finished
    forged = copy.deepcopy(log)
    forged.records[1].kind = "bonus"
    assert verify_problems(_rechained(forged), published) == [
        "record 1 is of an unknown kind 'bonus'"]


def test_a_log_that_cannot_replay_is_a_problem_not_a_traceback(finished):
    """A set-up record short of the values the set-up draws made the replay raise out of
    verify (a RuntimeError traceback) instead of naming what is wrong."""
    _, log, published = finished
    broken = copy.deepcopy(log)
    del broken.records[0].random_values[-1]
    del broken.records[0].random_positions[-1]
    [problem] = verify_problems(_rechained(broken), published)
    assert problem.startswith("the log does not replay: RuntimeError: ")


def test_positions_the_dice_service_never_handed_out_are_found(finished):
    """After the reveal anyone can compute any value of the stream, so a log made up then
    could draw from positions the dice service never handed out (choosing its rolls); the
    values check out against the seed, and verify passed. Here the dice service says it
    handed out fewer values than the log uses."""
    _, log, published = finished
    used = max(p for r in log.records for p in r.random_positions)
    fewer = copy.deepcopy(published)
    fewer.next_position = used
    assert verify_problems(log, fewer) == [
        f"the log uses position {used} of the dice stream, which the dice service never "
        f"handed out (it handed out {used})"]
