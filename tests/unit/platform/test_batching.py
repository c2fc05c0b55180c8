"""Leader/follower batching (platform/batching): what arrives together is handled together,
each caller keeps its own outcome, and a failed batch fails every caller in it."""

import random
import threading
import time

import pytest

from partida.platform.batching import Batcher


def _until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.001)


def test_callers_arriving_during_a_batch_share_the_next_one_in_key_order():
    seen: list[list[tuple[str, object]]] = []
    release = threading.Event()

    def handle(batch):
        if batch[0].payload == "hold":
            release.wait(5)
        seen.append([(p.key, p.payload) for p in batch])
        for p in batch:
            p.result = f"done {p.payload}"

    b = Batcher(handle)
    out: dict[str, object] = {}
    first = threading.Thread(target=lambda: out.update(hold=b.run("m", "hold")))
    first.start()
    _until(lambda: b._leading)
    others = [threading.Thread(target=lambda k=k, v=v: out.update({v: b.run(k, v)}))
              for k, v in (("z", "z1"), ("a", "a1"), ("z", "z2"))]
    for n, t in enumerate(others, 1):
        t.start()
        _until(lambda n=n: len(b._queue) == n)  # one at a time: arrival order is known
    release.set()
    for t in [first, *others]:
        t.join(5)
    assert seen[0] == [("m", "hold")]
    # one batch for the three; keys sorted, one key's items still in arrival order
    keys = [k for k, _ in seen[1]]
    assert keys == ["a", "z", "z"] and [v for k, v in seen[1] if k == "z"] == ["z1", "z2"]
    assert out == {"hold": "done hold", "z1": "done z1", "a1": "done a1", "z2": "done z2"}


def test_run_all_gives_each_item_its_own_outcome():
    def handle(batch):
        for p in batch:
            if p.payload < 0:
                p.error = ValueError(f"negative {p.payload}")
            else:
                p.result = p.payload * 2

    items = Batcher(handle).run_all([("a", 1), ("b", -1), ("c", 3)])
    assert [(p.result, type(p.error).__name__ if p.error else None) for p in items] == [
        (2, None), (None, "ValueError"), (6, None)]


def test_a_failing_batch_fails_every_caller_and_the_next_batch_still_runs():
    calls = []

    def handle(batch):
        calls.append(len(batch))
        if batch[0].payload == "boom":
            raise RuntimeError("the commit failed")
        for p in batch:
            p.result = p.payload

    b = Batcher(handle)
    items = b.run_all([("k", "boom"), ("l", "fine")])
    assert all(isinstance(p.error, RuntimeError) for p in items)
    assert b.run("k", "again") == "again"
    with pytest.raises(RuntimeError):
        b.run("k", "boom")
    assert calls == [2, 1, 1]


def test_the_idle_hook_runs_once_nothing_is_pending_and_never_beside_a_batch():
    # A leader writing batch after batch keeps what it needs between them (the group
    # commit's connection); `idle` lets it go once nothing is pending, still as the leader,
    # so that no batch is handled meanwhile, and what arrives during it is handled by it.
    log: list[str] = []
    idling = threading.Event()
    resume = threading.Event()

    def handle(batch):
        log.append("handle " + ",".join(p.payload for p in batch))
        for p in batch:
            p.result = p.payload

    def idle():
        log.append("idle")
        if not idling.is_set():  # the first time: hold still while another caller arrives
            idling.set()
            resume.wait(5)

    b = Batcher(handle, idle=idle)
    first = threading.Thread(target=b.run, args=("a", "a1"))
    first.start()
    assert idling.wait(5)
    late = threading.Thread(target=b.run, args=("b", "b1"))
    late.start()
    _until(lambda: len(b._queue) == 1)  # it waits: the leader has not stood down
    resume.set()
    first.join(5)
    late.join(5)
    assert log == ["handle a1", "idle", "handle b1", "idle"]
    assert not b._leading


def test_a_failing_idle_hook_stalls_nobody():
    def handle(batch):
        for p in batch:
            p.result = p.payload

    def idle():
        raise RuntimeError("cannot let go")

    b = Batcher(handle, idle=idle)
    assert [b.run("k", n) for n in range(3)] == [0, 1, 2]
    assert not b._leading


def test_a_leader_returns_once_its_own_item_is_handled_and_the_next_caller_leads():
    # A leader that went on handling the batches that arrived while it led would keep its
    # own caller waiting behind all of them; it hands the lead to the oldest caller instead.
    holds = {"first": threading.Event(), "second": threading.Event()}
    handled_by: dict[str, str] = {}

    def handle(batch):
        for p in batch:
            handled_by[p.payload] = threading.current_thread().name
        if batch[0].payload in holds:
            holds[batch[0].payload].wait(5)
        for p in batch:
            p.result = p.payload

    b = Batcher(handle)
    returned: list[str] = []
    threads = {v: threading.Thread(target=lambda v=v: returned.append(b.run(v, v)), name=v)
               for v in ("first", "second", "third")}
    threads["first"].start()
    _until(lambda: "first" in handled_by)
    for n, v in enumerate(("second", "third"), 1):  # they wait while the first is handled
        threads[v].start()
        _until(lambda n=n: len(b._queue) == n)
    holds["first"].set()
    threads["first"].join(5)
    # The first caller is back while the next batch is still being handled, by its own caller.
    _until(lambda: "third" in handled_by)
    assert returned == ["first"]
    assert handled_by == {"first": "first", "second": "second", "third": "second"}
    holds["second"].set()
    for t in threads.values():
        t.join(5)
    assert sorted(returned) == ["first", "second", "third"] and not b._leading


def test_nothing_to_handle_returns_at_once_and_hands_nothing():
    handled = []
    b = Batcher(lambda batch: handled.append(batch))
    assert b.run_all([]) == [] and handled == [] and not b._leading


def test_many_callers_at_once_each_get_their_own_outcome_and_none_is_left_waiting():
    # The hand-over between leaders under contention: every call returns, with its items'
    # own outcomes, whether its batch failed as a whole, item by item, or not at all.
    rng = random.Random(7)
    plan = [[rng.randrange(4) for _ in range(60)] for _ in range(16)]  # items per call
    idles = []

    def handle(batch):
        time.sleep(0.0002)  # long enough for others to queue behind the batch
        if any(p.payload[1] == "whole" for p in batch):
            raise RuntimeError("the batch failed")
        for p in batch:
            if p.payload[1] == "one":
                p.error = ValueError(p.payload[0])
            else:
                p.result = p.payload[0]

    b = Batcher(handle, max_batch=5, idle=lambda: idles.append(1))
    wrong: list[object] = []

    def caller(t: int) -> None:
        for c, size in enumerate(plan[t]):
            kinds = [("fine", "one", "whole")[(t + c + i) % 7 % 3] for i in range(size)]
            items = b.run_all([(f"k{(t * c + i) % 5}", (f"{t}.{c}.{i}", kind))
                               for i, kind in enumerate(kinds)])
            for i, (item, kind) in enumerate(zip(items, kinds, strict=True)):
                # A batch failed as a whole fails every item in it, whatever its own kind.
                ok = (isinstance(item.error, RuntimeError)
                      or (kind == "one" and isinstance(item.error, ValueError))
                      or (kind == "fine" and item.result == f"{t}.{c}.{i}"))
                if not ok:
                    wrong.append(item)

    threads = [threading.Thread(target=caller, args=(t,), daemon=True)
               for t in range(len(plan))]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a caller was left waiting"
    assert wrong == [] and not b._leading and not b._queue and idles
