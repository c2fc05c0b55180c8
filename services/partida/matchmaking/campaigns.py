"""Whether a ticket may ask for a campaign match: checked when the ticket is opened, so a
ticket the campaign would refuse never waits in a pool (persistence checks the match again,
authoritatively, when it is recorded)."""

from __future__ import annotations

from typing import Protocol

from partida.persistence import records
from partida.persistence.campaigns import check_seats


class CampaignSource(Protocol):
    """A campaign as the persistence service keeps it; errors.NotFound if there is none."""

    def campaign(self, campaign_id: str) -> records.Campaign: ...


def check_ticket(campaign: records.Campaign, game_id: str, scenario_id: str,
                 player_id: str, team: str) -> None:
    """FailedPrecondition unless the campaign plays this game and scenario, has not played
    the scenario yet, and counts the player in `team`."""
    check_seats(campaign, game_id, scenario_id, [records.Seat(0, player_id, campaign_team=team)])
