"""A player who is away: their seat's decisions run out one after another, and after the
match's count of them in a row the seat goes to its bot, so the other players stop waiting
out a full turn timer for each of theirs (issue 3: a seat whose player disconnects can be
handed to a bot and taken back). The player takes it back with SetSeatController."""

import grpc
import pytest

from partida.platform.errors import FailedPrecondition, InvalidArgument
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.session import MAX_MISSED, MemorySessionStore
from partida.v1 import common_pb2, rules_pb2

from .conftest import ALICE, BOB, Dice, new_match, rid, served
from .test_bot_turns import KeepingScheduler

TIMEOUT = 30


def _matches(store, clock, default_bot_after=0, bots=None, handed=None):
    handed = [] if handed is None else handed  # (game, why) of each seat handed over
    return Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock,
                   default_timeout=TIMEOUT, default_bot_after=default_bot_after,
                   on_handed=lambda game_id, why: handed.append((game_id, why)))


def _to_act(matches, match_id) -> int:
    return matches.legal(match_id, 0, ALICE)[3][0]


def _bob_plays_until_alice_decides(matches, match_id) -> None:
    while _to_act(matches, match_id) != 0:
        live, _, default, _ = matches.legal(match_id, 1, BOB)
        matches.submit(match_id, 1, live.version, rid(), default, BOB)


def _alice_misses(matches, clock, match_id) -> None:
    """Alice's next decision runs out (Bob plays his own until it is hers)."""
    _bob_plays_until_alice_decides(matches, match_id)
    live = matches.session(match_id)
    clock.now = live.deadline + 1
    matches.expire_decisions()  # other matches of the test may fall due too
    assert matches.session(match_id).version == live.version + 1


def _alice_acts(matches, match_id) -> None:
    _bob_plays_until_alice_decides(matches, match_id)
    live, _, default, _ = matches.legal(match_id, 0, ALICE)
    matches.submit(match_id, 0, live.version, rid(), default, ALICE)


def test_a_seat_missing_its_count_of_decisions_in_a_row_goes_to_its_bot(store, clock):
    bots, handed = KeepingScheduler(), []
    matches = _matches(store, clock, bots=bots, handed=handed)
    s = new_match(matches, bot_after_missed=2)
    _alice_misses(matches, clock, s.match_id)
    assert matches.session(s.match_id).seats[0].controller == "human"  # one is not enough
    assert handed == []
    _alice_misses(matches, clock, s.match_id)
    assert handed == [("montanas", "away")]  # counted (partida_seats_handed_to_bots_total)
    seat = matches.session(s.match_id).seats[0]
    assert (seat.controller, seat.bot) == ("bot", "heuristic")  # Montañas' default bot
    assert store.get_match(s.match_id).seats[0].controller == "bot"  # recorded: rebuilds keep it
    _bob_plays_until_alice_decides(matches, s.match_id)
    assert any(q[:2] == (s.match_id, 0) for q in bots.queued)  # her bot is asked to play
    with pytest.raises(FailedPrecondition, match="handed to a bot"):
        live, _, default, _ = matches.legal(s.match_id, 0, ALICE)
        matches.submit(s.match_id, 0, live.version, rid(), default, ALICE)


def test_the_seats_own_action_starts_the_count_again(store, clock):
    matches = _matches(store, clock)
    s = new_match(matches, bot_after_missed=2)
    _alice_misses(matches, clock, s.match_id)
    _alice_acts(matches, s.match_id)
    _alice_misses(matches, clock, s.match_id)
    seat = matches.session(s.match_id).seats[0]
    assert (seat.controller, seat.missed) == ("human", 1)


def test_the_match_count_and_the_servers_default(store, clock):
    """0 asks for the server's default, -1 for never, whatever the default."""
    matches = _matches(store, clock, default_bot_after=3)
    assert new_match(matches).bot_after_missed == 3
    assert new_match(matches, bot_after_missed=5).bot_after_missed == 5
    never = new_match(matches, bot_after_missed=-1)
    assert never.bot_after_missed == 0
    for _ in range(4):
        _alice_misses(matches, clock, never.match_id)
    assert matches.session(never.match_id).seats[0].controller == "human"
    assert store.get_match(never.match_id).bot_after_missed_decisions == 0
    assert new_match(_matches(store, clock)).bot_after_missed == 0  # a server without one


