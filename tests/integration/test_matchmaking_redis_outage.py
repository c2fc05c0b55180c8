"""The matchmaker through a Redis outage, against a real redis-server stopped and started
again: every read and write of its rounds fails UNAVAILABLE (an outage, not a bug), the
loop says so once rather than logging a traceback every tenth of a second, and it matches
again once Redis is back."""

from __future__ import annotations

import logging
import time

import pytest

from partida.devstack.servers import start_redis, stop
from partida.matchmaking.matcher import Matcher
from partida.matchmaking.store import RedisTicketStore
from partida.matchmaking.tickets import ASSIGNED
from partida.platform import errors, outages
from tests.unit.matchmaking.factory import POLICY, RecordingCreator, ticket
from tests.unit.matchmaking.store_contract import NOW


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


@pytest.fixture
def redis_down(tmp_path):
    """A store whose redis-server is stopped, and a function that starts it again on the
    same port (empty: the test server keeps nothing on disk)."""
    proc, url = start_redis(tmp_path)
    store = RedisTicketStore(url, prefix="{mm-outage}")
    store.searching()  # connected once, as a serving matcher is
    stop(proc)
    started = []

    def back() -> None:
        started.append(start_redis(tmp_path, port=_port(url))[0])

    try:
        yield store, back
    finally:
        store.close()
        for p in started:
            stop(p)


STEPS = {
    "searching": lambda store: store.searching(),
    "claim": lambda store: store.claim(_proposals(), NOW, 30),
    "assign": lambda store: store.assign([(p, "m1") for p in _proposals()]),
    "release": lambda store: store.release(_proposals()),
    "expire": lambda store: store.expire(NOW),
    "stale_claims": lambda store: store.stale_claims(NOW, 30),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_every_step_of_a_round_fails_unavailable_while_redis_is_down(redis_down, step):
    store, _ = redis_down
    with pytest.raises(errors.Unavailable):
        STEPS[step](store)


def test_the_matcher_tells_an_outage_once_and_matches_again_once_redis_is_back(
        redis_down, caplog, monkeypatch):
    store, back = redis_down
    monkeypatch.setattr(outages, "OUTAGE_WAIT_SECONDS", 0.05)
    m = Matcher(store, RecordingCreator(), POLICY, interval=0.01)
    caplog.set_level(logging.INFO, logger="partida.matchmaking")
    m.start()
    try:
        time.sleep(0.5)  # about ten tries against the outage
        back()
        now = time.time()
        for tid in "ab":
            store.create(ticket(tid, created=now), f"req-{tid}", 5)
        deadline = time.monotonic() + 10
        while store.get("b").status != ASSIGNED and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        m.stop()
    assert [store.get(t).status for t in "ab"] == [ASSIGNED, ASSIGNED]
    told = [r for r in caplog.records if r.name == "partida.matchmaking"]
    assert not [r for r in told if r.exc_info], "an outage is not a bug: no traceback"
    loop = [r.getMessage().split(" ")[1] for r in told if r.module == "outages"]
    assert loop == ["paused", "resumed:"]


def _proposals():
    from partida.matchmaking.pools import form_matches

    tickets = [ticket(t, created=NOW) for t in "xy"]
    proposals = form_matches(tickets, NOW + 1, POLICY)
    assert proposals, "two tickets of one table make a proposal"
    return proposals
