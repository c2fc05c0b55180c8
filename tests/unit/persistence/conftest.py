"""A migrated SQLite database in a temporary file for each test."""

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from partida.persistence.db import make_engine, migrate


@pytest.fixture
def engine(tmp_path) -> Iterator[sa.Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    yield engine
    engine.dispose()