def test_counts_out_of_range_are_refused(matches):
    for bad in (-2, MAX_MISSED + 1):
        with pytest.raises(InvalidArgument, match="bot_after_missed_decisions"):
            new_match(matches, bot_after_missed=bad)


def test_the_player_takes_the_seat_back_with_the_full_count(store, clock):
    """Her bot's own decisions may run out too (no worker to play them): taking the seat
    back starts her count afresh, not from theirs."""
    matches = _matches(store, clock)
    s = new_match(matches, bot_after_missed=2)
    _alice_misses(matches, clock, s.match_id)
    _alice_misses(matches, clock, s.match_id)
    assert matches.session(s.match_id).seats[0].controller == "bot"
    _alice_misses(matches, clock, s.match_id)  # her bot's, unplayed
    _alice_misses(matches, clock, s.match_id)
    matches.set_controller(s.match_id, 0, "human", "", ALICE)
    seat = matches.session(s.match_id).seats[0]
    assert (seat.controller, seat.missed) == ("human", 0)
    _alice_misses(matches, clock, s.match_id)
    assert matches.session(s.match_id).seats[0].controller == "human"
    _alice_acts(matches, s.match_id)  # hers to play again


def test_the_count_so_far_survives_a_rebuild(store, clock):
    """The count is not recorded: a rebuild counts it again from the log."""
    matches = _matches(store, clock)
    s = new_match(matches, bot_after_missed=2)
    _alice_misses(matches, clock, s.match_id)
    matches.sessions.invalidate(s.match_id)  # e.g. Redis flushed
    assert matches.session(s.match_id).seats[0].missed == 1
    _alice_misses(matches, clock, s.match_id)
    assert matches.session(s.match_id).seats[0].controller == "bot"


def test_a_rebuild_after_a_take_back_counts_from_the_handover(store, clock):
    """A take-back is not in the log, so a rebuild cannot see it: it counts the seat's
    timeouts afresh from each handover, as the live count does, rather than all of them
    since the seat last acted (which handed a player who had just taken the seat back
    over again at their first timeout)."""
    matches = _matches(store, clock)
    s = new_match(matches, bot_after_missed=2)
    for _ in range(4):  # two of hers (handed over), two of her bot's (no worker plays them)
        _alice_misses(matches, clock, s.match_id)
    matches.set_controller(s.match_id, 0, "human", "", ALICE)
    matches.sessions.invalidate(s.match_id)  # e.g. Redis flushed
    assert matches.session(s.match_id).seats[0].missed == 0
    _alice_misses(matches, clock, s.match_id)
    assert matches.session(s.match_id).seats[0].controller == "human"


def test_a_bot_seat_running_out_stays_its_bots(store, clock):
    matches = _matches(store, clock)
    s = new_match(matches, players=("alice",), bots=("random",), bot_after_missed=1)
    _alice_acts(matches, s.match_id)  # now the bot's decision, and no worker plays it
    while _to_act(matches, s.match_id) == 0:
        _alice_acts(matches, s.match_id)
    clock.now = matches.session(s.match_id).deadline + 1
    assert matches.expire_decisions() == 1
    seat = matches.session(s.match_id).seats[1]
    assert (seat.controller, seat.bot) == ("bot", "random")


def test_create_match_takes_the_count_and_refuses_a_bad_one(store, clock):
    matches = _matches(store, clock, default_bot_after=2)
    request = rules_pb2.CreateMatchRequest(
        game_id="montanas", scenario_id="standard", options_json='{"first_seat": 0}',
        seats=[rules_pb2.SeatRequest(player_id="alice"), rules_pb2.SeatRequest(player_id="bob")])
    with served(matches, "alice") as (stub, _):
        service = (("authorization", f"Bearer {_service_token()}"),)
        made = stub.CreateMatch(request, metadata=service).match
        assert made.bot_after_missed_decisions == 2
        request.bot_after_missed_decisions = 4
        assert stub.CreateMatch(request, metadata=service).match.bot_after_missed_decisions == 4
        request.bot_after_missed_decisions = -5
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateMatch(request, metadata=service)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "bot_after_missed_decisions" in refused.value.details()


def _service_token() -> str:
    from partida.platform.auth import Authority
    return Authority("p" * 32, "s" * 32, {}).service_token("matchmaking")


