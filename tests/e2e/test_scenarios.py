"""End-to-end scenarios, run against the embedded server and the multi-process stack alike
(ARCHITECTURE.md, "A match's life"; issue 3, "Tests")."""

from __future__ import annotations

import json
import time
import uuid

import grpc
import pytest

from partida.engine import get
from partida.rules.audit import audit
from partida.rules.randomness import replay_action, replay_setup
from partida.v1 import common_pb2, rules_pb2

from .play import as_service, play_one, play_to_end, player, seat_in_match, wait_for_turn


def _code(call) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value.code()


def test_a_human_and_bots_play_to_the_end_and_the_match_verifies(stack):
    alice = player(stack)
    match_id, seat = seat_in_match(alice, seats=3)
    outcome = play_to_end(alice, match_id, seat)
    assert outcome is not None and outcome.reason
    log = alice.match_log(match_id)
    assert log.match.status == common_pb2.MATCH_STATUS_FINISHED
    assert audit(log.match, list(log.records)) == []
    # The replay from the database equals the live final state.
    game = get("montanas")
    state = replay_setup(game, "standard", 3, json.loads(log.match.options_json),
                         log.records[0].random_values)
    for r in log.records[1:]:
        replay_action(game, state, r.kind, r.seat, r.action_id, r.random_values)
    _, live, _, _ = alice.view(match_id, None)
    assert game.view(state, None) == live


def test_stale_version_is_aborted_and_a_repeated_request_returns_the_first_result(stack):
    alice = player(stack)
    match_id, seat = seat_in_match(alice)
    version, _ = wait_for_turn(alice, match_id, seat)
    legal = alice.legal(match_id, seat)
    default = legal.default_action_id
    rid = uuid.uuid4().hex
    first = alice.submit(match_id, seat, legal.version, rid, default)
    again = alice.submit(match_id, seat, legal.version, rid, default)
    assert again.version == first.version == legal.version + 1
    assert [e.sequence for e in again.events] == [e.sequence for e in first.events]
    assert _code(lambda: alice.submit(match_id, seat, legal.version, uuid.uuid4().hex,
                                      default)) == grpc.StatusCode.ABORTED
    assert alice.view(match_id, seat)[0] >= first.version


def test_a_wrong_token_is_refused_and_changes_nothing(stack):
    alice, mallory = player(stack), player(stack)
    match_id, seat = seat_in_match(alice)
    version, _ = wait_for_turn(alice, match_id, seat)
    legal = alice.legal(match_id, seat)
    assert _code(lambda: mallory.submit(match_id, seat, legal.version, uuid.uuid4().hex,
                                        legal.default_action_id)) \
        == grpc.StatusCode.PERMISSION_DENIED
    mallory.metadata = (("authorization", "Bearer not-a-token"),)
    assert _code(lambda: mallory.submit(match_id, seat, legal.version, uuid.uuid4().hex,
                                        legal.default_action_id)) \
        == grpc.StatusCode.UNAUTHENTICATED
    mallory.metadata = ()
    assert _code(lambda: mallory.legal(match_id, seat)) == grpc.StatusCode.UNAUTHENTICATED
    assert alice.legal(match_id, seat).version == legal.version


def test_bad_requests_get_clear_statuses(stack):
    alice = player(stack)
    match_id, seat = seat_in_match(alice)
    wait_for_turn(alice, match_id, seat)
    legal = alice.legal(match_id, seat)
    bad = [
        (lambda: alice.submit(match_id, seat, legal.version, "", "end"),
         grpc.StatusCode.INVALID_ARGUMENT),
        (lambda: alice.submit(match_id, 99, legal.version, uuid.uuid4().hex, "end"),
         grpc.StatusCode.INVALID_ARGUMENT),
        (lambda: alice.submit(match_id, seat, legal.version, uuid.uuid4().hex, "fly:away"),
         grpc.StatusCode.FAILED_PRECONDITION),
        (lambda: alice.submit("nope", seat, 0, uuid.uuid4().hex, "end"),
         grpc.StatusCode.NOT_FOUND),
        (lambda: alice.call(alice.rules, "CreateMatch", rules_pb2.CreateMatchRequest(
            game_id="montanas")), grpc.StatusCode.PERMISSION_DENIED),
    ]
    for call, code in bad:
        assert _code(call) == code
    assert alice.legal(match_id, seat).version == legal.version


def test_spectators_and_other_seats_get_no_hidden_data(stack):
    alice = player(stack)
    match_id, seat = seat_in_match(alice, seats=2)
    for _ in range(6):
        play_one(alice, match_id, seat)
    _, mine, _, _ = alice.view(match_id, seat)
    _, spectator, _, _ = alice.view(match_id, None)
    for view in (mine, spectator):
        assert "deck" not in view and "pool" not in view  # only their counts are public
        assert view["deck_count"] >= 0 and view["pool_count"] >= 0
    assert _code(lambda: alice.view(match_id, 1 - seat)) == grpc.StatusCode.PERMISSION_DENIED
    stream = alice.stream(match_id, None, 0)
    seen = 0
    for item in stream:
        if item.HasField("event"):
            data = json.loads(item.event.data_json)
            assert "visible_to" not in data and "deck" not in data
            seen += 1
        else:
            break
    stream.cancel()
    assert seen > 0


