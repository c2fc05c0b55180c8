"""Campaigns (Rulebook 9) on SQLite: the store, the service, and the migration's way back."""

from alembic import command
from prometheus_client import REGISTRY

from partida.persistence import db, records
from partida.persistence.service import TimedStore
from tests.unit.persistence.campaign_behaviours import (
    SCENARIOS,
    CampaignServiceBehaviours,
    CampaignStoreBehaviours,
    WithCampaign,
)
from tests.unit.persistence.store_behaviours import WithStore
from tests.unit.persistence.support import a_match, started


class TestCampaignsOnSqlite(CampaignStoreBehaviours):
    pass


class TestCampaignServiceOnSqlite(CampaignServiceBehaviours):
    pass


class TestCampaignMigration(WithStore):
    def test_downgrading_the_campaigns_keeps_every_match_and_its_seats(self, engine, store):
        # SQLite would rebuild `matches` to drop a column by copying it; dropping the old
        # table would then cascade to the seats, the log and the results.
        started(store, a_match(), actions=2)
        with engine.begin() as conn:
            command.downgrade(db.alembic_config(conn), "0001")
        with engine.connect() as conn:
            seats = conn.exec_driver_sql("SELECT count(*) FROM match_seats").scalar()
            log = conn.exec_driver_sql("SELECT count(*) FROM log_records").scalar()
        assert (seats, log) == (2, 3)
        db.migrate(engine)
        assert store.get_match("m1").seats == a_match().seats
        assert store.get_match("m1").campaign_id == "" and isinstance(
            store.get_match("m1").seats[0], records.Seat)


class TestCampaignWritesTimed(WithCampaign):
    def test_opening_a_campaign_is_timed_as_a_write(self, store, cast):
        """Opening a campaign writes the durable record but was left out of the timed
        writes: partida_persistence_write_duration_seconds had no create_campaign."""
        def count() -> float:
            return REGISTRY.get_sample_value(
                "partida_persistence_write_duration_seconds_count",
                {"operation": "create_campaign"}) or 0.0

        before = count()
        TimedStore(store).create_campaign("c9", "dynamit_joe", SCENARIOS, cast.teams())
        assert count() == before + 1
