"""The rules service's Redis session store gives up connecting to a host that never answers
(no refusal: a dropped route, a host gone) in a few seconds, for its calls and its wake-ups,
instead of holding a server thread until the OS abandons the connect."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from partida.rules.redis_session import CONNECT_TIMEOUT_SECONDS, RedisSessionStore

# How long a call to the silent host may take: its connect timeout, with a generous margin.
BOUND = CONNECT_TIMEOUT_SECONDS + 10.0


def test_the_store_sets_a_connect_timeout_on_both_its_pools():
    """A check of the configuration: nothing connects here."""
    store = RedisSessionStore.from_url("redis://127.0.0.1:1")
    kwargs = store.r.connection_pool.connection_kwargs
    assert kwargs.get("socket_connect_timeout") == CONNECT_TIMEOUT_SECONDS
    wakes = store._wake.connection_pool.connection_kwargs
    assert wakes.get("socket_connect_timeout") == CONNECT_TIMEOUT_SECONDS


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A local port whose connects go unanswered: a listener whose accept queue is full, as
    Linux then drops the SYNs that come (a blackholed host, without needing a network)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    probes: list[socket.socket] = []
    try:
        for _ in range(8):  # each one answered fills the queue a little more
            probe = socket.socket()
            probes.append(probe)
            probe.settimeout(1.0)
            try:
                probe.connect(("127.0.0.1", port))
            except TimeoutError:
                break
        else:
            pytest.skip("this system answers every connect: no silent host to try")
        yield port
    finally:
        for probe in probes:
            probe.close()
        listener.close()


def _within_bound(call: Any) -> Any:
    """What `call` returned or raised, on a thread of its own that must end within BOUND."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except Exception as e:
            outcome.append(e)

    worker = threading.Thread(target=run, daemon=True)  # should it hang, pytest goes on
    worker.start()
    worker.join(BOUND)
    assert not worker.is_alive(), "still connecting to a host that never answers"
    return outcome[0]


def test_calls_and_wake_ups_to_a_silent_host_give_up_in_bounded_time(silent_port):
    store = RedisSessionStore.from_url(f"redis://127.0.0.1:{silent_port}")
    assert isinstance(_within_bound(lambda: store.load("m")), redis.TimeoutError)
    # A wake-up gives up quietly (the read it was for ends at its time).
    assert _within_bound(lambda: store._unblock(7)) is True
