"""A campaign's standings and scenario results as rich tables (pure)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table


def render(campaign: Any) -> RenderableType:
    """Standings (points, scenarios played; leaders marked), then each scenario: the match
    that counts for it and the teams that won it, or that it is still to play."""
    state = "finished" if campaign.finished else "under way"
    standings = Table(title=f"Campaign {campaign.campaign_id} — {campaign.game_id}, {state}")
    for column in ("team", "players", "points", "scenarios played"):
        standings.add_column(column)
    members = {t.name: len(t.player_ids) for t in campaign.teams}
    leaders = set(campaign.leaders)
    for s in campaign.standings:
        mark = " (leads)" if s.team in leaders and not campaign.finished else (
            " (wins)" if s.team in leaders else "")
        standings.add_row(f"{s.team}{mark}", str(members.get(s.team, 0)), str(s.points),
                          str(s.scenarios_played))
    results = {r.scenario_id: r for r in campaign.results}
    scenarios = Table(title="Scenarios")
    for column in ("scenario", "match", "won by"):
        scenarios.add_column(column)
    for scenario in campaign.scenario_ids:
        r = results.get(scenario)
        if r is None:
            scenarios.add_row(scenario, "to play", "")
        else:
            scenarios.add_row(scenario, r.match_id, ", ".join(r.winning_teams) or "no team")
    return Group(standings, scenarios)
