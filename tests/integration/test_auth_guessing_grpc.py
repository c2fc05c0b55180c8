"""Guessing API keys or tokens over gRPC: past a burst of
failed authentications, an address's calls bearing credentials are refused before anything
is checked; other addresses, calls bearing none and tokens already proven are served. On the
embedded server, and through the front door (platform/forward) to a persistence process.

The clients come from 127.0.0.1 and from ::1, two addresses, so the servers listen on [::]."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from partida.devstack.stack import API_KEY, SECRETS
from partida.platform.assembly import _front_door, auth_failures, authority, build
from partida.platform.config import Settings
from partida.platform.ratelimit import RateLimiter
from partida.platform.server import Server
from partida.v1 import (
    persistence_pb2,
    persistence_pb2_grpc,
    players_pb2,
    players_pb2_grpc,
    rules_pb2,
    rules_pb2_grpc,
)
from tests.support.serving import embedded

Code = grpc.StatusCode
# Three failures per address, earned back at one in 1,000 s: none during a test.
LIMITS = {"auth_failure_rate_limit": 0.001, "auth_failure_rate_burst": 3}
KEY, WRONG_KEY = (("x-api-key", API_KEY),), (("x-api-key", "a-guess"),)


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


pytestmark = pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")


def status(call: Callable[..., Any], request: Any, metadata: Any = ()) -> Code:
    try:
        call(request, metadata=metadata, timeout=30)
    except grpc.RpcError as e:
        if e.code() == Code.RESOURCE_EXHAUSTED:
            assert "failed attempts to authenticate" in e.details()
        return e.code()
    return Code.OK


def create(players: players_pb2_grpc.PlayersServiceStub, metadata: Any,
           external_id: str = "u-1") -> Code:
    return status(players.CreatePlayer, players_pb2.CreatePlayerRequest(
        display_name="Ana", external_id=external_id), metadata)


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """The embedded server's port, on every address of this machine."""
    with embedded(tmp_path, host="[::]", **LIMITS) as stack:
        yield int(stack.addresses["rules"].rpartition(":")[2])


def test_a_guesser_of_api_keys_is_stopped_and_other_callers_are_served(port: int):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as guesser, \
            grpc.insecure_channel(f"[::1]:{port}") as neighbour:
        players = players_pb2_grpc.PlayersServiceStub(guesser)
        player_id = players.CreatePlayer(players_pb2.CreatePlayerRequest(
            display_name="Ana", external_id="ana"), metadata=KEY, timeout=30).player.player_id
        token = players.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest(
            player_id=player_id), metadata=KEY, timeout=30).token
        history = persistence_pb2_grpc.PersistenceServiceStub(guesser).GetPlayerHistory
        ask = persistence_pb2.GetPlayerHistoryRequest(player_id=player_id)
        bearer = (("authorization", f"Bearer {token}"),)
        assert status(history, ask, bearer) == Code.OK  # proven before the guessing

        assert [create(players, WRONG_KEY) for _ in range(4)] == [Code.UNAUTHENTICATED] * 3 + [
            Code.RESOURCE_EXHAUSTED]
        assert create(players, KEY) == Code.RESOURCE_EXHAUSTED  # the right key is not tried
        assert status(history, ask, (("authorization", "Bearer a-guess"),)) == (
            Code.RESOURCE_EXHAUSTED)
        assert status(history, ask, bearer) == Code.OK  # a proven token still goes by

        # Calls bearing no credentials are served as before.
        health = health_pb2_grpc.HealthStub(guesser).Check(health_pb2.HealthCheckRequest(),
                                                           timeout=30)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        assert rules_pb2_grpc.RulesServiceStub(guesser).ListGames(rules_pb2.ListGamesRequest(),
                                                                  timeout=30).games
        assert create(players, ()) == Code.UNAUTHENTICATED  # the method's own refusal

        assert create(players_pb2_grpc.PlayersServiceStub(neighbour), KEY, "bo") == Code.OK


def test_a_guesser_at_the_front_door_does_not_stop_its_other_clients(tmp_path: Path):
    """The persistence process sees every call the front door passes on as from the front
    door's address: a wrong key passed on would count against them all. The front door
    refuses it itself."""
    with _persistence(tmp_path) as front_cfg:
        front = Server([], authority(front_cfg), "[::]:0", handlers=[_front_door(front_cfg)],
                       auth_failure_limiter=RateLimiter(0.001, 3))
        front.start()
        try:
            _guess_through(front.port)
        finally:
            front.stop(0)


@contextlib.contextmanager
def _persistence(tmp_path: Path, **front: str) -> Iterator[Settings]:
    """A persistence process serving; yields the settings of a front door before it (with
    `front` besides)."""
    cfg = Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", port=0, metrics_port=0,
                   token_secret=SECRETS["PARTIDA_TOKEN_SECRET"],
                   service_token_secret=SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"],
                   api_keys=SECRETS["PARTIDA_API_KEYS"], **LIMITS)
    persistence = build("persistence", cfg)
    persistence.start()
    try:
        assert persistence.ready.wait(30)
        yield cfg.model_copy(update={
            "persistence_address": f"127.0.0.1:{persistence.server.port}", **front})
    finally:
        persistence.stop(0)


def _guess_through(port: int) -> None:
    with grpc.insecure_channel(f"[::1]:{port}") as guesser, \
            grpc.insecure_channel(f"127.0.0.1:{port}") as client:
        guessing = players_pb2_grpc.PlayersServiceStub(guesser)
        assert [create(guessing, WRONG_KEY) for _ in range(4)] == [Code.UNAUTHENTICATED] * 3 + [
            Code.RESOURCE_EXHAUSTED]
        assert create(players_pb2_grpc.PlayersServiceStub(client), KEY) == Code.OK


def test_with_redis_every_rules_replica_holds_a_guesser_back_alike(tmp_path: Path,
                                                                   redis_url: str):
    """Two rules replicas' front doors sharing Redis, in front of one persistence process:
    failures at one count at the other, so spreading the guesses over replicas gains nothing
    (platform/shared_failures)."""
    fronts: list[Server] = []
    with _persistence(tmp_path, redis_url=redis_url) as front_cfg:
        try:
            for _ in range(2):
                fronts.append(Server([], authority(front_cfg), "[::]:0",
                                     handlers=[_front_door(front_cfg)],
                                     auth_failure_limiter=auth_failures(front_cfg, "rules")))
                fronts[-1].start()
            _guess_across(*(f.port for f in fronts))
        finally:
            for f in fronts:
                f.stop(0)


def _guess_across(a: int, b: int) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{a}") as on_a, \
            grpc.insecure_channel(f"127.0.0.1:{b}") as on_b, \
            grpc.insecure_channel(f"[::1]:{b}") as neighbour:
        guessing_a = players_pb2_grpc.PlayersServiceStub(on_a)
        guessing_b = players_pb2_grpc.PlayersServiceStub(on_b)
        assert [create(guessing_a, WRONG_KEY) for _ in range(2)] == [Code.UNAUTHENTICATED] * 2
        assert create(guessing_b, WRONG_KEY) == Code.UNAUTHENTICATED  # the third failure
        assert create(guessing_a, WRONG_KEY) == Code.RESOURCE_EXHAUSTED
        assert create(guessing_b, KEY) == Code.RESOURCE_EXHAUSTED  # not even tried
        assert create(players_pb2_grpc.PlayersServiceStub(neighbour), KEY) == Code.OK
