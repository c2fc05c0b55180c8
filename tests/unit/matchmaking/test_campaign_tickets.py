"""Campaign tickets (Dynamit Joe, Rulebook 9: a campaign's scenarios are played by teams):
checked against the real campaign in a persistence store when opened, pooled only with their
campaign, and proposed with each ticket's team."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import partida.engine
from partida.engine import dealt_sides
from partida.matchmaking.matcher import ConstantRatings
from partida.matchmaking.pools import Policy, catalog_of, form_matches
from partida.matchmaking.service import MatchmakingServicer
from partida.matchmaking.store import MemoryTicketStore
from partida.persistence import records
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform import errors
from partida.platform.assembly import StoreRatings
from partida.v1 import matchmaking_pb2 as pb
from tests.unit.matchmaking.factory import POLICY, ticket
from tests.unit.matchmaking.test_service import as_player
from tests.unit.persistence.support import SEED, a_match, started

CATALOG = catalog_of(g.info for g in partida.engine.all_games())
GAMES = Policy(CATALOG, bot_fill_after_seconds=10.0, bot="heuristic")  # the real games


@pytest.fixture
def store(tmp_path) -> Any:
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    yield PersistenceStore(engine)
    engine.dispose()


@pytest.fixture
def cast(store) -> dict[str, str]:
    """ana in the posse, cy in the gang, of campaign c1 over every Dynamit Joe scenario."""
    ids = {name: store.create_player("acme", name, name).player_id for name in ("ana", "cy")}
    store.create_campaign("c1", "dynamit_joe", [s.scenario_id for s in CATALOG["dynamit_joe"]],
                          [records.CampaignTeam("posse", (ids["ana"],)),
                           records.CampaignTeam("gang", (ids["cy"],))])
    return ids


def play_the_arrest(store: PersistenceStore, cast: dict[str, str]) -> None:
    """A match of "The arrest" played to its end in campaign c1, ana against cy."""
    match = replace(a_match("m1", game_id="dynamit_joe", campaign_id="c1"),
                    scenario_id="arrest",
                    seats=(records.Seat(0, cast["ana"], campaign_team="posse"),
                           records.Seat(1, cast["cy"], campaign_team="gang")))
    started(store, match, actions=1)
    store.finish_match("m1", records.Outcome((0,), False, "arrested"), SEED)


def servicer(tickets: MemoryTicketStore, store: PersistenceStore | None) -> MatchmakingServicer:
    return MatchmakingServicer(tickets, ConstantRatings(), ticket_ttl_seconds=60,
                               catalog=CATALOG, campaigns=StoreRatings(store) if store else None)


def request(**fields: Any) -> pb.CreateTicketRequest:
    return pb.CreateTicketRequest(**({"game_id": "dynamit_joe", "scenario_id": "arrest",
                                      "seats": 2, "request_id": "r", "campaign_id": "c1",
                                      "campaign_team": "posse"} | fields))


def test_a_campaign_ticket_carries_its_campaign_and_team(store, cast):
    tickets = MemoryTicketStore()
    opened = as_player(cast["ana"], servicer(tickets, store).CreateTicket, request()).ticket
    assert (opened.campaign_id, opened.campaign_team) == ("c1", "posse")
    assert [(t.campaign_id, t.campaign_team) for t in tickets.searching()] == [("c1", "posse")]


REFUSED = {
    "team without campaign": (request(campaign_id=""), errors.InvalidArgument),
    "campaign without team": (request(campaign_team=""), errors.InvalidArgument),
    "any scenario": (request(scenario_id=""), errors.InvalidArgument),
    "unknown campaign": (request(campaign_id="c9"), errors.NotFound),
    "another game": (request(game_id="montanas", scenario_id="standard"),
                     errors.FailedPrecondition),
    "another team": (request(campaign_team="gang"), errors.FailedPrecondition),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_ticket_the_campaign_would_refuse_is_not_opened(store, cast, case):
    tickets = MemoryTicketStore()
    req, error = REFUSED[case]
    with pytest.raises(error):
        as_player(cast["ana"], servicer(tickets, store).CreateTicket, req)
    assert tickets.searching() == []


def test_a_scenario_the_campaign_played_is_not_asked_for_again(store, cast):
    """Rulebook 9: each scenario is played once in a campaign."""
    play_the_arrest(store, cast)
    tickets = MemoryTicketStore()
    with pytest.raises(errors.FailedPrecondition):
        as_player(cast["ana"], servicer(tickets, store).CreateTicket, request())
    as_player(cast["ana"], servicer(tickets, store).CreateTicket,
              request(scenario_id="rivalry"))
    assert [t.scenario_id for t in tickets.searching()] == ["rivalry"]


def test_a_server_without_campaigns_refuses_campaign_tickets(store, cast):
    with pytest.raises(errors.FailedPrecondition):
        as_player(cast["ana"], servicer(MemoryTicketStore(), None).CreateTicket, request())


def test_campaign_tickets_meet_only_tickets_of_their_campaign():
    plain = ticket("a", created=0)
    posse = replace(ticket("b", created=1), campaign_id="c1", campaign_team="posse")
    gang = replace(ticket("c", created=2), campaign_id="c1", campaign_team="gang")
    other = replace(ticket("d", created=3), campaign_id="c2", campaign_team="gang")
    proposals = form_matches([plain, posse, gang, other], 5, POLICY)
    assert [(p.ticket_ids, p.campaign_id, p.campaign_teams) for p in proposals] == [
        (("b", "c"), "c1", ("posse", "gang"))]


def test_bot_seats_of_a_campaign_table_play_for_no_team():
    policy = Policy(POLICY.catalog, bot_fill_after_seconds=1.0, bot="heuristic")
    alone = replace(ticket("a", bots=True), campaign_id="c1", campaign_team="posse")
    [proposal] = form_matches([alone], 5, policy)
    assert proposal.seats == [("p-a", None), (None, "heuristic")]
    assert (proposal.campaign_id, proposal.campaign_teams) == ("c1", ("posse",))
    assert proposal.request_id != replace(proposal, campaign_id="c2").request_id


def _joe(tid: str, team: str, created: float, seats: int = 2, bots: bool = False,
         campaign: str = "c1") -> Any:
    return replace(ticket(tid, created=created, game="dynamit_joe", scenario="arrest",
                          seats=seats, bots=bots), campaign_id=campaign, campaign_team=team)


def test_team_mates_are_not_seated_on_opposite_sides():
    """Dynamit Joe deals a table's seats the law and the thieves in turn (arrest, 9.1), and
    matchmaking seated tickets oldest first: two posse tickets waiting together met at one
    table, on opposite sides, so the posse was sure to win the scenario's point (Rulebook 9:
    a scenario won is a point for its team) and the gang never played it. A team's ticket
    that cannot sit on a side of its own is left for another table."""
    tickets = [_joe("a", "posse", 0), _joe("b", "posse", 1), _joe("c", "gang", 2)]
    [table] = form_matches(tickets, 5, GAMES)
    assert (table.ticket_ids, table.campaign_teams) == (("a", "c"), ("posse", "gang"))


def test_a_four_seat_table_seats_each_team_on_its_side():
    """Four tickets in the age order posse, posse, gang, gang took the seats law, thieves,
    law, thieves as they came: each side held one of each team, so whichever side won,
    both teams scored. They are now seated by side: posse at seats 0 and 2, the gang at
    1 and 3."""
    tickets = [_joe("a", "posse", 0, 4), _joe("b", "posse", 1, 4), _joe("c", "gang", 2, 4),
               _joe("d", "gang", 3, 4)]
    [table] = form_matches(tickets, 5, GAMES)
    assert table.ticket_ids == ("a", "c", "b", "d")
    assert table.campaign_teams == ("posse", "gang", "posse", "gang")
    assert dealt_sides("dynamit_joe", "arrest", 4) == ("law", "thieves", "law", "thieves")


def test_a_table_completed_by_bots_seats_one_team_only_where_bots_leave_it_room():
    """Bots take the last seats: with two posse players and two bots the players would
    hold seats 0 and 1, law and thieves. The second posse ticket waits for another table;
    a stranger without team may take that seat."""
    policy = Policy(CATALOG, bot_fill_after_seconds=1.0, bot="heuristic")
    tickets = [_joe("a", "posse", 0, 4, bots=True), _joe("b", "posse", 1, 4, bots=True),
               _joe("c", "", 2, 4, bots=True)]
    tables = form_matches(tickets, 5, policy)
    assert [(t.ticket_ids, t.bot_seats) for t in tables] == [(("a", "c"), 2), (("b",), 3)]


def test_tickets_of_a_scenario_played_while_they_waited_fail_with_the_reason(store, cast):
    """Rulebook 9: each scenario is played once in a campaign. Tickets opened for "The
    arrest" that waited while another match of it finished were matched and refused by the
    rules service, again every tick until they expired, and their players never learnt why:
    they now fail with the refusal."""
    from partida.dice.logic import Dice
    from partida.matchmaking.matcher import Matcher
    from partida.matchmaking.tickets import FAILED
    from partida.platform.assembly import LocalCreator
    from partida.rules.ledger import LocalLedger
    from partida.rules.matches import Matches
    from partida.rules.session import MemorySessionStore
    tickets = MemoryTicketStore()
    for player, team in (("ana", "posse"), ("cy", "gang")):
        as_player(cast[player], servicer(tickets, store).CreateTicket,
                  request(campaign_team=team, request_id=player))
    play_the_arrest(store, cast)
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store))
    waiting = tickets.searching()
    assert Matcher(tickets, LocalCreator(matches), GAMES).tick() == 0
    ended = [tickets.get(t.ticket_id) for t in waiting]
    assert [t.status for t in ended] == [FAILED, FAILED]
    assert all(t.failure.startswith("FAILED_PRECONDITION: ") and "arrest" in t.failure
               for t in ended), ended
