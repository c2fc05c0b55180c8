"""A CreateMatch retried with its request id after its match has been played to the end and
its session has gone (a restart, an expiry, Redis flushed) is answered with that match as it
ended, as any retried creation is answered with its match (ARCHITECTURE.md, "A match's
life"). Before, the retry asked the match's dice stream for set-up values, which a revealed
stream refuses, and CreateMatch answered FAILED_PRECONDITION, or, with the dice service
remote, UNAVAILABLE, which a caller retries for ever."""

from __future__ import annotations

import pytest

from partida.dice.service import RULES_SERVICE, CountedDice, DiceServicer
from partida.platform.auth import PLAYER, Authority, Principal
from partida.platform.errors import FailedPrecondition
from partida.platform.server import Registration, Server
from partida.rules.clients import DiceClient
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore
from partida.v1 import dice_pb2_grpc
from tests.support.serving import channel_to
from tests.unit.rules.conftest import new_match, play_defaults, rid
from tests.unit.rules.test_campaign_matches import (  # noqa: F401 (a fixture)
    cast,
    create,
    dice_streams,
)


@pytest.fixture
def remote_dice(store, clock):
    """Matches whose dice are the dice service's, over gRPC, as a rules process's are."""
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.DiceService", DiceServicer(CountedDice(store)),
                       dice_pb2_grpc.add_DiceServiceServicer_to_server)
    with channel_to(Server([reg], auth, "127.0.0.1:0")) as channel:
        dice = DiceClient(channel, auth.service_token(RULES_SERVICE))
        yield Matches(MemorySessionStore(), LocalLedger(store), dice, clock=clock)


@pytest.mark.parametrize("where", ["matches", "remote_dice"])
def test_a_retried_create_of_a_finished_match_answers_the_match(request, where):
    matches = request.getfixturevalue(where)
    first = new_match(matches, request_id="create-finished")
    ended = play_defaults(matches, first.match_id)
    matches.sessions.invalidate(first.match_id)  # its session gone before the retry
    again = new_match(matches, request_id="create-finished")
    assert again.match_id == first.match_id
    assert (again.status, again.outcome, again.version) == ("finished", ended.outcome,
                                                            ended.version)


def test_a_retried_create_of_a_campaign_match_that_ended_answers_the_match(matches, cast):  # noqa: F811
    """Dynamit Joe 9: a campaign scenario is played once; the retry of the match that
    played it is that match, not a second one refused."""
    first = create(matches, cast, request_id="campaign-create")
    matches.resign(first.match_id, 0, rid(), Principal(PLAYER, first.seats[0].player_id))
    matches.sessions.invalidate(first.match_id)
    again = create(matches, cast, request_id="campaign-create")
    assert (again.match_id, again.status) == (first.match_id, "finished")
    with pytest.raises(Exception, match="already played"):  # another match still may not
        create(matches, cast, request_id="another-create")


def test_a_campaign_match_seating_no_team_is_refused_before_anything_is_made(matches, store,
                                                                              cast):  # noqa: F811
    """Dynamit Joe 9: a campaign's scenario is played by its teams. A match of it with no
    team seated (a service may create one) would count for nobody, yet use the scenario up
    (before: it was made and, finished, took the scenario)."""
    outsiders = [store.create_player("acme", n, n).player_id for n in ("xi", "yo")]
    with pytest.raises(FailedPrecondition, match="at least one team"):
        create(matches, outsiders, teams=("", ""))
    assert dice_streams(store) == 0
    assert create(matches, cast).campaign_id == "c1"  # the scenario is still to play
