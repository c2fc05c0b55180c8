"""Campaigns (Dynamit Joe 9): teams of players who play every scenario of a game, a point
for a team each time it wins a scenario (a mixin of PersistenceStore, and the check that
record_match runs on a match that names a campaign).

Nothing is written when a match finishes: the standings are read from the campaign's
finished matches, their results and the campaign team of each seat. Each scenario counts
once, with the first of its matches in the campaign to finish; a scenario with a finished
match cannot be played again in the campaign. A team scores with a scenario when one of its
seats won it (a seat wins with the side it ends on: the outcome's winners); a draw, a
round-limit call and a loss of all score nothing. The campaign is over once every scenario
has its counted match; the leaders then are its winners.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from partida.persistence import models, records
from partida.persistence.rows import utc
from partida.platform.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
)

MAX_TEAMS, MAX_PLAYERS = 16, 64  # per campaign, per team


def check_teams(teams: Sequence[records.CampaignTeam]) -> None:
    """Two or more teams with distinct names, each of one or more players, no player twice."""
    if not 2 <= len(teams) <= MAX_TEAMS:
        raise InvalidArgument(f"a campaign has 2 to {MAX_TEAMS} teams")
    names = [t.name for t in teams]
    if len(set(names)) != len(names):
        raise InvalidArgument("team names must be distinct")
    seen: dict[str, str] = {}
    for team in teams:
        if not 1 <= len(team.player_ids) <= MAX_PLAYERS:
            raise InvalidArgument(f"team {team.name!r} must have 1 to {MAX_PLAYERS} players")
        for player in team.player_ids:
            if player in seen:
                raise InvalidArgument(f"player {player!r} is in teams {seen[player]!r} and "
                                      f"{team.name!r}: a player plays for one team")
            seen[player] = team.name


def check_seats(campaign: records.Campaign, game_id: str, scenario_id: str,
                seats: Sequence[records.Seat], match_id: str = "", whole: bool = False) -> None:
    """Pure: FailedPrecondition unless a match of this game and scenario with these seats
    can count for the campaign: the campaign's game, a scenario of it not played yet, teams
    of it, and each member of the campaign seated for their own team (others for none, or
    any team if a bot); once the set-up has dealt the seats' sides, each team on one side
    and each side for one team. The store runs it when recording; callers may run it
    beforehand on a campaign they read, so as to refuse before creating anything. A
    scenario played by `match_id` itself is no refusal: that is a creation retried. `whole`:
    the seats are a whole match's (not one ticket's), which must seat a team of the campaign:
    a match with none would count for nobody, yet use the scenario up."""
    if campaign.game_id != game_id:
        raise FailedPrecondition(f"campaign {campaign.campaign_id!r} plays "
                                 f"{campaign.game_id!r}, not {game_id!r}")
    if scenario_id not in campaign.scenario_ids:
        raise FailedPrecondition(f"scenario {scenario_id!r} is not in the campaign")
    played = next((r.match_id for r in campaign.results if r.scenario_id == scenario_id), None)
    if played not in (None, match_id):
        raise FailedPrecondition(f"scenario {scenario_id!r} was already played in the "
                                 f"campaign (match {played!r})")
    if whole and not any(seat.campaign_team for seat in seats):
        raise FailedPrecondition("a campaign match must seat at least one team of the "
                                 "campaign: with none it would count for nobody")
    teams = {t.name for t in campaign.teams}
    members = {p: t.name for t in campaign.teams for p in t.player_ids}
    for seat in seats:
        if seat.campaign_team and seat.campaign_team not in teams:
            raise FailedPrecondition(f"seat {seat.seat}: the campaign has no team "
                                     f"{seat.campaign_team!r}")
        team = members.get(seat.player_id) if seat.player_id else None
        if seat.player_id and (team or "") != seat.campaign_team:
            raise FailedPrecondition(
                f"seat {seat.seat}: player {seat.player_id!r} plays for "
                + (f"team {team!r}" if team else "no team of the campaign")
                + f", not {seat.campaign_team or 'no team'!r}")
    _check_sides(seats)


def _check_sides(seats: Sequence[records.Seat]) -> None:
    """Each team on one side, each side for one team at most (Rulebook 2.1: a side's players
    cooperate; 9: a victory is a point for the team that won it), as the set-up dealt the
    sides; seats with no team, or no side yet (checked before the set-up), are free."""
    side_of: dict[str, str] = {}
    team_of: dict[str, str] = {}
    for seat in seats:
        team, side = seat.campaign_team, seat.side
        if not team or not side:
            continue
        if side_of.setdefault(team, side) != side:
            raise FailedPrecondition(f"team {team!r} is dealt two sides, {side_of[team]!r} "
                                     f"and {side!r}: a team plays one side")
        if team_of.setdefault(side, team) != team:
            raise FailedPrecondition(f"side {side!r} is dealt to teams {team_of[side]!r} and "
                                     f"{team!r}: a side plays for one team")


def check_match(s: Session, match: records.Match) -> None:
    """Refuses (nothing written) a new match that cannot count for its campaign, or names
    a campaign that does not exist (NotFound)."""
    check_seats(_campaign(s, match.campaign_id), match.game_id, match.scenario_id,
                match.seats, match.match_id, whole=True)


def standings(teams: Sequence[records.CampaignTeam], scenario_ids: Sequence[str],
              finished: Iterable[tuple[str, str, datetime | None]],
              seat_teams: Iterable[tuple[str, str | None, bool]]
              ) -> tuple[tuple[records.ScenarioResult, ...], tuple[records.Standing, ...]]:
    """Pure: the counted result of each scenario and each team's score.

    finished: (match id, scenario id, finish time) of the campaign's finished matches in
    finishing order; seat_teams: (match id, team, won) for each seat that plays for a team.
    """
    counted: dict[str, tuple[str, datetime]] = {}
    for match_id, scenario_id, when in finished:
        if scenario_id in scenario_ids and when is not None:  # finished: it has a time
            counted.setdefault(scenario_id, (match_id, when))
    by_match: dict[str, tuple[set[str], set[str]]] = {m: (set(), set())
                                                        for m, _ in counted.values()}
    for match_id, team, won in seat_teams:
        if match_id in by_match and team:
            by_match[match_id][0].add(team)
            if won:
                by_match[match_id][1].add(team)
    order = [t.name for t in teams]
    results = tuple(records.ScenarioResult(
        scenario, match_id, tuple(t for t in order if t in by_match[match_id][1]), utc(when))
        for scenario, (match_id, when) in counted.items())
    table = tuple(records.Standing(
        name, sum(name in won for _, won in by_match.values()),
        sum(name in seated for seated, _ in by_match.values())) for name in order)
    return results, table


def leaders(table: Sequence[records.Standing]) -> tuple[str, ...]:
    """The teams with the most points, none while nobody has scored."""
    best = max((t.points for t in table), default=0)
    return tuple(t.team for t in table if best and t.points == best)


class Campaigns:
    _read: sessionmaker[Session]
    _write: sessionmaker[Session]

    def create_campaign(self, campaign_id: str, game_id: str, scenario_ids: Sequence[str],
                        teams: Sequence[records.CampaignTeam],
                        integrator: str = "") -> records.Campaign:
        """Opens a campaign; opening the same one again returns it, other content under the
        same id is ALREADY_EXISTS. Every player must exist, and be the integrator's if one
        is named (a player opening a campaign: no teams of other integrators' players)."""
        check_teams(teams)
        if not scenario_ids:
            raise InvalidArgument(f"game {game_id!r} has no scenarios")
        players = {p for t in teams for p in t.player_ids}
        with contextlib.suppress(IntegrityError):  # a concurrent call opened it first
            self._open(campaign_id, game_id, scenario_ids, teams, players, integrator)
        stored = self.get_campaign(campaign_id)
        if (stored.game_id, stored.teams) != (game_id, tuple(teams)):
            raise AlreadyExists(f"campaign {campaign_id!r} was opened with other content")
        return stored

    def _open(self, campaign_id: str, game_id: str, scenario_ids: Sequence[str],
              teams: Sequence[records.CampaignTeam], players: set[str],
              integrator: str) -> None:
        with self._write.begin() as s:
            known = dict(s.execute(sa.select(models.Player.player_id, models.Player.integrator)
                                   .where(models.Player.player_id.in_(players))).all())
            if players - known.keys():
                raise NotFound(f"no players {sorted(players - known.keys())}")
            if integrator and any(i != integrator for i in known.values()):
                raise PermissionDenied("a campaign's players must all be of the integrator of "
                                       "the player opening it")
            row = s.get(models.Campaign, campaign_id)
            if row is None:
                s.add(models.Campaign(campaign_id=campaign_id, game_id=game_id,
                                      scenario_ids=list(scenario_ids),
                                      created_at=models.utcnow()))
                s.flush()  # the campaign before its teams, for their foreign keys
                s.add_all(models.CampaignTeam(campaign_id=campaign_id, name=t.name, position=i)
                          for i, t in enumerate(teams))
                s.flush()
                s.add_all(models.CampaignMember(campaign_id=campaign_id, player_id=p,
                                                team=t.name, position=j)
                          for t in teams for j, p in enumerate(t.player_ids))

    def get_campaign(self, campaign_id: str) -> records.Campaign:
        """The campaign with its standings as of now."""
        with self._read.begin() as s:
            return _campaign(s, campaign_id)


def _campaign(s: Session, campaign_id: str) -> records.Campaign:
    row = s.get(models.Campaign, campaign_id)
    if row is None:
        raise NotFound(f"no campaign {campaign_id!r}")
    match = models.Match
    finished = s.execute(
        sa.select(match.match_id, match.scenario_id, match.finished_at)
        .where(match.campaign_id == campaign_id, match.status == models.FINISHED)
        .order_by(match.finished_at, match.match_id)).all()
    seat, result = models.MatchSeat, models.Result
    seated = s.execute(
        sa.select(seat.match_id, seat.campaign_team, result.result == models.WIN)
        .join(match, match.match_id == seat.match_id)
        .join(result, sa.and_(result.match_id == seat.match_id, result.seat == seat.seat))
        .where(match.campaign_id == campaign_id, seat.campaign_team.is_not(None))).all()
    teams = _teams(s, campaign_id)
    results, table = standings(teams, row.scenario_ids, finished, seated)
    return records.Campaign(
        campaign_id, row.game_id, teams, tuple(row.scenario_ids), utc(row.created_at),
        results, table, len(results) == len(row.scenario_ids), leaders(table))


def _teams(s: Session, campaign_id: str) -> tuple[records.CampaignTeam, ...]:
    members: dict[str, list[str]] = {}
    for player_id, team in s.execute(
            sa.select(models.CampaignMember.player_id, models.CampaignMember.team)
            .filter_by(campaign_id=campaign_id).order_by(models.CampaignMember.position)):
        members.setdefault(team, []).append(player_id)
    names = s.scalars(sa.select(models.CampaignTeam.name).filter_by(campaign_id=campaign_id)
                      .order_by(models.CampaignTeam.position))
    return tuple(records.CampaignTeam(n, tuple(members.get(n, ()))) for n in names)
