"""Campaigns (Rulebook 9) on a real PostgreSQL: the store and the service, each test in a
schema of its own (the `engine` fixture of test_persistence_pg)."""

from tests.integration.test_persistence_pg import engine  # noqa: F401  (the fixture)
from tests.unit.persistence.campaign_behaviours import (
    CampaignServiceBehaviours,
    CampaignStoreBehaviours,
)


class TestCampaignsOnPostgres(CampaignStoreBehaviours):
    pass


class TestCampaignServiceOnPostgres(CampaignServiceBehaviours):
    pass
