"""`partida serve` with no configuration, as a laptop user runs it (issue 3, "Running it":
every service in one process, in-process sessions, SQLite, bots on local threads)."""

from __future__ import annotations

import contextlib
import shutil
import signal
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc

from partida.devstack.servers import free_port
from partida.devstack.stack import Stack, serve_command, service_env
from partida.v1 import rules_pb2

from .play import as_service, play_to_end, player, seat_in_match


@contextlib.contextmanager
def _embedded(database: Path | None = None, **env: str) -> Iterator[Stack]:
    """An embedded server on `database` (default: a file in a folder of its own), with
    `env` over the stacks' usual environment."""
    tmp = Path(tempfile.mkdtemp(prefix="partida-e2e-"))
    port = free_port()
    url = f"sqlite:///{database or tmp / 'partida.db'}"
    stack = Stack({"rules": f"127.0.0.1:{port}"}, service_env(), tmp)
    stack.env.update(PARTIDA_DATABASE_URL=url, PARTIDA_METRICS_PORT="0", **env)
    stack.addresses.update(dice=stack.address, persistence=stack.address,
                           matchmaking=stack.address, all=stack.address)
    stack.commands["all"] = serve_command("all", port)
    try:
        stack.start("all")  # until it reports SERVING
        yield stack
    finally:
        stack.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def test_serve_makes_the_missing_folder_of_its_database(tmp_path):
    """PARTIDA_DATABASE_URL naming a file in a folder not made yet (a fresh data folder): the
    server used to announce itself, then wait for the database for ever, answering every
    call INTERNAL ("unable to open database file", naming no file)."""
    database = tmp_path / "data" / "games" / "partida.db"
    with _embedded(database) as stack:
        alice = player(stack)
        match_id, seat = seat_in_match(alice)
        assert play_to_end(alice, match_id, seat) is not None
    assert database.is_file()


def test_stopping_with_a_live_feed_open_does_not_wait_out_the_grace():
    """Ctrl-C (or SIGTERM) while a client follows its match, as `partida client play`
    always does: the feed waits up to 20 s for the next event, and used to hold the
    shutdown for the whole drain grace (10 s by default). It ends at once, UNAVAILABLE, for
    the client to follow again once the server is back; the process then stops."""
    with _embedded(PARTIDA_SHUTDOWN_GRACE_SECONDS="300") as stack:
        alice = player(stack)
        svc = as_service(stack)
        match_id = svc.call(svc.rules, "CreateMatch", rules_pb2.CreateMatchRequest(
            game_id="montanas", scenario_id="standard", request_id=uuid.uuid4().hex,
            seats=[rules_pb2.SeatRequest(player_id=alice.player_id),
                   rules_pb2.SeatRequest(player_id=player(stack).player_id)])).match.match_id
        feed = alice.stream(match_id, 0)
        ended: list[grpc.StatusCode] = []
        first = threading.Event()

        def follow() -> None:
            try:
                for _ in feed:
                    first.set()  # its view sent: the feed now waits for the next event
            except grpc.RpcError as e:
                ended.append(e.code())

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        assert first.wait(30)
        server = stack.procs.pop("all")
        try:
            server.send_signal(signal.SIGINT)
            server.wait(60)  # far less than the grace: else TimeoutExpired
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
        follower.join(30)
        assert ended == [grpc.StatusCode.UNAVAILABLE]
