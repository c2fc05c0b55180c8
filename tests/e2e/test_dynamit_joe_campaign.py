"""A Dynamit Joe campaign through the services (Rulebook 9: each scenario won is a point for
the team; after all of them, most points wins). Two players open a campaign through the
front door, matchmake two scenarios inside it, hand their seats to the server's bots, and
read the standings the persistence service derives from the finished matches."""

from __future__ import annotations

import re
import time
import uuid

import grpc

from partida.cli.remote import Remote
from partida.devstack.stack import SECRETS
from partida.platform.auth import Authority
from partida.v1 import common_pb2, matchmaking_pb2, persistence_pb2, rules_pb2

from .play import player
from .test_client_cli import _client

SCENARIOS = ("arrest", "rivalry")


def _ticket(remote: Remote, scenario: str, campaign_id: str, team: str) -> str:
    return str(remote.call(remote.matchmaking, "CreateTicket", matchmaking_pb2.CreateTicketRequest(
        game_id="dynamit_joe", scenario_id=scenario, seats=2, request_id=uuid.uuid4().hex,
        campaign_id=campaign_id, campaign_team=team)).ticket.ticket_id)


def _seat(remote: Remote, ticket_id: str) -> tuple[str, int]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        t = remote.call(remote.matchmaking, "GetTicket",
                        matchmaking_pb2.GetTicketRequest(ticket_id=ticket_id)).ticket
        if t.match_id:
            return t.match_id, t.seat
        time.sleep(0.05)
    raise AssertionError("matchmaking took too long")


def _play_by_bots(remote: Remote, match_id: str, seat: int) -> None:
    remote.call(remote.rules, "SetSeatController", rules_pb2.SetSeatControllerRequest(
        match_id=match_id, seat=seat, controller=common_pb2.SEAT_CONTROLLER_BOT))


def _outcome(remote: Remote, match_id: str) -> common_pb2.Outcome:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        look = remote.look(match_id, None)
        if look.HasField("outcome"):
            return look.outcome
        time.sleep(0.1)
    raise AssertionError(f"match {match_id} did not end")


def _standings(remote: Remote, campaign_id: str, played: int) -> persistence_pb2.Campaign:
    """The campaign once `played` scenarios count (a match is closed in the database just
    after its last action is served)."""
    deadline = time.monotonic() + 30
    while True:
        campaign = remote.call(remote.persistence, "GetCampaign",
                               persistence_pb2.GetCampaignRequest(campaign_id=campaign_id))
        if len(campaign.campaign.results) >= played or time.monotonic() > deadline:
            return campaign.campaign
        time.sleep(0.1)


def _open_campaign(door: Remote, ana: Remote, cy: Remote) -> persistence_pb2.Campaign:
    """ana's posse against cy's gang, opened by ana through the front door."""
    return door.call(door.persistence, "CreateCampaign", persistence_pb2.CreateCampaignRequest(
        game_id="dynamit_joe", request_id=uuid.uuid4().hex,
        teams=[persistence_pb2.CampaignTeam(name="posse", player_ids=[ana.player_id]),
               persistence_pb2.CampaignTeam(name="gang", player_ids=[cy.player_id])])).campaign


def _front_door(stack, who: Remote) -> Remote:  # type: ignore[no-untyped-def]
    """The same player talking to the rules service's address only (platform/forward)."""
    remote = Remote(stack.address)
    remote.metadata, remote.player_id = who.metadata, who.player_id
    return remote


def test_two_scenarios_of_a_campaign_played_by_bots_score_for_the_teams(stack):
    """Rulebook 9: a point per scenario won, for the team of each winning seat."""
    ana, cy = player(stack), player(stack)
    door = _front_door(stack, ana)
    campaign = _open_campaign(door, ana, cy)
    assert len(campaign.scenario_ids) == 8
    team = {ana.player_id: "posse", cy.player_id: "gang"}
    expected = {"posse": 0, "gang": 0}
    for scenario in SCENARIOS:
        tickets = [(p, _ticket(p, scenario, campaign.campaign_id, team[p.player_id]))
                   for p in (ana, cy)]
        seats = [(p, *_seat(p, ticket_id)) for p, ticket_id in tickets]
        match_id = seats[0][1]
        assert {m for _, m, _ in seats} == {match_id}
        match = ana.call(ana.rules, "GetMatch", rules_pb2.GetMatchRequest(match_id=match_id)).match
        assert match.campaign_id == campaign.campaign_id
        assert {s.player_id: s.campaign_team for s in match.seats} == team
        for p, _, seat in seats:
            _play_by_bots(p, match_id, seat)
        outcome = _outcome(ana, match_id)
        for s in match.seats:
            if s.seat in outcome.winners:
                expected[s.campaign_team] += 1
    standings = _standings(door, campaign.campaign_id, len(SCENARIOS))
    assert [r.scenario_id for r in standings.results] == list(SCENARIOS)
    assert {s.team: s.points for s in standings.standings} == expected
    assert all(s.scenarios_played == 2 for s in standings.standings)
    assert not standings.finished  # six scenarios are still to play
    best = max(expected.values())
    assert list(standings.leaders) == [t for t in ("posse", "gang") if best and
                                       expected[t] == best]


