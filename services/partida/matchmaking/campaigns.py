"""Whether a ticket may ask for a campaign match: checked when the ticket is opened, so a
ticket the campaign would refuse never waits in a pool (persistence checks the match again,
authoritatively, when it is recorded)."""

from __future__ import annotations

from typing import Protocol

from partida.platform import errors
from partida.v1 import persistence_pb2


class CampaignSource(Protocol):
    """A campaign as the persistence service returns it; errors.NotFound if there is none."""

    def campaign(self, campaign_id: str) -> persistence_pb2.Campaign: ...


def check_ticket(campaign: persistence_pb2.Campaign, game_id: str, scenario_id: str,
                 player_id: str, team: str) -> None:
    """FailedPrecondition unless the campaign plays this game and scenario, has not played
    the scenario yet, and counts the player in `team`."""
    if campaign.game_id != game_id:
        raise errors.FailedPrecondition(
            f"campaign {campaign.campaign_id!r} plays {campaign.game_id!r}, not {game_id!r}")
    if scenario_id not in campaign.scenario_ids:
        raise errors.FailedPrecondition(f"scenario {scenario_id!r} is not in the campaign")
    if any(r.scenario_id == scenario_id for r in campaign.results):
        raise errors.FailedPrecondition(
            f"scenario {scenario_id!r} was already played in the campaign")
    mine = next((t.name for t in campaign.teams if player_id in t.player_ids), None)
    if mine != team:
        raise errors.FailedPrecondition(
            f"the player is in team {mine!r} of the campaign, not {team!r}" if mine
            else "the player is in no team of the campaign")
