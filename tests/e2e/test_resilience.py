"""Failures of the multi-process stack: nothing acknowledged is lost, no ticket is assigned
twice, and a killed bot worker's turn is still played (issue 3, "Tests")."""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import grpc
import redis
import sqlalchemy as sa

from partida.devstack.stack import Stack, embedded_stack
from partida.rules.audit import audit
from partida.v1 import matchmaking_pb2_grpc, rules_pb2

from .play import as_service, play_one, play_to_end, player, seat_in_match, wait_for_turn


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
    second = stack.addresses[stack.add_replica("matchmaking")]
    players = [player(stack) for _ in range(16)]
    for i, p in enumerate(players):  # half the tickets go through each replica
        if i % 2:
            p.matchmaking = matchmaking_pb2_grpc.MatchmakingServiceStub(
                grpc.insecure_channel(second))

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


def _match_waiting_on(stack: Stack, alice, first_seat: int, clock_seconds: int) -> str:
    """A match of Alice (seat 0) and a bot (seat 1), `first_seat` to act first."""
    svc = as_service(stack)
    return svc.call(svc.rules, "CreateMatch", rules_pb2.CreateMatchRequest(
        game_id="montanas", scenario_id="standard", request_id=uuid.uuid4().hex,
        seats=[rules_pb2.SeatRequest(player_id=alice.player_id),
               rules_pb2.SeatRequest(bot="heuristic")],
        options_json=json.dumps({"first_seat": first_seat}),
        decision_timeout_seconds=clock_seconds)).match.match_id


def _wait_for_records(database_url: str, match_ids: list[str], timeout: float) -> None:
    """Until each match's durable log holds more than its set-up record. Read from the
    database alone: any read through the rules service would rebuild the match, and the
    point is that nobody has to."""
    engine = sa.create_engine(database_url)
    count = sa.text("SELECT count(*) FROM log_records WHERE match_id = :m")
    deadline = time.monotonic() + timeout
    try:
        while True:
            with engine.connect() as conn:
                stalled = [m for m in match_ids if conn.execute(count, {"m": m}).scalar() < 2]
            if not stalled:
                return
            assert time.monotonic() < deadline, f"nothing was played in {stalled}"
            time.sleep(0.2)
    finally:
        engine.dispose()


def test_clocks_and_bot_turns_run_on_unread_after_redis_loses_everything(own_split_stack):
    """A Redis restarted empty (docker-compose runs it without persistence) or flushed also
    loses the index of decision deadlines and the bot turns queued in the broker. A match
    nobody reads must still go on: its clock runs out, its bot plays (issue 3, turn timers;
    ARCHITECTURE.md, a match lost from Redis is rebuilt from the log)."""
    stack = own_split_stack
    alice = player(stack)
    stack.kill("worker")  # the bot's first turn waits in the broker, and is lost with it
    clocked = _match_waiting_on(stack, alice, first_seat=0, clock_seconds=2)
    bots_turn = _match_waiting_on(stack, alice, first_seat=1, clock_seconds=0)
    redis.Redis.from_url(stack.redis_url).flushall()
    stack.start("worker")
    _wait_for_records(stack.database_url, [clocked, bots_turn], timeout=60)


def test_clocks_run_on_unread_after_the_embedded_server_restarts():
    """The embedded server keeps its sessions and deadlines in memory: after a restart its
    matches' clocks must run again without anyone reading them."""
    with embedded_stack() as stack:
        alice = player(stack)
        clocked = _match_waiting_on(stack, alice, first_seat=0, clock_seconds=2)
        stack.kill("all")
        stack.start("all")
        _wait_for_records(stack.env["PARTIDA_DATABASE_URL"], [clocked], timeout=30)
