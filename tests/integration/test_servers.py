"""The test servers themselves answer (a broken fixture would make every other test moot)."""

import redis
import sqlalchemy as sa


def test_redis_answers(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.set("partida:probe", "1")
    assert client.get("partida:probe") == b"1"


def test_postgres_answers(postgres_url):
    engine = sa.create_engine(postgres_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("select 40 + 2")).scalar() == 42
