"""Campaigns audit on a real PostgreSQL: which of two matches of one scenario counts.

A scenario counts with "the first of its matches in the campaign to finish", read as the
earliest `finished_at`. Two finishes of one campaign ran side by side (each locked its own
match row only), and `finished_at` is taken when a finish starts writing, not when it
commits: a finish that started first but committed last took the scenario from the one
GetCampaign had already reported, and the standings changed after the fact. A finish now
locks its campaign's row before taking its time (PersistenceStore.finish_match).
"""

from __future__ import annotations

import threading
import time

import sqlalchemy as sa

from partida.persistence import models, records
from partida.persistence.store import PersistenceStore
from tests.integration.test_persistence_pg import engine  # noqa: F401  (the fixture)
from tests.unit.persistence.campaign_behaviours import Cast, campaign_match, seat
from tests.unit.persistence.support import SEED, started

_RATINGS = models.table(models.Rating)


def _blocked_by(db: sa.Engine, pid: int) -> bool:
    """Whether a session waits for a lock `pid` holds (asked from a connection of its own:
    pg_stat_activity is a snapshot for the rest of a transaction)."""
    with db.connect() as conn:
        return bool(conn.scalar(sa.text("SELECT count(*) FROM pg_stat_activity"
                                        " WHERE :pid = ANY(pg_blocking_pids(pid))"),
                                {"pid": pid}))


def _waiting_for_locks(db: sa.Engine) -> int:
    with db.connect() as conn:
        return int(conn.scalar(sa.text("SELECT count(*) FROM pg_stat_activity"
                                       " WHERE wait_event_type = 'Lock'")))


def test_the_counted_match_of_a_scenario_never_changes_once_reported(engine):  # noqa: F811
    store = PersistenceStore(engine)
    cast = Cast(store)
    store.create_campaign("c1", "dynamit_joe", ("arrest", "showdown"), cast.teams())
    first = campaign_match("m1", (seat(0, cast.ana, "posse"), seat(1, cast.cy, "gang")))
    second = campaign_match("m2", (seat(0, cast.bo, "posse"), seat(1, cast.di, "gang")))
    for match in (first, second):
        started(store, match, actions=1)
    with engine.connect() as holder:
        # ana has a rating row, held locked: m1's finish takes its finished_at, then waits.
        holder.execute(_RATINGS.insert().values(player_id=cast.ana, game_id="dynamit_joe",
                                                rating=1500.0, deviation=350.0,
                                                volatility=0.06, matches=0))
        holder.commit()
        holder.execute(sa.select(_RATINGS).where(_RATINGS.c.player_id == cast.ana)
                       .with_for_update())
        holder_pid = holder.scalar(sa.text("SELECT pg_backend_pid()"))
        gang_wins = threading.Thread(target=store.finish_match, args=(
            "m1", records.Outcome((1,), reason="over"), SEED))
        gang_wins.start()
        deadline = time.monotonic() + 60  # bounds a wait that never ends, should it not
        while not _blocked_by(engine, holder_pid):
            assert gang_wins.is_alive() and time.monotonic() < deadline
            time.sleep(0.01)  # until m1's finish waits for the lock
        posse_wins = threading.Thread(target=store.finish_match, args=(
            "m2", records.Outcome((0,), reason="over"), SEED))
        posse_wins.start()
        # m2's finish either commits (it did) or waits for m1's (it does now)
        while posse_wins.is_alive() and _waiting_for_locks(engine) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        reported = store.get_campaign("c1").results
        holder.rollback()  # lets m1's finish commit, then m2's
    gang_wins.join()
    posse_wins.join()
    final = store.get_campaign("c1").results
    assert [(r.scenario_id, r.match_id) for r in final] == [("arrest", "m1")]
    assert reported in ((), final)  # nothing counted yet, or what counts for good
