"""A match made whose answer reached the matcher only after its tickets expired (see
tests/unit/matchmaking/test_audit33_expiry.py), over the Redis store against a real
redis-server: its tickets end ASSIGNED with that match, never EXPIRED."""

import uuid

import pytest

from partida.matchmaking.store import RedisTicketStore
from tests.unit.matchmaking.test_audit33_expiry import ExpiryRaces


class TestRedisStore(ExpiryRaces):
    @pytest.fixture
    def store(self, redis_url):
        s = RedisTicketStore(redis_url, prefix=f"{{mm-{uuid.uuid4().hex[:8]}}}",
                             retain_seconds=120)
        yield s
        s.close()
