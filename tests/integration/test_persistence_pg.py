"""partida.persistence on a real PostgreSQL: the migrations, every store behaviour, and both
gRPC services end to end. Each test gets a schema of its own, created and migrated for it.
"""

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from partida.persistence.db import make_engine, migrate
from tests.unit.persistence.service_behaviours import ServiceBehaviours
from tests.unit.persistence.store_behaviours import StoreBehaviours
from tests.unit.persistence.support import (
    fresh_schema,
    migrated_schema,
    race,
    schema_differences,
)


@pytest.fixture
def engine(postgres_url: str) -> Iterator[sa.Engine]:
    with migrated_schema(postgres_url) as engine:
        yield engine


class TestStoreOnPostgres(StoreBehaviours):
    pass


class TestServicesOnPostgres(ServiceBehaviours):
    pass


def test_the_migrated_schema_is_exactly_the_models(engine):
    assert schema_differences(engine) == []
    with engine.connect() as conn:
        assert conn.scalar(sa.text("SELECT current_schema()")).startswith("t_")  # the test's own
        definition = conn.scalar(sa.text(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'uq_log_records_request'"
            " AND schemaname = current_schema()"))
    assert "UNIQUE" in definition and "WHERE (request_id <> ''::text)" in definition


def test_concurrent_migrations_of_one_database_agree(postgres_url):
    with fresh_schema(postgres_url) as url:
        outcomes = race(4, lambda _: migrate(url))
        assert outcomes == [None] * 4
        engine = make_engine(url)
        assert schema_differences(engine) == []
        engine.dispose()


def test_a_bare_postgresql_url_gets_the_psycopg_driver(postgres_url):
    engine = make_engine(postgres_url.replace("postgresql+psycopg://", "postgresql://"))
    assert engine.dialect.driver == "psycopg"
    engine.dispose()
