"""Campaign tickets (Rulebook 9: a campaign's scenarios are played by its teams) in the Redis
TicketStore: their campaign and team survive the ticket's hash, the pools' documents and a
claim recovered from a matcher that died."""

from dataclasses import replace

from partida.matchmaking.pools import Proposal
from tests.integration.test_matchmaking_redis import prefix, store  # noqa: F401  (fixtures)
from tests.unit.matchmaking.factory import ticket
from tests.unit.matchmaking.store_contract import NOW


def test_a_campaign_ticket_and_its_claim_read_back_whole(store):  # noqa: F811
    made = replace(ticket("a", created=NOW), campaign_id="c1", campaign_team="the posse")
    assert store.create(made, "r", 5) == made == store.get("a")
    assert store.searching() == [made]
    p = Proposal("quest", "forest", ("a",), ("p-a",), 1, "heuristic", "c1", ("the posse",))
    assert store.claim([p], NOW, 5) == [True]
    assert store.stale_claims(NOW + 6, 5) == [p]
