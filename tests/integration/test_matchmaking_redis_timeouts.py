"""The Redis TicketStore's socket timeouts: set explicitly, a Redis that never answers a
connect fails the call fast as UNAVAILABLE, and the subscriber's quiet waits are not cut
short by the read timeout. Against a real redis-server."""

import logging
import socket
import time
import uuid

import pytest
import redis

from partida.matchmaking.store import RedisTicketStore, redis_store
from partida.platform import errors
from tests.unit.matchmaking.store_contract import new

# redis-py's default connect timeout, which the store relied on before it set its own.
REDIS_PY_DEFAULT_SECONDS = 5.0


@pytest.fixture
def prefix():
    return f"{{mm-{uuid.uuid4().hex[:8]}}}"


def test_connections_carry_the_stores_own_timeouts(redis_url, prefix):
    store = RedisTicketStore(redis_url, prefix=prefix)
    try:
        pool = store._r.connection_pool
        assert pool.connection_kwargs.get("socket_connect_timeout") == \
            redis_store.CONNECT_TIMEOUT_SECONDS
        assert pool.connection_kwargs.get("socket_timeout") == redis_store.READ_TIMEOUT_SECONDS
        conn = pool.make_connection()  # what each connection, the subscriber's too, gets
        assert (conn.socket_connect_timeout, conn.socket_timeout) == \
            (redis_store.CONNECT_TIMEOUT_SECONDS, redis_store.READ_TIMEOUT_SECONDS)
    finally:
        store.close()


@pytest.fixture
def silent_url():
    """A local port whose SYNs go unanswered, as a host behind a dropped route: on Linux a
    listener whose accept queue is full drops new SYNs (no refusal), so a connect waits for
    its timeout. Not a blackholed remote address: a sandbox or proxy may answer those."""
    with socket.socket() as listener, socket.socket() as held:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)  # room for one connection, never accepted
        address = listener.getsockname()
        held.connect(address)
        with socket.socket() as probe:
            probe.settimeout(0.5)
            try:
                probe.connect(address)
            except TimeoutError:
                pass
            else:
                pytest.skip("this platform answers a SYN beyond a full accept queue")
        yield f"redis://{address[0]}:{address[1]}/0"


def test_a_redis_that_never_answers_is_unavailable_within_the_connect_timeout(silent_url):
    # A timeout, not a refusal (test_matchmaking_redis covers a closed port, which refuses
    # at once): the connect itself must give up.
    store = RedisTicketStore(silent_url)
    started = time.monotonic()
    with pytest.raises(errors.Unavailable) as out:
        store.get("a")
    took = time.monotonic() - started
    store.close()
    assert isinstance(out.value.__cause__, redis.TimeoutError)
    assert redis_store.CONNECT_TIMEOUT_SECONDS - 0.1 <= took < \
        redis_store.CONNECT_TIMEOUT_SECONDS + 0.8 < REDIS_PY_DEFAULT_SECONDS


def test_a_watch_outlives_quiet_periods_longer_than_the_read_timeout(redis_url, prefix,
                                                                    caplog):
    """The subscriber's connection is idle between changes. Were the read timeout applied to
    its waits, each would fail, the subscription be made again (waking every follower) and
    a change published meanwhile be missed."""
    read_timeout = 0.2
    store = RedisTicketStore(redis_url, prefix=prefix, read_timeout=read_timeout)
    try:
        assert store._r.connection_pool.connection_kwargs["socket_timeout"] == read_timeout
        new(store, "a")
        with caplog.at_level(logging.WARNING, logger="partida.matchmaking"), \
                store.watch("a") as changes:
            # Quiet: longer than several read timeouts and than one subscriber wait.
            assert not changes.wait(1.5)
            store.cancel("a")
            started = time.monotonic()
            assert changes.wait(2)
            assert time.monotonic() - started < 1
        assert not [r for r in caplog.records if "subscriber" in r.getMessage()]
    finally:
        store.close()
