"""The gRPC server bootstrap (ARCHITECTURE.md, "Operations"): reflection lists the services,
health stays NOT_SERVING until the process's dependencies answer, and shutdown reports
NOT_SERVING while it drains calls already in flight."""

from __future__ import annotations

import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from partida.platform.assembly import Process, build
from partida.platform.config import Settings
from partida.platform.server import Server
from tests.unit.platform.support import one_method_server

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def status(channel: grpc.Channel, service: str = "") -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


def _reflected(port: int, symbol: str) -> tuple[set[str], bytes]:
    """The services reflection lists at `port`, and the schema file describing `symbol`."""
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        answers = stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
        names = {s.name for s in next(answers).list_services_response.service}
        described = next(stub.ServerReflectionInfo(iter([
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol)])))
    return names, b"".join(described.file_descriptor_response.file_descriptor_proto)


def test_reflection_lists_every_service_of_the_embedded_server(tmp_path: Path):
    process = build("all", Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", port=0))
    process.start()
    try:
        names, schema = _reflected(process.server.port, "partida.v1.RulesService")
    finally:
        process.stop(0)
    assert names == {"partida.v1.RulesService", "partida.v1.DiceService",
                     "partida.v1.PersistenceService", "partida.v1.PlayersService",
                     "partida.v1.MatchmakingService", "grpc.health.v1.Health",
                     "grpc.reflection.v1alpha.ServerReflection"}
    assert b"SubmitAction" in schema  # the schema itself


def test_reflection_on_the_rules_port_also_lists_the_services_it_passes_on(tmp_path: Path):
    """A rules process alone is the public address of a split deployment (platform/forward):
    a client exploring it with reflection finds the services it forwards, and their schema,
    although they run elsewhere (here nowhere: reflection needs no peer to answer)."""
    nowhere = "127.0.0.1:9"
    process = build("rules", Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", port=0,
                                      dice_address=nowhere, persistence_address=nowhere,
                                      matchmaking_address=nowhere))
    process.start()
    try:
        names, schema = _reflected(process.server.port, "partida.v1.MatchmakingService")
    finally:
        process.stop(0)
    assert {"partida.v1.RulesService", "partida.v1.MatchmakingService",
            "partida.v1.PlayersService", "partida.v1.PersistenceService",
            "partida.v1.DiceService"} <= names
    assert b"CreateTicket" in schema


def test_health_waits_for_every_dependency_check(tmp_path: Path):
    process = build("all", Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", port=0))
    up = threading.Event()

    def redis_like() -> None:
        if not up.is_set():
            raise ConnectionError("connection refused")

    process.checks.append(("a dependency", redis_like))
    process.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{process.server.port}") as channel:
            time.sleep(1.5)  # three retries
            assert status(channel) == NOT_SERVING
            assert status(channel, "partida.v1.RulesService") == NOT_SERVING
            up.set()
            assert process.ready.wait(10)
            assert status(channel) == SERVING
            assert status(channel, "partida.v1.RulesService") == SERVING
    finally:
        process.stop(0)


def _slow_server(release: threading.Event) -> Server:
    def slow(request: bytes, context: grpc.ServicerContext) -> bytes:
        release.wait(10)
        return b"done"

    return one_method_server("test.Slow", "Call", slow)


def test_shutdown_reports_not_serving_and_drains_calls_in_flight():
    release = threading.Event()
    server = _slow_server(release)
    server.start()
    server.serving()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
        assert next(watch).status == SERVING
        in_flight = channel.unary_unary("/test.Slow/Call").future(b"", timeout=20)
        time.sleep(0.2)  # the call has reached the server and waits there
        stopping = threading.Thread(target=server.stop, args=(60,))
        stopping.start()
        assert next(watch).status == NOT_SERVING  # told while the call still runs
        watch.cancel()  # an open stream would hold the shutdown for the whole grace
        assert not in_flight.done()
        release.set()
        assert in_flight.result() == b"done"  # drained, not cut off
        stopping.join(30)  # done once the calls are, well before the grace runs out
        assert not stopping.is_alive()


def test_a_process_stopped_before_it_is_ready_never_serves(tmp_path: Path):
    process: Process = build("all", Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}",
                                             port=0))
    process.checks.append(("a dependency", lambda: 1 / 0))
    process.start()
    process.stop(0)
    time.sleep(0.6)
    assert not process.ready.is_set()


def test_a_process_raises_its_open_files_limit_as_far_as_it_may():
    """Each stream may hold a socket (a feed's Redis connection): a soft limit of 1,024 open
    files, common on Linux, would fail streams long before PARTIDA_MAX_STREAMS. Run apart, as
    it changes the process's limits."""
    script = """
import resource
from partida.platform.assembly import allow_open_files
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
allow_open_files(600)
print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
allow_open_files(300)  # never lowered
print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
print(hard)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    hard = int(out[2])
    expected = 600 if hard == resource.RLIM_INFINITY or hard >= 600 else hard
    assert [int(out[0]), int(out[1])] == [expected, expected]


def test_a_live_feed_whose_caller_goes_frees_its_thread_at_once(tmp_path: Path):
    """StreamMatch waits up to STREAM_WAIT_SECONDS on a quiet match; a cancelled feed is woken
    (session.Wake) and gives its stream slot and thread back well before that."""
    from partida.platform.assembly import authority
    from partida.rules.service import STREAM_WAIT_SECONDS
    from partida.rules.session import SeatMeta
    from partida.v1 import rules_pb2, rules_pb2_grpc

    cfg = Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", port=0)
    process = build("all", cfg)
    process.start()
    try:
        assert process.ready.wait(30)
        match = process.parts["matches"].create(
            "montanas", "standard", [SeatMeta("ann"), SeatMeta("bob")], {"first_seat": 0})
        token = authority(cfg).player_token("ann", 600)[0]
        with grpc.insecure_channel(f"127.0.0.1:{process.server.port}") as channel:
            feed = rules_pb2_grpc.RulesServiceStub(channel).StreamMatch(
                rules_pb2.StreamMatchRequest(match_id=match.match_id, seat=0),
                metadata=(("authorization", f"Bearer {token}"),), timeout=60)
            assert next(feed).HasField("view")  # now waiting on a quiet match
            assert process.server.streams.open == 1
            feed.cancel()
            deadline = time.monotonic() + STREAM_WAIT_SECONDS / 4
            while process.server.streams.open and time.monotonic() < deadline:
                time.sleep(0.02)
            assert process.server.streams.open == 0
    finally:
        process.stop(0)