def _status(call) -> grpc.StatusCode:  # type: ignore[no-untyped-def]
    try:
        call()
    except grpc.RpcError as e:
        return e.code()
    return grpc.StatusCode.OK


def test_requests_that_cannot_count_for_the_campaign_are_refused(stack):
    """Rulebook 9 scores teams: a ticket or a match seating a player for a team not theirs,
    or naming no campaign the server keeps, is refused with a clear status."""
    ana, cy = player(stack), player(stack)
    door = _front_door(stack, ana)
    campaign_id = _open_campaign(door, ana, cy).campaign_id
    assert _status(lambda: _ticket(door, "arrest", campaign_id, "gang")) == \
        grpc.StatusCode.FAILED_PRECONDITION
    assert _status(lambda: _ticket(door, "arrest", "no-such-campaign", "posse")) == \
        grpc.StatusCode.NOT_FOUND
    rules = Remote(stack.address)
    rules.metadata = (("authorization", "Bearer " + Authority(
        SECRETS["PARTIDA_TOKEN_SECRET"], SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"], {}
    ).service_token("matchmaking")),)

    def create(teams: tuple[str, str]) -> rules_pb2.CreateMatchResponse:
        return rules.call(rules.rules, "CreateMatch", rules_pb2.CreateMatchRequest(
            game_id="dynamit_joe", scenario_id="arrest", request_id="same-" + campaign_id,
            campaign_id=campaign_id,
            seats=[rules_pb2.SeatRequest(player_id=p.player_id, campaign_team=t)
                   for p, t in zip((ana, cy), teams, strict=True)]))

    assert _status(lambda: create(("gang", "posse"))) == grpc.StatusCode.FAILED_PRECONDITION
    match = create(("posse", "gang")).match  # the refused request left nothing in the way
    assert match.campaign_id == campaign_id
    assert [s.campaign_team for s in match.seats] == ["posse", "gang"]


def test_the_terminal_client_opens_plays_and_shows_a_campaign(stack):
    """`partida client campaign open|show` and `partida client play --campaign --team`: the
    scenario played (the other seat filled by a bot, which scores for no team) is the one
    the standings count, with the point going as the match ended (Rulebook 9)."""
    opened = _client(stack, "campaign", "open", "dynamit_joe", "--team", "posse=cli-ana",
                     "--team", "gang=cli-cy", "--player", "cli-ana")
    assert opened.returncode == 0, opened.stderr
    campaign_id = re.search(r"Campaign ([0-9a-z-]+) opened", opened.stdout).group(1)
    assert "to play" in opened.stdout and "under way" in opened.stdout

    played = _client(stack, "play", "dynamit_joe", "--scenario", "arrest", "--campaign",
                     campaign_id, "--team", "posse", "--auto", "heuristic",
                     "--player", "cli-ana", timeout=300)
    assert played.returncode == 0, played.stderr
    match_id = re.search(r"match ([0-9a-f]{32})", played.stdout).group(1)

    ana = player(stack)  # any player may read a finished match and a campaign
    match = ana.call(ana.rules, "GetMatch", rules_pb2.GetMatchRequest(match_id=match_id)).match
    assert match.campaign_id == campaign_id
    posse_won = any(s.campaign_team == "posse" and s.seat in match.outcome.winners
                    for s in match.seats)
    _standings(ana, campaign_id, 1)  # the match is closed in the database just after its end
    shown = _client(stack, "campaign", "show", campaign_id)
    assert shown.returncode == 0, shown.stderr
    assert re.search(rf"arrest\s*│\s*{match_id}\s*│\s*{'posse' if posse_won else 'no team'}",
                     shown.stdout)
    assert re.search(rf"posse[^│]*│\s*1\s*│\s*{int(posse_won)}\s*│\s*1\s*│", shown.stdout)

    refused = _client(stack, "play", "dynamit_joe", "--campaign", campaign_id)
    assert refused.returncode != 0 and "--campaign and --team go together" in refused.stderr
