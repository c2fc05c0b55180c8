"""The gRPC servicers end to end over a store on SQLite (tests/integration: PostgreSQL)."""

from tests.unit.persistence.service_behaviours import ServiceBehaviours


class TestServicesOnSqlite(ServiceBehaviours):
    pass
