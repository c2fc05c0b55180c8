"""Group commits on a real PostgreSQL whose connection drops part-way through a batch.

Every write of the batch must fail as the outage it is (UNAVAILABLE: retry), not as a bug
(INTERNAL), nothing of the batch may be kept, and the remembered log heads must stay right:
the retries go through and the hash chains hold. The connection is ended by PostgreSQL
itself (pg_terminate_backend), as a restart or a failover ends it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import grpc
import pytest
import sqlalchemy as sa

from partida.persistence import convert
from partida.persistence.group_commit import GroupCommit
from partida.persistence.hashchain import verify_chain
from partida.persistence.store import PersistenceStore
from partida.platform.errors import AlreadyExists
from partida.platform.outages import out_of_reach
from partida.v1 import persistence_pb2 as pb
from partida.v1 import persistence_pb2_grpc
from tests.unit.persistence.service_behaviours import SERVICE
from tests.unit.persistence.support import a_match, action, migrated_schema, serving, started

MATCHES = ("m1", "m2", "m3")
# Ends the backend that inserts a log record with this request id, mid-INSERT.
DROP_ON_INSERT = """
CREATE FUNCTION drop_connection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.request_id = 'drop-me' THEN
    PERFORM pg_terminate_backend(pg_backend_pid());
    PERFORM pg_sleep(5);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER drop_connection BEFORE INSERT ON log_records
  FOR EACH ROW EXECUTE FUNCTION drop_connection();
"""


@pytest.fixture
def engine(postgres_url: str) -> Iterator[sa.Engine]:
    with migrated_schema(postgres_url) as engine:
        yield engine


@pytest.fixture
def store(engine: sa.Engine) -> PersistenceStore:
    """A store whose matches m1 to m3 have their set-up and actions 1 to 3."""
    store = PersistenceStore(engine)
    for match_id in MATCHES:
        started(store, a_match(match_id))
    return store


@contextlib.contextmanager
def heads_unreadable(engine: sa.Engine) -> Iterator[None]:
    """Reading a log's head waits (another transaction holds the whole table) until the
    block ends."""
    with engine.connect() as conn, conn.begin():
        conn.execute(sa.text("LOCK TABLE log_records IN ACCESS EXCLUSIVE MODE"))
        yield


def end_backend_waiting_on_log(engine: sa.Engine) -> None:
    """Ends (pg_terminate_backend) the backend waiting to read log_records."""
    admin = sa.create_engine(engine.url, isolation_level="AUTOCOMMIT")
    try:
        deadline = time.monotonic() + 10
        with admin.connect() as conn:
            while True:
                pid = conn.scalar(sa.text(
                    "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND query LIKE '%FROM log_records%' AND pid <> pg_backend_pid()"))
                if pid is not None:
                    break
                assert time.monotonic() < deadline, "no read of a head ever waited"
                time.sleep(0.01)
            assert conn.scalar(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        admin.dispose()


def versions(store: PersistenceStore) -> list[int]:
    return [store.get_match(m).version for m in MATCHES]


def chains_hold(store: PersistenceStore) -> bool:
    return all(verify_chain(store.get_match_log(m)[1]) == (True, None) for m in MATCHES)


def test_a_batch_whose_connection_drops_answers_unavailable_and_keeps_nothing(engine, store):
    # A replica just started remembers no heads: its batch reads each log's head, and the
    # connection drops during the first read. The call's first append (m3) comes after it
    # in the batch (key order), and answered INTERNAL: it failed on the broken transaction
    # (PendingRollbackError), not on the outage.
    replica = PersistenceStore(engine)
    request = pb.AppendLogsRequest(appends=[
        pb.AppendLogRequest(match_id=m, records=[convert.record_pb(action(4))])
        for m in ("m3", "m1", "m2")])
    with serving(replica) as channel:
        stub = persistence_pb2_grpc.PersistenceServiceStub(channel)
        with heads_unreadable(engine):
            call = stub.AppendLogs.future(request, metadata=SERVICE, timeout=30)
            end_backend_waiting_on_log(engine)
        with pytest.raises(grpc.RpcError) as failed:
            call.result()
        assert failed.value.code() == grpc.StatusCode.UNAVAILABLE, failed.value.details()
        assert versions(store) == [3, 3, 3]
        retried = stub.AppendLogs(request, metadata=SERVICE, timeout=30)
    assert [(r.code, r.last_sequence) for r in retried.results] == [(0, 4)] * 3
    assert chains_hold(store)


def test_a_connection_dropped_while_appending_one_by_one_fails_the_batch_as_an_outage(
        engine, store):
    # Another replica appended to m1, so this store's remembered head of m1 is behind: the
    # batch's INSERT collides and the batch falls back to one append at a time, and the
    # connection drops during m2's. m3, after it, failed on the broken transaction
    # (PendingRollbackError: INTERNAL) instead of the outage.
    PersistenceStore(engine).append_log("m1", [action(4)])
    with engine.begin() as conn:
        conn.exec_driver_sql(DROP_ON_INSERT)
    outcome = store.append_logs([("m1", [action(4, request_id="late")], ""),
                                 ("m2", [action(4, request_id="drop-me")], ""),
                                 ("m3", [action(4)], "")])
    assert isinstance(outcome[0], AlreadyExists)  # read before the drop: the other's stands
    assert [out_of_reach(e) if isinstance(e, Exception) else e
            for e in outcome[1:]] == ["the database"] * 2
    assert versions(store) == [4, 3, 3]
    assert [r[0] for r in store.append_logs([("m1", [action(5)], ""), ("m2", [action(4)], ""),
                                             ("m3", [action(4)], "")])] == [5, 4, 4]
    assert chains_hold(store)


def test_a_connection_dropped_during_the_batchs_insert_fails_the_batch_as_an_outage(
        engine, store):
    # The heads are this store's own, so the batch goes straight to its one INSERT (run on
    # the driver's cursor, log_append._Driver), and the connection drops during it: every
    # append of the batch is the outage, nothing is kept, and the remembered heads stay right.
    with engine.begin() as conn:
        conn.exec_driver_sql(DROP_ON_INSERT)
    outcome = store.append_logs([("m1", [action(4)], ""),
                                 ("m2", [action(4, request_id="drop-me")], ""),
                                 ("m3", [action(4)], "")])
    assert [out_of_reach(e) if isinstance(e, Exception) else e
            for e in outcome] == ["the database"] * 3
    assert versions(store) == [3, 3, 3]
    assert [r[0] for r in store.append_logs([(m, [action(4)], "") for m in MATCHES])] == [4] * 3
    assert chains_hold(store)


def test_the_plain_writer_fails_the_batch_as_an_outage_once_its_connection_drops(engine):
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (k text PRIMARY KEY)")

    def insert(key: str):
        def work(conn: sa.Connection) -> str:
            conn.execute(sa.text("INSERT INTO t (k) VALUES (:k)"), {"k": key})
            return key
        return work

    def drop(conn: sa.Connection) -> None:
        conn.execute(sa.text("SELECT pg_terminate_backend(pg_backend_pid()), pg_sleep(5)"))

    done = GroupCommit(engine).run_all([("a", insert("a")), ("b", drop), ("c", insert("c"))])
    assert [out_of_reach(p.error) if p.error else p.result
            for p in done] == ["the database"] * 3
    with engine.connect() as conn:
        assert conn.scalar(sa.text("SELECT count(*) FROM t")) == 0
