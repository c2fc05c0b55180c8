"""Stacks for end-to-end tests: every test talks to separate processes through gRPC only."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from partida.devstack.servers import postgres_server, redis_server
from partida.devstack.stack import Stack, embedded_stack, split_stack

_dbs = itertools.count()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def fresh_database(postgres_url: str) -> str:
    """A new empty database on the session's PostgreSQL server."""
    name = f"e2e_{os.getpid()}_{next(_dbs)}"
    engine = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return postgres_url.rsplit("/", 1)[0] + f"/{name}"


def _split(postgres_url: str, **kw) -> Iterator[Stack]:
    with redis_server() as redis_url, split_stack(redis_url, fresh_database(postgres_url),
                                                  **kw) as stack:
        yield stack


@pytest.fixture(scope="module", params=["embedded", "split"])
def stack(request, postgres_url) -> Iterator[Stack]:
    """The same scenarios against the embedded server and the multi-process stack."""
    if request.param == "embedded":
        with embedded_stack() as s:
            yield s
    else:
        yield from _split(postgres_url)


@pytest.fixture
def own_split_stack(postgres_url) -> Iterator[Stack]:
    """A multi-process stack of the test's own, for tests that kill processes."""
    yield from _split(postgres_url)
