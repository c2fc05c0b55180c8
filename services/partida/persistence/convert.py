"""The store's dataclasses as partida.v1 protos (the checked way in is validate.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from google.protobuf.timestamp_pb2 import Timestamp

from partida.persistence import records
from partida.v1 import common_pb2, persistence_pb2

CONTROLLERS = {common_pb2.SEAT_CONTROLLER_HUMAN: "human", common_pb2.SEAT_CONTROLLER_BOT: "bot"}
_CONTROLLER_ENUMS = {v: k for k, v in CONTROLLERS.items()}
_STATUSES = {"active": common_pb2.MATCH_STATUS_ACTIVE, "finished": common_pb2.MATCH_STATUS_FINISHED}


def timestamp(when: datetime | None) -> Timestamp | None:
    if when is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(when)
    return stamp


def from_timestamp(stamp: Timestamp) -> datetime:
    return stamp.ToDatetime(tzinfo=UTC)


def seat_pb(seat: records.Seat) -> common_pb2.Seat:
    return common_pb2.Seat(seat=seat.seat, player_id=seat.player_id, bot=seat.bot,
                           side=seat.side, controller=_CONTROLLER_ENUMS[seat.controller],
                           campaign_team=seat.campaign_team)


def outcome_pb(outcome: records.Outcome) -> common_pb2.Outcome:
    return common_pb2.Outcome(winners=outcome.winners, draw=outcome.draw,
                              reason=outcome.reason, scores=outcome.scores)


def match_pb(match: records.Match) -> common_pb2.Match:
    return common_pb2.Match(
        match_id=match.match_id, game_id=match.game_id, scenario_id=match.scenario_id,
        seats=[seat_pb(s) for s in match.seats], status=_STATUSES[match.status],
        version=match.version, dice_commitment=match.dice_commitment,
        dice_seed=match.dice_seed or b"",
        outcome=outcome_pb(match.outcome) if match.outcome else None,
        create_time=timestamp(match.created_at), options_json=match.options_json,
        decision_timeout_seconds=match.decision_timeout_seconds,
        spectator_delay_actions=match.spectator_delay_actions, campaign_id=match.campaign_id,
        bot_after_missed_decisions=match.bot_after_missed_decisions,
        rules_revision=match.rules_revision)


def record_pb(record: records.LogRecord) -> persistence_pb2.LogRecord:
    return persistence_pb2.LogRecord(
        sequence=record.sequence, seat=record.seat, action_id=record.action_id,
        request_id=record.request_id, random_positions=record.random_positions,
        random_values=record.random_values, events_json=record.events_json,
        prev_hash=record.prev_hash, hash=record.hash,
        create_time=timestamp(record.created_at), kind=record.kind)


def rating_pb(rating: records.Rating) -> persistence_pb2.Rating:
    return persistence_pb2.Rating(
        player_id=rating.player_id, game_id=rating.game_id, rating=rating.rating,
        deviation=rating.deviation, volatility=rating.volatility, matches=rating.matches)


def campaign_pb(campaign: records.Campaign) -> persistence_pb2.Campaign:
    return persistence_pb2.Campaign(
        campaign_id=campaign.campaign_id, game_id=campaign.game_id,
        teams=[persistence_pb2.CampaignTeam(name=t.name, player_ids=t.player_ids)
               for t in campaign.teams],
        scenario_ids=campaign.scenario_ids,
        results=[persistence_pb2.CampaignScenarioResult(
            scenario_id=r.scenario_id, match_id=r.match_id, winning_teams=r.winning_teams,
            finish_time=timestamp(r.finished_at)) for r in campaign.results],
        standings=[persistence_pb2.CampaignStanding(
            team=t.team, points=t.points, scenarios_played=t.scenarios_played)
            for t in campaign.standings],
        finished=campaign.finished, leaders=campaign.leaders,
        create_time=timestamp(campaign.created_at))


def campaign_of(value: persistence_pb2.Campaign) -> records.Campaign:
    """A campaign read from the persistence service, for the checks a caller runs on it."""
    return records.Campaign(
        value.campaign_id, value.game_id,
        tuple(records.CampaignTeam(t.name, tuple(t.player_ids)) for t in value.teams),
        tuple(value.scenario_ids), from_timestamp(value.create_time),
        results=tuple(records.ScenarioResult(r.scenario_id, r.match_id, tuple(r.winning_teams),
                                             from_timestamp(r.finish_time))
                      for r in value.results),
        standings=tuple(records.Standing(s.team, s.points, s.scenarios_played)
                        for s in value.standings),
        finished=value.finished, leaders=tuple(value.leaders))
