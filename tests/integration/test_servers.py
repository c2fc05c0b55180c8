"""The test servers themselves answer (a broken fixture would make every other test moot)."""

import socket

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
    with pytest.raises(RuntimeError, match=r"(?s)dice exited with 1.*Failed to bind"):
        start_split(tmp_path, redis_url, postgres_url, worker=False, ports=ports)


def test_free_ports_are_never_handed_out_twice(monkeypatch):
    # The OS may offer one free port to two binds in a row; the second must not get it.
    offered = iter([41000, 41000, 41001])

    class OneSocket(socket.socket):
        def getsockname(self):  # type: ignore[no-untyped-def]
            return ("127.0.0.1", next(offered))

    monkeypatch.setattr(servers.socket, "socket", OneSocket)
    assert [servers.free_port(), servers.free_port()] == [41000, 41001]
