"""A delayed spectator with the live sessions on a real redis-server (which keeps a match's
last 32 events) and the log on SQLite and on a real PostgreSQL: once the delay spans more
events than Redis keeps, each action's read of the log is the part it reveals, and the
events served are those of the whole log up to the delayed version."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from partida.dice.logic import Dice
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.rules.matches import Matches
from partida.rules.redis_session import RedisSessionStore
from tests.unit.persistence.support import migrated_schema
from tests.unit.rules.conftest import Clock
from tests.unit.rules.test_spectator_log_reads_bounded import (
    BANDAS,
    CountingLedger,
    create,
    reads_per_action,
)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path) -> Iterator[PersistenceStore]:
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
        migrate(engine)
        yield PersistenceStore(engine)
        return
    with migrated_schema(request.getfixturevalue("postgres_url")) as engine:
        yield PersistenceStore(engine)


def test_a_delayed_spectator_on_redis_reads_only_what_each_action_reveals(db, redis_url):
    ledger = CountingLedger(db)
    matches = Matches(RedisSessionStore.from_url(redis_url, idle_ttl=600), ledger, Dice(db),
                      clock=Clock())
    match_id = create(matches, BANDAS)
    # The entry each action revealed, not the whole log.
    assert set(reads_per_action(matches, match_id, ledger, db)) == {1}
    assert [e.sequence for e in ledger.load_entries(match_id, 30, 33)] == [31, 32, 33]
