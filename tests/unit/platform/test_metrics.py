"""Prometheus metrics (ARCHITECTURE.md, "Operations"): calls counted by final status through
the server interceptor, and the domain metrics moved by matches played on a real embedded
server (in this process, so the default registry shows what it counted)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import grpc
import pytest
from prometheus_client import REGISTRY

from partida.devstack.stack import Stack
from partida.v1 import matchmaking_pb2, rules_pb2
from tests.e2e.play import play_to_end, player, seat_in_match
from tests.support.serving import embedded

RULES = "partida.v1.RulesService"
MATCHMAKING = "partida.v1.MatchmakingService"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def calls(service: str, method: str, code: str) -> float:
    return value("partida_grpc_server_requests_total", service=service, method=method,
                 code=code)


def timed(service: str, method: str) -> float:
    return value("partida_grpc_server_request_duration_seconds_count", service=service,
                 method=method)


def eventually(check, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Stack]:
    with embedded(tmp_path_factory.mktemp("metrics")) as stack:
        yield stack


def test_the_interceptor_counts_each_call_by_service_method_and_final_code(server):
    remote = player(server)
    before = {code: calls(RULES, "GetMatch", code)
              for code in ("OK", "UNAUTHENTICATED", "NOT_FOUND", "INVALID_ARGUMENT")}
    listed, timed_before = calls(RULES, "ListGames", "OK"), timed(RULES, "GetMatch")

    remote.call(remote.rules, "ListGames", rules_pb2.ListGamesRequest())
    with pytest.raises(grpc.RpcError) as no_token:
        remote.rules.GetMatch(rules_pb2.GetMatchRequest(match_id="m1"))
    with pytest.raises(grpc.RpcError) as unknown:
        remote.call(remote.rules, "GetMatch", rules_pb2.GetMatchRequest(match_id="nope"))
    with pytest.raises(grpc.RpcError) as invalid:
        remote.call(remote.rules, "GetMatch", rules_pb2.GetMatchRequest(match_id=""))

    assert (no_token.value.code(), unknown.value.code(), invalid.value.code()) == (
        grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.INVALID_ARGUMENT)
    assert calls(RULES, "ListGames", "OK") == listed + 1
    assert {code: calls(RULES, "GetMatch", code) - n for code, n in before.items()} == {
        "OK": 0, "UNAUTHENTICATED": 1, "NOT_FOUND": 1, "INVALID_ARGUMENT": 1}
    assert timed(RULES, "GetMatch") == timed_before + 3


def test_streams_are_counted_with_their_final_code(server):
    remote = player(server)
    refused = calls(MATCHMAKING, "WatchTicket", "NOT_FOUND")
    stream = remote.matchmaking.WatchTicket(
        matchmaking_pb2.WatchTicketRequest(ticket_id="no-such-ticket"), metadata=remote.metadata)
    with pytest.raises(grpc.RpcError) as err:
        list(stream)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    assert calls(MATCHMAKING, "WatchTicket", "NOT_FOUND") == refused + 1

    cancelled = calls(MATCHMAKING, "WatchTicket", "CANCELLED")
    ticket = remote.call(remote.matchmaking, "CreateTicket", matchmaking_pb2.CreateTicketRequest(
        game_id="montanas", seats=3, request_id=uuid.uuid4().hex)).ticket
    stream = remote.matchmaking.WatchTicket(
        matchmaking_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id), metadata=remote.metadata)
    next(stream)  # the stream is open and waiting for the ticket to change
    stream.cancel()
    eventually(lambda: calls(MATCHMAKING, "WatchTicket", "CANCELLED") == cancelled + 1)
    remote.call(remote.matchmaking, "CancelTicket",
                matchmaking_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id))


def test_a_waiting_ticket_shows_in_its_pools_queue_depth(server):
    remote = player(server)
    ticket = remote.call(remote.matchmaking, "CreateTicket", matchmaking_pb2.CreateTicketRequest(
        game_id="montanas", seats=4, request_id=uuid.uuid4().hex)).ticket  # no bots: it waits
    depth = "partida_matchmaking_queue_depth"
    eventually(lambda: value(depth, pool="montanas/4") == 1)
    remote.call(remote.matchmaking, "CancelTicket",
                matchmaking_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id))
    eventually(lambda: value(depth, pool="montanas/4") == 0)


def test_a_played_match_moves_the_domain_metrics(server):
    names = {
        "actions": ("partida_actions_applied_total", {"game": "montanas", "kind": "action"}),
        "bot turns": ("partida_bot_turn_duration_seconds_count", {"game": "montanas"}),
        "bot waits": ("partida_bot_queue_wait_seconds_count", {"game": "montanas"}),
        "matched": ("partida_matchmaking_time_to_match_seconds_count", {"game": "montanas"}),
        "dice": ("partida_dice_draws_total", {}),
        "appends": ("partida_persistence_write_duration_seconds_count",
                    {"operation": "append_log"}),
        "finishes": ("partida_persistence_write_duration_seconds_count",
                     {"operation": "finish_match"}),
        "starts": ("partida_persistence_write_duration_seconds_count",
                   {"operation": "start_match"}),
        "streams": ("partida_grpc_server_requests_total",
                    {"service": RULES, "method": "StreamMatch", "code": "OK"}),
    }
    before = {k: value(n, **labels) for k, (n, labels) in names.items()}
    assert value("partida_live_matches", game="montanas") == 0
    remote = player(server)
    match_id, seat = seat_in_match(remote, seats=3)
    assert value("partida_live_matches", game="montanas") == 1

    assert play_to_end(remote, match_id, seat) is not None
    list(remote.stream(match_id, seat))  # a finished match's stream ends: OK

    moved = {k: value(n, **labels) - before[k] for k, (n, labels) in names.items()}
    assert all(v > 0 for v in moved.values()), moved
    assert moved["matched"] == 1 and moved["finishes"] == 1 and moved["streams"] == 1
    # Every applied action is one log append; the set-up is written with the match record.
    version = remote.view(match_id, seat)[0]
    assert moved["actions"] == version == moved["appends"] and moved["starts"] == 1
    assert value("partida_live_matches", game="montanas") == 0


def test_timed_out_decisions_and_resignations_are_counted(tmp_path):
    with embedded(tmp_path, decision_timeout_seconds=1) as stack:
        timed_out = value("partida_decisions_timed_out_total", game="montanas")
        kinds = {kind: value("partida_actions_applied_total", game="montanas", kind=kind)
                 for kind in ("timeout", "resign")}
        remote = player(stack)
        match_id, seat = seat_in_match(remote, seats=2)
        eventually(lambda: value("partida_decisions_timed_out_total", game="montanas")
                   > timed_out)
        version = remote.view(match_id, seat)[0]
        remote.call(remote.rules, "Resign", rules_pb2.ResignRequest(
            match_id=match_id, seat=seat, request_id=uuid.uuid4().hex))
        assert value("partida_actions_applied_total", game="montanas", kind="resign") == \
            kinds["resign"] + 1
        timeouts = value("partida_actions_applied_total", game="montanas", kind="timeout")
        assert timeouts - kinds["timeout"] == \
            value("partida_decisions_timed_out_total", game="montanas") - timed_out >= 1
        assert version >= 1
