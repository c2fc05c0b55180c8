"""The test servers themselves answer (a broken fixture would make every other test moot)."""

import os
import re
import socket
import subprocess
import sys
import time

import pytest
import redis
import sqlalchemy as sa

from partida.devstack import servers
from partida.devstack.servers import free_port
from partida.devstack.stack import start_split


def test_redis_answers(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.set("partida:probe", "1")
    assert client.get("partida:probe") == b"1"


def test_postgres_answers(postgres_url):
    engine = sa.create_engine(postgres_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("select 40 + 2")).scalar() == 42


def test_a_stack_whose_two_services_share_a_port_fails_to_start_naming_the_second(
        redis_url, postgres_url, tmp_path):
    # The second server cannot listen while the first answers at the address: the start must
    # not take the first's health for the second's (it did, and the stack then ran without
    # dice, every match creation failing).
    port = free_port()
    ports = {"persistence": port, "dice": port, "rules": free_port(),
             "matchmaking": free_port()}
    try:
        stack = start_split(tmp_path, redis_url, postgres_url, worker=False, ports=ports)
    except RuntimeError as e:
        assert re.search(r"(?s)dice exited with 1.*Failed to bind", str(e)), e
    else:
        stack.stop()
        pytest.fail("the stack started though dice could not listen")


def test_free_ports_are_never_handed_out_twice(monkeypatch, tmp_path):
    # The OS may offer one free port to two binds in a row (here the first two of a fake OS's
    # offers); the second must not get it, though the first was never bound.
    offered = iter([41000, 41000, 41001])

    class OneSocket(socket.socket):
        def getsockname(self):  # type: ignore[no-untyped-def]
            return ("127.0.0.1", next(offered))

    monkeypatch.setattr(servers.socket, "socket", OneSocket)
    monkeypatch.setattr(servers, "CLAIMS", tmp_path)
    assert [servers.free_port(), servers.free_port()] == [41000, 41001]


def test_a_port_is_claimed_across_processes_until_its_claim_is_old(monkeypatch, tmp_path):
    monkeypatch.setattr(servers, "CLAIMS", tmp_path)
    port = servers.free_port()
    other = subprocess.run([sys.executable, "-c",
                            "import sys; from partida.devstack import servers as s; "
                            "from pathlib import Path; s.CLAIMS = Path(sys.argv[1]); "
                            "print(s._claim(int(sys.argv[2])))", str(tmp_path), str(port)],
                           capture_output=True, text=True, check=True)
    assert other.stdout.strip() == "False"
    old = time.time() - servers.CLAIM_SECONDS - 1
    os.utime(tmp_path / str(port), (old, old))
    assert servers._claim(port)


@pytest.mark.parametrize("durable, flushed", [(True, "on"), (False, "off")])
def test_only_a_durable_postgres_flushes_its_commits(durable, flushed):
    # The benchmark and `partida stack` run durable, as production does; the tests' own
    # throwaway clusters do not wait for the disk.
    with servers.postgres_server(durable=durable) as url, \
            sa.create_engine(url).connect() as conn:
        settings = {name: conn.execute(sa.text(f"show {name}")).scalar()
                    for name in ("fsync", "synchronous_commit", "full_page_writes")}
    assert settings == dict.fromkeys(settings, flushed)
