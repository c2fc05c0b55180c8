"""Campaigns (Dynamit Joe, Rulebook 9: each scenario won is a point for the team; once all
are played, most points wins) in the store and through PersistenceService, on any database:
TestCampaignsOnSqlite here, TestCampaignsOnPostgres in tests/integration."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import grpc
import pytest

from partida.persistence import records
from partida.persistence.store import PersistenceStore
from partida.platform.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
)
from partida.v1 import common_pb2, persistence_pb2_grpc
from partida.v1 import persistence_pb2 as pb
from tests.unit.persistence.service_behaviours import SERVICE, bearer, status
from tests.unit.persistence.store_behaviours import WithStore
from tests.unit.persistence.support import AUTHORITY, SEED, a_match, serving, started

Code = grpc.StatusCode
SCENARIOS = ("arrest", "showdown")  # a two-scenario campaign keeps the store tests short


class Cast:
    """Four real players: ana and bo in the posse, cy and di in the gang."""

    def __init__(self, store: PersistenceStore) -> None:
        self.ana, self.bo, self.cy, self.di = (
            store.create_player("acme", name, name.title()).player_id
            for name in ("ana", "bo", "cy", "di"))

    def teams(self) -> tuple[records.CampaignTeam, ...]:
        return (records.CampaignTeam("posse", (self.ana, self.bo)),
                records.CampaignTeam("gang", (self.cy, self.di)))


def seat(n: int, player: str = "", team: str = "") -> records.Seat:
    if player:
        return records.Seat(n, player, campaign_team=team)
    return records.Seat(n, "", "bot", "heuristic", campaign_team=team)


def campaign_match(match_id: str, seats: tuple[records.Seat, ...], scenario: str = "arrest",
                   campaign_id: str = "c1", game_id: str = "dynamit_joe") -> records.Match:
    match = a_match(match_id, game_id=game_id, campaign_id=campaign_id)
    return replace(match, scenario_id=scenario, seats=seats)


def play(store: PersistenceStore, match: records.Match, winners: tuple[int, ...] = (),
         draw: bool = False) -> None:
    started(store, match, actions=1)
    store.finish_match(match.match_id, records.Outcome(winners, draw, "over"), SEED)


class WithCampaign(WithStore):
    @pytest.fixture
    def cast(self, store) -> Cast:
        return Cast(store)

    @pytest.fixture
    def c1(self, store, cast) -> records.Campaign:
        return store.create_campaign("c1", "dynamit_joe", SCENARIOS, cast.teams())

    def duel(self, cast: Cast, match_id: str, scenario: str = "arrest") -> records.Match:
        """ana (posse) at seat 0 against cy (gang) at seat 1."""
        return campaign_match(match_id, (seat(0, cast.ana, "posse"), seat(1, cast.cy, "gang")),
                              scenario)


class CampaignStoreBehaviours(WithCampaign):

    def test_a_new_campaign_reads_back_with_no_points(self, store, cast, c1):
        assert c1 == store.get_campaign("c1")
        assert (c1.game_id, c1.teams, c1.scenario_ids) == ("dynamit_joe", cast.teams(), SCENARIOS)
        assert [(s.team, s.points, s.scenarios_played) for s in c1.standings] == [
            ("posse", 0, 0), ("gang", 0, 0)]
        assert not c1.finished and c1.leaders == () and c1.results == ()

    def test_opening_again_returns_it_but_other_content_is_refused(self, store, cast, c1):
        assert store.create_campaign("c1", "dynamit_joe", SCENARIOS, cast.teams()) == c1
        swapped = (records.CampaignTeam("posse", (cast.cy,)),
                   records.CampaignTeam("gang", (cast.ana,)))
        with pytest.raises(AlreadyExists):
            store.create_campaign("c1", "dynamit_joe", SCENARIOS, swapped)
        assert store.get_campaign("c1") == c1

    @pytest.mark.parametrize("teams, error", [
        ((("posse", ("ana",)),), InvalidArgument),  # one team
        ((("posse", ("ana",)), ("posse", ("cy",))), InvalidArgument),  # a name twice
        ((("posse", ("ana",)), ("gang", ())), InvalidArgument),  # an empty team
        ((("posse", ("ana", "bo")), ("gang", ("cy", "bo"))), InvalidArgument),  # bo twice
        ((("posse", ("ana",)), ("gang", ("ghost",))), NotFound),  # no such player
    ])
    def test_bad_teams_are_refused_and_nothing_is_stored(self, store, cast, teams, error):
        """Rulebook 9 counts points per team: a player plays for one team only."""
        ids = {"ana": cast.ana, "bo": cast.bo, "cy": cast.cy, "ghost": "ghost"}
        given = [records.CampaignTeam(n, tuple(ids[p] for p in ps)) for n, ps in teams]
        with pytest.raises(error):
            store.create_campaign("c2", "dynamit_joe", SCENARIOS, given)
        with pytest.raises(NotFound):
            store.get_campaign("c2")

    def test_a_scenario_won_is_a_point_for_the_winners_team(self, store, cast, c1):
        """Rulebook 9: each victory counts one point for the team that won it."""
        play(store, self.duel(cast, "m1"), winners=(1,))
        campaign = store.get_campaign("c1")
        assert [(s.team, s.points, s.scenarios_played) for s in campaign.standings] == [
            ("posse", 0, 1), ("gang", 1, 1)]
        assert [(r.scenario_id, r.match_id, r.winning_teams) for r in campaign.results] == [
            ("arrest", "m1", ("gang",))]
        assert campaign.leaders == ("gang",) and not campaign.finished

    def test_a_draw_or_round_limit_call_gives_no_point(self, store, cast, c1):
        """Rulebook 9 scores victories only: a drawn scenario is played, nobody scores."""
        play(store, self.duel(cast, "m1"), draw=True)
        campaign = store.get_campaign("c1")
        assert [r.winning_teams for r in campaign.results] == [()]
        assert [s.points for s in campaign.standings] == [0, 0] and campaign.leaders == ()

    def test_several_winning_seats_of_one_team_score_once(self, store, cast, c1):
        """Rulebook 9: one point per scenario won, whatever the number of winning seats."""
        match = campaign_match("m1", (seat(0, cast.ana, "posse"), seat(1, cast.bo, "posse"),
                                      seat(2, cast.cy, "gang")))
        play(store, match, winners=(0, 1))
        assert [s.points for s in store.get_campaign("c1").standings] == [1, 0]

    def test_a_seat_scores_for_whatever_team_wins_with_it(self, store, cast, c1):
        """Rulebook 9 with 8.1: the engine names the seats that won with the side they ended
        on, so a seat that changed sides and won scores for its team, beside the other."""
        play(store, self.duel(cast, "m1"), winners=(0, 1))
        campaign = store.get_campaign("c1")
        assert campaign.results[0].winning_teams == ("posse", "gang")
        assert campaign.leaders == ("posse", "gang")

    def test_a_bot_seat_scores_for_the_team_it_was_given(self, store, cast, c1):
        match = campaign_match("m1", (seat(0, cast.ana, "posse"), seat(1, team="gang"),
                                      seat(2)))
        play(store, match, winners=(1, 2))  # the teamless bot wins too, for nobody
        assert [s.points for s in store.get_campaign("c1").standings] == [0, 1]

    def test_the_first_match_of_a_scenario_to_finish_counts_and_it_is_not_replayed(
            self, store, cast, c1):
        """Rulebook 9 plays each scenario once in a campaign: of two matches of a scenario
        in play together, the first to finish counts; afterwards it cannot be played again."""
        first, second = self.duel(cast, "m1"), self.duel(cast, "m2")
        started(store, first, actions=1)
        play(store, second, winners=(0,))
        store.finish_match("m1", records.Outcome((1,), False, "over"), SEED)
        campaign = store.get_campaign("c1")
        assert [(r.match_id, r.winning_teams) for r in campaign.results] == [("m2", ("posse",))]
        assert [s.points for s in campaign.standings] == [1, 0]
        with pytest.raises(FailedPrecondition):
            store.record_match(self.duel(cast, "m3"))

    def test_the_campaign_ends_when_every_scenario_is_played_and_most_points_win(
            self, store, cast, c1):
        """Rulebook 9: after all scenarios, the team with the most points wins."""
        play(store, self.duel(cast, "m1", "arrest"), winners=(0,))
        assert not store.get_campaign("c1").finished
        play(store, self.duel(cast, "m2", "showdown"), draw=True)
        campaign = store.get_campaign("c1")
        assert campaign.finished and campaign.leaders == ("posse",)
        assert [r.scenario_id for r in campaign.results] == ["arrest", "showdown"]
        with pytest.raises(FailedPrecondition):
            store.record_match(self.duel(cast, "m3", "showdown"))

    def test_matches_outside_the_campaign_do_not_count(self, store, cast, c1):
        play(store, replace(self.duel(cast, "m1"), campaign_id="",
                            seats=(seat(0, cast.ana), seat(1, cast.cy))), winners=(0,))
        assert store.get_campaign("c1").results == ()

    def refusals(self, cast: Cast) -> dict[str, tuple[records.Match, type[Exception]]]:
        ana, cy = seat(0, cast.ana, "posse"), seat(1, cast.cy, "gang")
        return {
            "unknown campaign": (campaign_match("x", (ana, cy), campaign_id="c9"), NotFound),
            "another game": (campaign_match("x", (ana, cy), game_id="montanas"),
                             FailedPrecondition),
            "scenario not in it": (campaign_match("x", (ana, cy), "eldorado"),
                                   FailedPrecondition),
            "team not in it": (campaign_match("x", (ana, seat(1, team="sheriffs"))),
                               FailedPrecondition),
            "member for the other team": (campaign_match("x", (seat(0, cast.ana, "gang"), cy)),
                                          FailedPrecondition),
            "member for no team": (campaign_match("x", (seat(0, cast.ana), cy)),
                                   FailedPrecondition),
            "stranger for a team": (campaign_match("x", (ana, seat(1, "p-x", "gang"))),
                                    FailedPrecondition),
        }

    @pytest.mark.parametrize("case", ["unknown campaign", "another game", "scenario not in it",
                                      "team not in it", "member for the other team",
                                      "member for no team", "stranger for a team"])
    def test_a_match_that_cannot_count_is_refused_and_not_recorded(self, store, cast, c1, case):
        match, error = self.refusals(cast)[case]
        with pytest.raises(error):
            store.record_match(match)
        with pytest.raises(NotFound):
            store.get_match("x")

    def test_a_strangers_seat_without_team_and_retries_are_accepted(self, store, cast, c1):
        match = campaign_match("m1", (seat(0, cast.ana, "posse"), seat(1, "p-guest")))
        assert store.record_match(match) == store.record_match(match) == store.get_match("m1")
        assert store.get_match("m1").seats[0].campaign_team == "posse"

    def test_a_side_dealt_to_seats_of_two_teams_is_refused(self, store, cast, c1):
        """Four seats of "The arrest" dealt side by side (seats 0 and 2 the law, 1 and 3 the
        outlaws) to tickets in age order put a posse and a gang player on each side: the
        match was recorded, and whichever side won gave both teams the same point. A side's
        players cooperate for one goal (Rulebook 2.1), and a victory is one point for the
        team that won it (9): a side is played for one campaign team at most."""
        match = campaign_match("x", (
            replace(seat(0, cast.ana, "posse"), side="law"),
            replace(seat(1, cast.bo, "posse"), side="outlaws"),
            replace(seat(2, cast.cy, "gang"), side="law"),
            replace(seat(3, cast.di, "gang"), side="outlaws")))
        with pytest.raises(FailedPrecondition, match="side"):
            store.record_match(match)
        with pytest.raises(NotFound):
            store.get_match("x")

    def test_a_team_dealt_two_sides_is_refused(self, store, cast, c1):
        """Two posse players whose tickets met were seated against each other: the posse
        was sure of the point (Rulebook 9) and the gang never played the scenario, which
        could not be played again. A campaign team plays one side (Rulebook 2.1)."""
        match = campaign_match("x", (replace(seat(0, cast.ana, "posse"), side="law"),
                                     replace(seat(1, cast.bo, "posse"), side="outlaws")))
        with pytest.raises(FailedPrecondition, match="side"):
            store.record_match(match)
        with pytest.raises(NotFound):
            store.get_match("x")
        assert store.get_campaign("c1").results == ()

    def test_teams_on_sides_of_their_own_and_teamless_seats_are_accepted(
            self, store, cast, c1):
        """Each team on its side, a stranger and a bot beside either: as recorded."""
        match = campaign_match("m1", (
            replace(seat(0, cast.ana, "posse"), side="law"),
            replace(seat(1, cast.cy, "gang"), side="outlaws"),
            replace(seat(2, cast.bo, "posse"), side="law"),
            replace(seat(3, "p-guest"), side="outlaws"),
            replace(seat(4), side="law")))
        assert store.record_match(match) == store.get_match("m1")

    def test_handing_a_seat_to_a_bot_keeps_its_team(self, store, cast, c1):
        store.record_match(self.duel(cast, "m1"))
        store.update_seat("m1", records.Seat(0, cast.ana, "bot", "heuristic"))
        assert store.get_match("m1").seats[0] == records.Seat(0, cast.ana, "bot", "heuristic",
                                                              campaign_team="posse")


def campaign_request(teams: dict[str, list[str]], **fields: Any) -> pb.CreateCampaignRequest:
    return pb.CreateCampaignRequest(**({"game_id": "dynamit_joe", "request_id": "r1"} | fields),
                                    teams=[pb.CampaignTeam(name=n, player_ids=p)
                                           for n, p in teams.items()])


class CampaignServiceBehaviours(WithCampaign):
    @pytest.fixture
    def stub(self, store) -> Any:
        with serving(store) as channel:
            yield persistence_pb2_grpc.PersistenceServiceStub(channel)

    def test_a_player_opens_a_campaign_of_every_scenario_and_reads_it(self, stub, cast):
        """Rulebook 9: a campaign plays all the scenarios (Dynamit Joe has eight)."""
        ana = bearer(AUTHORITY.player_token(cast.ana, 600)[0])
        request = campaign_request({"posse": [cast.ana], "gang": [cast.cy]})
        opened = stub.CreateCampaign(request, metadata=ana, timeout=30).campaign
        assert list(opened.scenario_ids) == ["arrest", "love_sickness", "showdown",
                                             "bank_hoist", "rivalry", "hostages", "break_out",
                                             "eldorado"]
        assert stub.CreateCampaign(request, metadata=ana, timeout=30).campaign == opened
        read = stub.GetCampaign(pb.GetCampaignRequest(campaign_id=opened.campaign_id),
                                metadata=SERVICE, timeout=30).campaign
        assert read == opened
        assert [(s.team, s.points) for s in read.standings] == [("posse", 0), ("gang", 0)]

    def test_standings_come_back_over_grpc(self, stub, store, cast, c1):
        play(store, self.duel(cast, "m1"), winners=(0,))
        read = stub.GetCampaign(pb.GetCampaignRequest(campaign_id="c1"), metadata=SERVICE,
                                timeout=30).campaign
        assert [(s.team, s.points, s.scenarios_played) for s in read.standings] == [
            ("posse", 1, 1), ("gang", 0, 1)]
        assert [(r.scenario_id, r.match_id, list(r.winning_teams)) for r in read.results] == [
            ("arrest", "m1", ["posse"])]
        assert list(read.leaders) == ["posse"] and not read.finished

    def bad(self, cast: Cast) -> dict[str, tuple[str, Any, Code]]:
        two = {"posse": [cast.ana], "gang": [cast.cy]}
        return {
            "unknown game": ("CreateCampaign", campaign_request(two, game_id="chess"),
                             Code.INVALID_ARGUMENT),
            "no game": ("CreateCampaign", campaign_request(two, game_id=""),
                        Code.INVALID_ARGUMENT),
            "no request id": ("CreateCampaign", campaign_request(two, request_id=""),
                              Code.INVALID_ARGUMENT),
            "blank team name": ("CreateCampaign", campaign_request(
                {" ": [cast.ana], "gang": [cast.cy]}), Code.INVALID_ARGUMENT),
            "empty player id": ("CreateCampaign", campaign_request(
                {"posse": [""], "gang": [cast.cy]}), Code.INVALID_ARGUMENT),
            "player in two teams": ("CreateCampaign", campaign_request(
                {"posse": [cast.ana], "gang": [cast.ana]}), Code.INVALID_ARGUMENT),
            "one team": ("CreateCampaign", campaign_request({"posse": [cast.ana]}),
                         Code.INVALID_ARGUMENT),
            "unknown player": ("CreateCampaign", campaign_request(
                {"posse": [cast.ana], "gang": ["ghost"]}), Code.NOT_FOUND),
            "no campaign id": ("GetCampaign", pb.GetCampaignRequest(), Code.INVALID_ARGUMENT),
            "unknown campaign": ("GetCampaign", pb.GetCampaignRequest(campaign_id="c9"),
                                 Code.NOT_FOUND),
        }

    @pytest.mark.parametrize("case", ["unknown game", "no game", "no request id",
                                      "blank team name", "empty player id",
                                      "player in two teams", "one team", "unknown player",
                                      "no campaign id", "unknown campaign"])
    def test_bad_campaign_requests_get_a_clear_status_and_change_nothing(
            self, stub, store, cast, case):
        method, request, code = self.bad(cast)[case]
        assert status(getattr(stub, method), request, SERVICE) == code
        assert status(stub.GetCampaign, pb.GetCampaignRequest(campaign_id="c1"),
                      SERVICE) == Code.NOT_FOUND
        opened = stub.CreateCampaign(campaign_request({"posse": [cast.ana], "gang": [cast.cy]},
                                                      request_id="fresh"),
                                     metadata=SERVICE, timeout=30).campaign
        assert [s.points for s in opened.standings] == [0, 0]

    def test_a_player_opens_campaigns_only_with_players_of_their_integrator(
            self, stub, store, cast):
        stranger = store.create_player("globex", "eve", "Eve").player_id
        ana = bearer(AUTHORITY.player_token(cast.ana, 600)[0])
        mixed = campaign_request({"posse": [cast.ana], "gang": [stranger]})
        assert status(stub.CreateCampaign, mixed, ana) == Code.PERMISSION_DENIED
        assert status(stub.CreateCampaign, mixed, SERVICE) == Code.OK  # services may

    def test_a_player_opens_campaigns_only_for_a_team_of_theirs(self, stub, cast):
        bo = bearer(AUTHORITY.player_token(cast.bo, 600)[0])
        request = campaign_request({"posse": [cast.ana], "gang": [cast.cy]})
        assert status(stub.CreateCampaign, request, bo) == Code.PERMISSION_DENIED
        assert status(stub.CreateCampaign, request) == Code.UNAUTHENTICATED
        assert status(stub.GetCampaign, pb.GetCampaignRequest(campaign_id="c1")) == \
            Code.UNAUTHENTICATED

    def test_record_match_refuses_campaign_fields_that_do_not_fit(self, stub, store, cast, c1):
        def request(campaign_id: str, team: str, game_id: str = "dynamit_joe"
                    ) -> pb.RecordMatchRequest:
            match = pb.RecordMatchRequest(match=common_pb2.Match(
                match_id="x", game_id=game_id, scenario_id="arrest", campaign_id=campaign_id,
                status=common_pb2.MATCH_STATUS_ACTIVE, dice_commitment=b"c" * 32,
                seats=[common_pb2.Seat(seat=0, player_id=cast.ana, campaign_team=team,
                                       controller=common_pb2.SEAT_CONTROLLER_HUMAN)]))
            return match

        cases = [(request("", "posse"), Code.INVALID_ARGUMENT),
                 (request("c1", " "), Code.INVALID_ARGUMENT),
                 (request("c9", "posse"), Code.NOT_FOUND),
                 (request("c1", "posse", "montanas"), Code.FAILED_PRECONDITION),
                 (request("c1", "gang"), Code.FAILED_PRECONDITION)]
        assert [status(stub.RecordMatch, r, SERVICE) for r, _ in cases] == [c for _, c in cases]
        with pytest.raises(NotFound):
            store.get_match("x")
        assert status(stub.RecordMatch, request("c1", "posse"), SERVICE) == Code.OK
        recorded = stub.GetMatchLog(pb.GetMatchLogRequest(match_id="x"), metadata=SERVICE,
                                    timeout=30).match
        assert (recorded.campaign_id, recorded.seats[0].campaign_team) == ("c1", "posse")
