"""The rules service's ledger port over the persistence store (in-process) and conversions
between its plain data and the persistence records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from partida.persistence import records
from partida.persistence.campaigns import check_seats
from partida.platform.errors import NotFound
from partida.rules.ports import LogEntry, MatchPage
from partida.rules.session import SeatMeta, Session


def seat_record(index: int, m: SeatMeta) -> records.Seat:
    return records.Seat(index, m.player_id, m.controller, m.bot, m.side, m.campaign_team)


def seat_records(s: Session) -> tuple[records.Seat, ...]:
    return tuple(seat_record(i, m) for i, m in enumerate(s.seats))


def to_match(s: Session) -> records.Match:
    return records.Match(
        match_id=s.match_id, game_id=s.game_id, scenario_id=s.scenario_id,
        seats=seat_records(s),
        dice_commitment=bytes.fromhex(s.commitment), options_json=json.dumps(s.options),
        decision_timeout_seconds=s.decision_timeout, spectator_delay_actions=s.spectator_delay,
        campaign_id=s.campaign_id, bot_after_missed_decisions=s.bot_after_missed,
        rules_revision=s.rules_revision)


def from_match(m: records.Match) -> Session:
    """A session as the match was created: version 0, no state yet (the log rebuilds it)."""
    outcome = None if m.outcome is None else {
        "winners": list(m.outcome.winners), "draw": m.outcome.draw, "reason": m.outcome.reason,
        "scores": {str(k): v for k, v in m.outcome.scores.items()}}
    return Session(
        match_id=m.match_id, game_id=m.game_id, scenario_id=m.scenario_id,
        seats=[SeatMeta(x.player_id, x.controller, x.bot, x.campaign_team, x.side)
               for x in m.seats],
        options=json.loads(m.options_json or "{}"), commitment=m.dice_commitment.hex(),
        created_at=m.created_at.timestamp() if m.created_at else 0.0,
        decision_timeout=m.decision_timeout_seconds, spectator_delay=m.spectator_delay_actions,
        status=m.status, outcome=outcome, seed=(m.dice_seed or b"").hex(),
        campaign_id=m.campaign_id, bot_after_missed=m.bot_after_missed_decisions,
        rules_revision=m.rules_revision)


def to_record(e: LogEntry) -> records.LogRecord:
    return records.LogRecord(
        sequence=e.sequence, kind=e.kind, seat=e.seat, action_id=e.action_id,
        request_id=e.request_id, random_positions=tuple(e.positions),
        random_values=tuple(e.values), events_json=json.dumps(e.events, separators=(",", ":")))


def from_record(r: records.LogRecord) -> LogEntry:
    return LogEntry(r.sequence, r.kind, r.seat, r.action_id, r.request_id,
                    list(r.random_positions), list(r.random_values), json.loads(r.events_json),
                    r.created_at.timestamp() if r.created_at else 0.0, r.hash, r.prev_hash)


def to_outcome(d: dict[str, Any]) -> records.Outcome:
    return records.Outcome(tuple(d.get("winners", ())), bool(d.get("draw", False)),
                           str(d.get("reason", "")),
                           {int(k): float(v) for k, v in d.get("scores", {}).items()})


class LocalLedger:
    """The persistence store called directly (embedded server)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def record_match(self, session: Session, setup: list[LogEntry]) -> bool:
        return bool(self.store.start_match(to_match(session), [to_record(e) for e in setup]))

    def check_campaign(self, session: Session) -> None:
        check_seats(self.store.get_campaign(session.campaign_id), session.game_id,
                    session.scenario_id, seat_records(session), session.match_id,
                    whole=True)

    def append_log(self, match_id: str, entries: list[LogEntry], controller: str = "") -> None:
        self.store.append_log(match_id, [to_record(e) for e in entries], controller)

    def finish_match(self, match_id: str, outcome: dict[str, Any], seed: bytes,
                     final_sides: Sequence[str] = ()) -> None:
        self.store.finish_match(match_id, to_outcome(outcome), seed, final_sides)

    def update_seat(self, match_id: str, index: int, seat: SeatMeta) -> None:
        self.store.update_seat(match_id, seat_record(index, seat))

    def load_match(self, match_id: str) -> tuple[Session, list[LogEntry]] | None:
        try:
            match, log = self.store.get_match_log(match_id)
        except NotFound:
            return None
        return from_match(match), [from_record(r) for r in log]

    def load_entries(self, match_id: str, after_version: int, up_to_version: int | None
                     ) -> list[LogEntry]:
        return [from_record(r)
                for r in self.store.log_records(match_id, after_version, up_to_version)]

    def find_entry(self, match_id: str, request_id: str) -> LogEntry | None:
        found = self.store.find_log_record(match_id, request_id)
        return None if found is None else from_record(found)

    def unfinished_matches(self, after_match_id: str, limit: int) -> list[str]:
        return self.store.unfinished_matches(after_match_id, limit)

    def player_matches(self, player_id: str, page_size: int, page_token: str) -> MatchPage:
        page = self.store.player_history(player_id, page_size, page_token)
        return MatchPage([from_match(m) for m in page.matches], page.next_page_token)
