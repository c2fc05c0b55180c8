"""Auditing a finished match from its public record: the dice against the revealed seed,
the log's hash chain, and a replay of every action through the engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from partida.dice import streams
from partida.engine import IllegalAction, get
from partida.persistence import hashchain, records
from partida.rules.matches import outcome_dict, revision_note
from partida.rules.protos import edition_of, outcome_of
from partida.rules.randomness import replay_action, replay_setup

_KINDS = ("action", "timeout", "resign")  # what a record after the set-up may be


def audit(match: Any, log: list[Any]) -> list[str]:
    """Problems found in a match (a partida.v1.Match) and its log records
    (partida.v1.LogRecord); an empty list means every check passed."""
    if not match.dice_seed:
        return ["the match is not finished: its dice seed is not revealed yet"]
    drawn = [(p, v) for r in log for p, v in zip(r.random_positions, r.random_values,
                                                 strict=True)]
    problems = streams.verify(bytes(match.dice_commitment), bytes(match.dice_seed),
                              match.match_id, drawn)
    ok, broken = hashchain.verify_chain(_record(match.match_id, r) for r in log)
    if not ok:
        problems.append(f"the log's hash chain breaks at record {broken}")
    if log and log[0].action_id and log[0].action_id != _seal(match):  # "": made before seals
        problems.append("the match's record (its seats, options, dice commitment or campaign) "
                        "is not the one its log was started with")
    replay = _replay(match, log)
    played, now = edition_of(match), get(match.game_id).info.rules_revision
    if replay and played != now:
        replay.append(revision_note(match.game_id, played, now))
    return problems + replay


def _seal(match: Any) -> str:
    return hashchain.match_seal(match.game_id, match.scenario_id,
                                json.loads(match.options_json or "{}"),
                                [seat.player_id for seat in match.seats],
                                bytes(match.dice_commitment), match.campaign_id,
                                edition_of(match))


def _record(match_id: str, r: Any) -> records.LogRecord:
    return records.LogRecord(
        sequence=r.sequence, kind=r.kind, seat=r.seat, action_id=r.action_id,
        request_id=r.request_id, random_positions=tuple(r.random_positions),
        random_values=tuple(r.random_values), events_json=r.events_json, match_id=match_id,
        prev_hash=bytes(r.prev_hash), hash=bytes(r.hash))


class BadLog(Exception):
    """A log that does not replay; the message says where and why."""


def replayed(match: Any, log: list[Any]) -> Iterator[tuple[Any, Any, list[Any], Any]]:
    """Each record of a match's log (partida.v1 messages) replayed through the engine, with
    the values it consumed: (record, the state after it, its events, the values' Rng), the
    set-up first with no events and no Rng. BadLog at the first record that cannot be
    replayed; a set-up short of values raises as replay_setup does."""
    game = get(match.game_id)
    if not log or log[0].kind != "setup":
        raise BadLog("the log does not start with the set-up record")
    if json.loads(log[0].events_json or "[]") != []:  # `client replay` would show them
        raise BadLog("the set-up record holds events, yet the set-up logs none")
    state = replay_setup(game, match.scenario_id, len(match.seats),
                         json.loads(match.options_json or "{}"), log[0].random_values)
    yield log[0], state, [], None
    for r in log[1:]:
        if r.kind not in _KINDS:  # replay_action would take it for an action
            raise BadLog(f"record {r.sequence} is of an unknown kind {r.kind!r}")
        try:
            events, rng = replay_action(game, state, r.kind, r.seat, r.action_id,
                                        r.random_values)
        except (IllegalAction, RuntimeError) as e:
            raise BadLog(f"record {r.sequence} does not replay: {e}") from None
        yield r, state, events, rng


def _replay(match: Any, log: list[Any]) -> list[str]:
    """Re-apply every record with the values it consumed; every event must come out the same
    and the end must be the recorded outcome."""
    seq, state = 0, None
    try:
        for r, after, events, rng in replayed(match, log):
            state = after
            if rng is None:  # the set-up
                continue
            produced = []
            for event in events:
                seq += 1
                produced.append({**event.to_dict(), "seq": seq, "version": r.sequence})
            if produced != json.loads(r.events_json):
                return [f"record {r.sequence} replays to other events than it logged"]
            if not rng.exhausted():
                return [f"record {r.sequence} logged random values it did not use"]
    except BadLog as e:
        return [str(e)]
    ended = outcome_dict(get(match.game_id).outcome(state))
    recorded = outcome_of(match)
    if ended is None or ended != recorded:
        return [f"the replay ends with {ended}, the record says {recorded}"]
    return []

