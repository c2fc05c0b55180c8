"""Group commit: appends arriving together share a transaction, and one refused append does
not take the others down with it."""

import threading
import time

import pytest
import sqlalchemy as sa

from partida.persistence.group_commit import GroupCommit


@pytest.fixture
def engine(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'g.db'}")
    with engine.begin() as conn:
        conn.execute(sa.text("create table t (k text primary key)"))
    return engine


def _until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the batch never formed"
        time.sleep(0.001)


def _insert(key: str):
    def work(conn):
        conn.execute(sa.text("insert into t (k) values (:k)"), {"k": key})
        return key
    return work


def test_a_batch_commits_together_and_a_failure_stays_alone(engine):
    group = GroupCommit(engine)
    release = threading.Event()
    results: dict[str, object] = {}

    def blocking(conn):  # holds the first batch open so the others queue into one batch
        release.wait(5)
        return "first"

    def call(name, work):
        try:
            results[name] = group.run(name, work)
        except Exception as e:
            results[name] = e

    threads = [threading.Thread(target=call, args=("0", blocking))]
    threads[0].start()
    _until(lambda: group._batcher._leading)
    for name in ("a", "b", "c"):
        threads.append(threading.Thread(target=call, args=(name, _insert(name))))
    threads.append(threading.Thread(target=call, args=("dup", _insert("a"))))  # a clash
    for t in threads[1:]:
        t.start()
    _until(lambda: len(group._batcher._queue) == 4)
    release.set()
    for t in threads:
        t.join(5)
    assert results["0"] == "first"
    assert [results[k] for k in ("a", "b", "c")] == ["a", "b", "c"]
    assert isinstance(results["dup"], sa.exc.IntegrityError)
    with engine.connect() as conn:
        assert sorted(r[0] for r in conn.execute(sa.text("select k from t"))) == ["a", "b", "c"]


def test_a_lone_failure_raises_and_writes_nothing(engine):
    group = GroupCommit(engine)
    group.run("x", _insert("x"))
    with pytest.raises(sa.exc.IntegrityError):
        group.run("x", _insert("x"))
    with engine.connect() as conn:
        assert conn.execute(sa.text("select count(*) from t")).scalar() == 1


def test_the_connection_is_kept_from_batch_to_batch_and_given_back_when_idle(engine):
    # Batch after batch in one leader's turn share one checkout of the pool; once nothing is
    # pending it goes back, so an idle group commit holds no connection.
    group = GroupCommit(engine)
    release = threading.Event()
    checkouts: list[object] = []
    sa.event.listen(engine, "checkout", lambda *args: checkouts.append(args))

    def blocking(conn):  # the first batch holds on while the next ones queue
        release.wait(5)
        return "first"

    first = threading.Thread(target=group.run, args=("0", blocking))
    first.start()
    _until(lambda: group._batcher._leading)
    later = [threading.Thread(target=group.run, args=(k, _insert(k))) for k in "ab"]
    for t in later:
        t.start()
    _until(lambda: len(group._batcher._queue) == 2)
    release.set()
    for t in [first, *later]:
        t.join(5)
    assert len(checkouts) == 1  # two batches, one checkout
    assert engine.pool.checkedout() == 0
    with engine.connect() as conn:
        assert sorted(r[0] for r in conn.execute(sa.text("select k from t"))) == ["a", "b"]


def test_a_connection_lost_in_a_leaders_turn_is_replaced_for_the_next_batch(engine):
    group = GroupCommit(engine)
    release = threading.Event()

    def dropping(conn):  # the first batch loses its connection while the next one queues
        release.wait(5)
        conn.invalidate()
        raise sa.exc.OperationalError("insert", {}, Exception("connection lost"))

    failed: list[BaseException] = []

    def first():
        try:
            group.run("0", dropping)
        except sa.exc.OperationalError as e:
            failed.append(e)

    t = threading.Thread(target=first)
    t.start()
    _until(lambda: group._batcher._leading)
    done: dict[str, object] = {}
    later = threading.Thread(target=lambda: done.update(a=group.run("a", _insert("a"))))
    later.start()
    _until(lambda: len(group._batcher._queue) == 1)
    release.set()
    t.join(5)
    later.join(5)
    assert len(failed) == 1 and done == {"a": "a"}
    assert engine.pool.checkedout() == 0