def test_the_servers_default_is_its_setting(tmp_path, monkeypatch):
    """PARTIDA_BOT_AFTER_MISSED_DECISIONS sets it; unset, a seat goes to its bot after 2."""
    from prometheus_client import REGISTRY

    from partida.platform.assembly import build
    from partida.platform.config import Settings
    from partida.rules.session import SeatMeta

    for env, expected in ((None, 2), ("5", 5), ("0", 0)):
        if env is None:
            monkeypatch.delenv("PARTIDA_BOT_AFTER_MISSED_DECISIONS", raising=False)
        else:
            monkeypatch.setenv("PARTIDA_BOT_AFTER_MISSED_DECISIONS", env)
        process = build("all", Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}",
                                        port=0))
        process.start()
        try:
            assert process.ready.wait(30)
            matches = process.parts["matches"]
            assert matches.default_bot_after == expected
            match = matches.create("montanas", "standard", [SeatMeta("alice"), SeatMeta("bob")],
                                   {"first_seat": 0})
            asked = {"game": "montanas", "why": "asked"}
            before = REGISTRY.get_sample_value("partida_seats_handed_to_bots_total", asked) or 0
            matches.set_controller(match.match_id, 1, "bot", "", BOB)
            assert REGISTRY.get_sample_value("partida_seats_handed_to_bots_total",
                                             asked) == before + 1
        finally:
            process.stop(0)
    monkeypatch.setenv("PARTIDA_BOT_AFTER_MISSED_DECISIONS", str(MAX_MISSED + 1))
    with pytest.raises(ValueError):
        Settings()


def test_every_decision_a_client_reads_tells_which_seats_a_bot_plays(store, clock):
    """Decision.bot_seats, in GetView, ListLegalActions, SubmitAction and the live feed: the
    other players learn that an away player's seat is played by a bot, and again that its
    player took it back."""
    matches = _matches(store, clock)
    s = new_match(matches, bot_after_missed=1)
    _alice_misses(matches, clock, s.match_id)
    assert matches.session(s.match_id).seats[0].controller == "bot"
    while _to_act(matches, s.match_id) == 0:  # her bot's decisions (no worker plays them)
        clock.now = matches.session(s.match_id).deadline + 1
        matches.expire_decisions()
    with served(matches, "bob") as (stub, bob):
        submitted = None
        while _to_act(matches, s.match_id) != 0:
            legal = stub.ListLegalActions(rules_pb2.ListLegalActionsRequest(
                match_id=s.match_id, seat=1), metadata=bob)
            assert list(legal.decision.bot_seats) == []  # Bob's own decision: his
            submitted = stub.SubmitAction(rules_pb2.SubmitActionRequest(
                match_id=s.match_id, seat=1, expected_version=legal.version, request_id=rid(),
                action=common_pb2.Action(action_id=legal.default_action_id)), metadata=bob)
        assert submitted is not None and 0 in submitted.decision.seats
        assert list(submitted.decision.bot_seats) == [0]
        look = stub.GetView(rules_pb2.GetViewRequest(match_id=s.match_id, seat=1), metadata=bob)
        assert list(look.decision.bot_seats) == [0]
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=s.match_id, seat=1),
                                metadata=bob, timeout=10)
        shown = next(item for item in feed if item.HasField("view"))
        feed.cancel()
        assert list(shown.decision.seats) == [0] and list(shown.decision.bot_seats) == [0]

        matches.set_controller(s.match_id, 0, "human", "", ALICE)  # she is back
        look = stub.GetView(rules_pb2.GetViewRequest(match_id=s.match_id, seat=1), metadata=bob)
        assert list(look.decision.seats) == [0] and list(look.decision.bot_seats) == []


def test_a_bot_seat_from_the_start_is_listed_when_it_is_to_act(store, clock):
    matches = _matches(store, clock)
    s = new_match(matches, players=("alice",), bots=("random",))
    while _to_act(matches, s.match_id) == 0:
        _alice_acts(matches, s.match_id)
    with served(matches, "alice") as (stub, alice):
        look = stub.GetView(rules_pb2.GetViewRequest(match_id=s.match_id, seat=0),
                            metadata=alice)
    assert list(look.decision.seats) == [1] and list(look.decision.bot_seats) == [1]
