"""`partida client campaign`: the team specs it accepts, and how a campaign's standings read."""

import io

import pytest
import typer
from google.protobuf.timestamp_pb2 import Timestamp
from rich.console import Console

from partida.cli.campaign import parse_teams
from partida.cli.render.campaign import render
from partida.v1 import persistence_pb2 as pb


def _text(renderable) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_team_specs_name_a_team_and_its_players():
    assert parse_teams(["posse=ana, bea", "gang=cy"]) == {"posse": ["ana", "bea"],
                                                         "gang": ["cy"]}


@pytest.mark.parametrize("specs", [["posse"], ["posse="], ["=ana"], ["posse=ana", "posse=cy"],
                                   ["posse= , "]])
def test_a_team_without_a_name_or_players_or_given_twice_is_refused(specs):
    with pytest.raises(typer.BadParameter):
        parse_teams(specs)


def _campaign(finished: bool) -> pb.Campaign:
    return pb.Campaign(
        campaign_id="c1", game_id="dynamit_joe", finished=finished,
        teams=[pb.CampaignTeam(name="posse", player_ids=["p1", "p2"]),
               pb.CampaignTeam(name="gang", player_ids=["p3"])],
        scenario_ids=["arrest", "rivalry", "showdown"],
        results=[pb.CampaignScenarioResult(scenario_id="rivalry", match_id="m-rivalry",
                                           winning_teams=["gang"], finish_time=Timestamp()),
                 pb.CampaignScenarioResult(scenario_id="arrest", match_id="m-arrest")],
        standings=[pb.CampaignStanding(team="gang", points=1, scenarios_played=2),
                   pb.CampaignStanding(team="posse", points=0, scenarios_played=2)],
        leaders=["gang"])


def _cells(text: str, first: str) -> list[str]:
    """The cells of the table row whose first cell starts with `first`."""
    line = next(line for line in text.splitlines() if line.strip("│ ").startswith(first))
    return [c.strip() for c in line.split("│")[1:-1]]


def test_standings_show_points_members_and_who_leads_until_the_end():
    text = _text(render(_campaign(finished=False)))
    assert "under way" in text
    assert _cells(text, "gang") == ["gang (leads)", "1", "1", "2"]
    assert _cells(text, "posse") == ["posse", "2", "0", "2"]
    done = _text(render(_campaign(finished=True)))
    assert "gang (wins)" in done and "leads" not in done and "finished" in done


def test_each_scenario_shows_its_counted_match_and_winners_or_that_it_is_to_play():
    text = _text(render(_campaign(finished=False)))
    assert _cells(text, "rivalry") == ["rivalry", "m-rivalry", "gang"]
    assert _cells(text, "arrest") == ["arrest", "m-arrest", "no team"]
    assert _cells(text, "showdown") == ["showdown", "to play", ""]
