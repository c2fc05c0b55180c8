"""Real servers for integration tests, one of each per test session (per xdist worker)."""

from collections.abc import Iterator

import pytest

from partida.devstack.servers import postgres_server, redis_server
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture
def db(tmp_path) -> PersistenceStore:
    """A migrated SQLite persistence store of the test's own."""
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    return PersistenceStore(engine)