def test_a_seat_handed_to_a_bot_is_played_and_taken_back(stack):
    alice = player(stack)
    match_id, seat = seat_in_match(alice, seats=2)
    version, _ = wait_for_turn(alice, match_id, seat)

    def controller(kind):
        return alice.call(alice.rules, "SetSeatController", rules_pb2.SetSeatControllerRequest(
            match_id=match_id, seat=seat, controller=kind, bot="heuristic")).seat

    assert controller(common_pb2.SEAT_CONTROLLER_BOT).controller == common_pb2.SEAT_CONTROLLER_BOT
    deadline = time.monotonic() + 30
    while alice.view(match_id, seat)[0] == version:  # the bot plays the seat's decision
        assert time.monotonic() < deadline, "the bot never played the handed-over seat"
        time.sleep(0.02)
    back = controller(common_pb2.SEAT_CONTROLLER_HUMAN)
    assert back.controller == common_pb2.SEAT_CONTROLLER_HUMAN and back.player_id


def test_matches_created_together_are_each_created_or_refused_alone(stack):
    """CreateMatches (matchmaking's way to create the matches it forms together): each as
    CreateMatch would, a refused one taking nothing of the others with it."""
    alice, bob = player(stack), player(stack)
    svc = as_service(stack)

    def new(request_id: str, game_id: str = "montanas", seats=(alice, bob)):
        return rules_pb2.CreateMatchRequest(
            game_id=game_id, scenario_id="standard", request_id=request_id,
            seats=[rules_pb2.SeatRequest(player_id=p.player_id) for p in seats])

    key = uuid.uuid4().hex
    first = svc.call(svc.rules, "CreateMatch", new(f"{key}-1")).match
    reply = svc.call(svc.rules, "CreateMatches", rules_pb2.CreateMatchesRequest(matches=[
        new(f"{key}-1"), new(f"{key}-2"), new(f"{key}-3", game_id="nope"),
        new(f"{key}-4", seats=()), new(f"{key}-5")]))
    codes = [grpc.StatusCode.OK if r.code == 0 else r.code for r in reply.results]
    invalid = grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert codes == [grpc.StatusCode.OK, grpc.StatusCode.OK, invalid, invalid,
                     grpc.StatusCode.OK], reply
    made = [r.match for r in reply.results if r.code == 0]
    assert made[0].match_id == first.match_id  # a repeated request id: the same match
    assert len({m.match_id for m in made}) == 3
    assert len({m.dice_commitment for m in made}) == 3 and all(m.dice_commitment for m in made)
    for m in made[1:]:  # each new match is whole: its players see it, and one must act
        (version, _, to_act, _), theirs = alice.view(m.match_id, 0), bob.view(m.match_id, 1)
        assert version == theirs[0] == 0 and to_act
    too_many = rules_pb2.CreateMatchesRequest(matches=[new(f"{key}-x")] * 101)
    for call, code in [
            (lambda: svc.call(svc.rules, "CreateMatches", rules_pb2.CreateMatchesRequest()),
             grpc.StatusCode.INVALID_ARGUMENT),
            (lambda: svc.call(svc.rules, "CreateMatches", too_many),
             grpc.StatusCode.INVALID_ARGUMENT),
            (lambda: alice.call(alice.rules, "CreateMatches", rules_pb2.CreateMatchesRequest(
                matches=[new(f"{key}-x")])), grpc.StatusCode.PERMISSION_DENIED)]:
        assert _code(call) == code
    # None of the refused calls created the match they named (a request id names its match).
    named = uuid.uuid5(uuid.NAMESPACE_URL, f"partida:{key}-x").hex
    assert _code(lambda: alice.call(alice.rules, "GetMatch", rules_pb2.GetMatchRequest(
        match_id=named))) == grpc.StatusCode.NOT_FOUND


def test_an_away_players_seat_goes_to_its_bot_and_is_taken_back(stack):
    """A player whose decision runs out (here after one, of two seconds) has the seat handed
    to its bot by the server; the player's own submit is then refused until they take the
    seat back (issue 3: a seat whose player disconnects). Bob, who has not missed a
    decision, keeps the match going meanwhile."""
    alice, bob = player(stack), player(stack)
    svc = as_service(stack)
    match_id = svc.call(svc.rules, "CreateMatch", rules_pb2.CreateMatchRequest(
        game_id="montanas", scenario_id="standard", request_id=uuid.uuid4().hex,
        seats=[rules_pb2.SeatRequest(player_id=alice.player_id),
               rules_pb2.SeatRequest(player_id=bob.player_id)],
        options_json=json.dumps({"first_seat": 0}), decision_timeout_seconds=2,
        bot_after_missed_decisions=1)).match.match_id
    assert alice.match(match_id).bot_after_missed_decisions == 1
    deadline = time.monotonic() + 60
    while alice.match(match_id).seats[0].controller != common_pb2.SEAT_CONTROLLER_BOT:
        assert time.monotonic() < deadline, "the away player's seat was never handed over"
        time.sleep(0.05)
    version = alice.view(match_id, 0)[0]
    assert version >= 1  # her decision ran out first
    with pytest.raises(grpc.RpcError) as refused:
        alice.submit(match_id, 0, version, uuid.uuid4().hex, "anything")
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "handed to a bot" in refused.value.details()
    back = alice.take_back(match_id, 0)
    assert back.controller == common_pb2.SEAT_CONTROLLER_HUMAN
    assert alice.match(match_id).seats[0].controller == common_pb2.SEAT_CONTROLLER_HUMAN
