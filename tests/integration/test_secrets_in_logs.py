"""What a failed database write leaves in the logs, on a real PostgreSQL: the dice service's
seeds are secret until a match ends, and a log append carries events some seats may not see,
so the values a statement was given must not appear in the error a failure logs."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import grpc
import pytest

from partida.dice.service import CountedDice, DiceServicer
from partida.persistence.db import make_engine, migrate
from partida.persistence.service import TimedStore
from partida.persistence.store import PersistenceStore
from partida.platform.auth import Authority
from partida.platform.logs import JsonFormatter
from partida.platform.server import Registration, Server
from partida.v1 import dice_pb2, dice_pb2_grpc
from tests.e2e.conftest import fresh_database

AUTHORITY = Authority("p" * 32, "s" * 32, {})

# The database refuses every new dice stream, as a full disk would.
_FULL_DISK = """
CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$;
CREATE TRIGGER disk_full BEFORE INSERT ON dice_streams
FOR EACH ROW EXECUTE FUNCTION disk_full();
"""


@pytest.fixture
def logged() -> Iterator[io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield out
    finally:
        root.removeHandler(handler)


def test_a_failed_dice_stream_insert_does_not_log_the_new_seed(postgres_url, logged):
    """The insert of a new dice stream failed on PostgreSQL, and the error the dice service
    logged ("unexpected failure") quoted the statement's parameters: the match's new,
    secret seed among them (`'seed': b'...'`), readable by anyone with the logs before the
    match had even started."""
    engine = make_engine(fresh_database(postgres_url))
    migrate(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql(_FULL_DISK)
    dice = DiceServicer(CountedDice(TimedStore(PersistenceStore(engine))))
    server = Server([Registration("partida.v1.DiceService", dice,
                                  dice_pb2_grpc.add_DiceServiceServicer_to_server)],
                    AUTHORITY, "127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel, \
                pytest.raises(grpc.RpcError) as failed:
            dice_pb2_grpc.DiceServiceStub(channel).CreateStream(
                dice_pb2.CreateStreamRequest(match_id="m-secret", draw=2), timeout=10,
                metadata=(("authorization", f"Bearer {AUTHORITY.service_token('rules')}"),))
    finally:
        server.stop(0)
        engine.dispose()
    assert failed.value.code() == grpc.StatusCode.INTERNAL
    lines = [json.loads(line) for line in logged.getvalue().splitlines()]
    (failure,) = [line for line in lines if line["msg"] == "unexpected failure"]
    assert "No space left on device" in failure["error"]  # the cause is still logged
    assert "INSERT INTO dice_streams" in failure["error"]  # and the statement
    for line in lines:
        text = json.dumps(line)
        assert "[parameters:" not in text and "'seed'" not in text, text
