"""Failures of the multi-process stack: nothing acknowledged is lost, no ticket is assigned
twice, and a killed bot worker's turn is still played (issue 3, "Tests")."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import redis

from partida.devstack.servers import free_port
from partida.rules.audit import audit
from partida.v1 import matchmaking_pb2_grpc, rules_pb2

from .play import play_one, play_to_end, player, seat_in_match, wait_for_turn


def test_killing_rules_and_flushing_redis_loses_no_acknowledged_action(own_split_stack):
    stack = own_split_stack
    alice = player(stack)
    match_id, seat = seat_in_match(alice, seats=2)
    acknowledged = 0
    for _ in range(12):
        acknowledged = play_one(alice, match_id, seat) or acknowledged
    stack.kill("rules")
    redis.Redis.from_url(stack.redis_url).flushall()
    stack.start("rules")
    version, _, _, _ = alice.view(match_id, seat)
    assert version >= acknowledged
    outcome = play_to_end(alice, match_id, seat)
    assert outcome is not None
    log = alice.match_log(match_id)
    assert audit(log.match, list(log.records)) == []


def test_two_matchmakers_never_assign_one_ticket_twice(own_split_stack):
    stack = own_split_stack
    port = free_port()
    stack.commands["matchmaking-2"] = [*stack.commands["matchmaking"][:-1], str(port)]
    stack.addresses["matchmaking-2"] = f"127.0.0.1:{port}"
    stack.start("matchmaking-2")
    players = [player(stack) for _ in range(16)]
    for i, p in enumerate(players):  # half the tickets go through each replica
        if i % 2:
            p.matchmaking = matchmaking_pb2_grpc.MatchmakingServiceStub(
                grpc.insecure_channel(stack.addresses["matchmaking-2"]))

    def find(p):
        return seat_in_match(p, seats=2)

    with ThreadPoolExecutor(len(players)) as pool:
        seats = list(pool.map(find, players))
    assert len(set(seats)) == len(seats), "a (match, seat) was given to two tickets"
    by_match: dict[str, list[int]] = {}
    for match_id, seat in seats:
        by_match.setdefault(match_id, []).append(seat)
    for match_id, taken in by_match.items():
        match = players[0].call(players[0].rules, "GetMatch",
                                rules_pb2.GetMatchRequest(match_id=match_id)).match
        humans = {s.seat for s in match.seats if s.player_id}
        assert set(taken) == humans


def test_a_killed_workers_turn_is_still_played(own_split_stack):
    stack = own_split_stack
    alice = player(stack)
    match_id, seat = seat_in_match(alice, seats=2)
    stack.kill("worker")
    # With no worker alive, the bot seat's decisions wait in the broker.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        version, _, to_act, outcome = alice.view(match_id, seat)
        if outcome is not None or (to_act and seat not in to_act):
            break
        play_one(alice, match_id, seat)
    stuck_version = alice.view(match_id, seat)[0]
    time.sleep(1.0)
    assert alice.view(match_id, seat)[0] == stuck_version, "someone played the bot seat"
    stack.start("worker")
    deadline = time.monotonic() + 30
    while alice.view(match_id, seat)[0] == stuck_version:
        assert time.monotonic() < deadline, "the queued bot turn was never played"
        time.sleep(0.05)
    assert wait_for_turn(alice, match_id, seat) is not None


def test_with_persistence_down_actions_are_refused_as_unavailable_then_retried(
        own_split_stack):
    """Nothing is acknowledged that is not durable: while the database side is down the
    client gets UNAVAILABLE, and the same request succeeds once it is back."""
    stack = own_split_stack
    alice = player(stack)
    match_id, seat = seat_in_match(alice, seats=2)
    wait_for_turn(alice, match_id, seat)
    legal = alice.legal(match_id, seat)
    stack.kill("persistence")
    request_id = "retry-me"
    try:
        alice.submit(match_id, seat, legal.version, request_id, legal.default_action_id)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.UNAVAILABLE
    else:
        raise AssertionError("an action was acknowledged while persistence was down")
    assert alice.view(match_id, seat)[0] == legal.version
    stack.start("persistence")
    done = alice.submit(match_id, seat, legal.version, request_id, legal.default_action_id)
    assert done.version == legal.version + 1
