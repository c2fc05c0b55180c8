"""Creating a match inside a campaign (Dynamit Joe, Rulebook 9: the campaign's scenarios are
played by its teams): the rules logic over a real SQLite store refuses a match that could not
count before drawing its dice, and records the campaign and each seat's team otherwise."""

from __future__ import annotations

import uuid

import pytest

from partida.persistence import records
from partida.persistence.models import DiceStream
from partida.platform.errors import FailedPrecondition, InvalidArgument, NotFound
from partida.rules.session import SeatMeta
from tests.unit.rules.conftest import rid


@pytest.fixture
def cast(store) -> tuple[str, str]:
    ana, cy = (store.create_player("acme", n, n).player_id for n in ("ana", "cy"))
    store.create_campaign("c1", "dynamit_joe", ("arrest", "rivalry"),
                          (records.CampaignTeam("posse", (ana,)),
                           records.CampaignTeam("gang", (cy,))))
    return ana, cy


def create(matches, cast, teams=("posse", "gang"), campaign_id="c1", scenario="arrest",
           request_id=None):
    seats = [SeatMeta(p, "human", "", t) for p, t in zip(cast, teams, strict=True)]
    return matches.create("dynamit_joe", scenario, seats, {}, request_id=request_id or rid(),
                          campaign_id=campaign_id)


def dice_streams(store) -> int:
    with store._read.begin() as s:
        return s.query(DiceStream).count()


@pytest.mark.parametrize("teams, campaign_id, scenario, error", [
    (("posse", "gang"), "c9", "arrest", NotFound),
    (("gang", "posse"), "c1", "arrest", FailedPrecondition),  # each for the other team
    (("posse", "sheriffs"), "c1", "arrest", FailedPrecondition),
    (("posse", "gang"), "c1", "love_sickness", FailedPrecondition),  # not in this campaign
    (("posse", "gang"), "", "arrest", InvalidArgument),  # teams without a campaign
])
def test_a_match_that_cannot_count_is_refused_before_anything_is_made(
        matches, store, cast, teams, campaign_id, scenario, error):
    with pytest.raises(error):
        create(matches, cast, teams, campaign_id, scenario, request_id="same")
    assert dice_streams(store) == 0  # no dice stream, no match, no session
    assert matches.sessions.load(create(matches, cast, request_id="same").match_id)


def test_a_campaign_match_carries_its_campaign_and_teams_to_the_record(matches, store, cast):
    s = create(matches, cast)
    assert s.campaign_id == "c1" and [m.campaign_team for m in s.seats] == ["posse", "gang"]
    recorded = store.get_match(s.match_id)
    assert recorded.campaign_id == "c1"
    assert [x.campaign_team for x in recorded.seats] == ["posse", "gang"]


def test_teammates_dealt_opposite_sides_are_refused_and_nothing_is_recorded(matches, store):
    """Two players of one team asking for "The arrest" together (as two of their tickets
    meet in matchmaking) were seated one for the law and one for the outlaws: the match
    counted, their team was sure of the point (Rulebook 9) and the other team never got to
    play the scenario. A campaign team plays one side (Rulebook 2.1): refused by the sides the
    scenario deals, before the dice are drawn, so nothing is left behind; the same request
    with the teams on sides of their own then makes the match."""
    ana, bo, cy = (store.create_player("acme", n, n).player_id for n in ("ana", "bo", "cy"))
    store.create_campaign("c2", "dynamit_joe", ("arrest",),
                          (records.CampaignTeam("posse", (ana, bo)),
                           records.CampaignTeam("gang", (cy,))))
    both_posse = [SeatMeta(ana, "human", "", "posse"), SeatMeta(bo, "human", "", "posse")]
    with pytest.raises(FailedPrecondition, match="side"):
        matches.create("dynamit_joe", "arrest", both_posse, {}, request_id="same",
                       campaign_id="c2")
    refused = uuid.uuid5(uuid.NAMESPACE_URL, "partida:same").hex
    with pytest.raises(NotFound):
        store.get_match(refused)
    with pytest.raises(NotFound):  # refused before its dice, which are the set-up's
        store.get_stream(refused)
    s = matches.create("dynamit_joe", "arrest", [SeatMeta(ana, "human", "", "posse"),
                                                  SeatMeta(cy, "human", "", "gang")], {},
                       request_id="same", campaign_id="c2")
    assert [m.side for m in s.seats][0] != [m.side for m in s.seats][1]
    assert store.get_match(s.match_id).campaign_id == "c2"
