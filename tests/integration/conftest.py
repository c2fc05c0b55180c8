"""Real servers for integration tests, one of each per test session (per xdist worker)."""

from collections.abc import Iterator

import pytest

from partida.devstack.servers import postgres_server, redis_server


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url
