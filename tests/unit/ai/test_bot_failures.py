"""Bot turns when something fails part-way: a bot that fails or chooses an action that is not
legal, a store out of reach in the embedded server, and the embedded server shutting down
while turns play. None may stall a seat, nor play a decision twice."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from sqlalchemy import exc

from partida.ai import tasks, turns
from partida.ai.bots import make_bot
from partida.ai.grpc_client import GrpcRulesClient
from partida.ai.local import ThreadBotScheduler
from partida.platform import jsonio
from partida.platform.auth import Authority
from partida.platform.server import Registration, Server
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.service import RulesServicer
from partida.rules.session import MemorySessionStore
from partida.v1 import rules_pb2_grpc
from tests.support.serving import channel_to
from tests.unit.ai.test_turn_retries import Flaky, _played_once_each
from tests.unit.rules.conftest import ALICE, Dice, new_match, rid
from tests.unit.rules.test_bot_turns import KeepingScheduler


class Illegal:
    """A bot bug: it chooses an action that is none of those listed (so does its search)."""

    def choose(self, view: Any, actions: Any, rng: Any) -> str:
        return "deploy:99"

    def choose_from_state(self, game: Any, state: Any, seat: int, rng: Any) -> str:
        return "deploy:99"


class Failing:
    """A bot bug: it raises."""

    def choose(self, view: Any, actions: Any, rng: Any) -> str:
        raise ZeroDivisionError("a bug in the bot")

    def choose_from_state(self, game: Any, state: Any, seat: int, rng: Any) -> str:
        raise ZeroDivisionError("a bug in the search")


BROKEN = {"illegal": Illegal, "raising": Failing}


@contextlib.contextmanager
def over_grpc(matches: Matches) -> Iterator[GrpcRulesClient]:
    """The rules service over `matches` behind a real gRPC server, as a worker calls it."""
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.RulesService", RulesServicer(matches),
                       rules_pb2_grpc.add_RulesServiceServicer_to_server)
    with channel_to(Server([reg], auth, "127.0.0.1:0")) as channel:
        yield GrpcRulesClient(channel, auth.service_token("bots"))


@pytest.mark.parametrize("broken", BROKEN)
@pytest.mark.parametrize("bot", ["heuristic", "ismcts"])
def test_a_celery_turn_whose_bot_fails_plays_a_legal_action(store, clock, monkeypatch,
                                                             caplog, broken, bot):
    """Sent, an illegal choice came back FAILED_PRECONDITION, which ends a task as stale:
    quietly, and again every BOT_RETRY_SECONDS when the rules service queues the turn
    again, the match never moving on. A bot that raised failed the task as often."""
    caplog.set_level(logging.INFO)  # whatever an in-process worker left the root logger at
    queue = KeepingScheduler()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), queue,
                      clock=clock)
    s = new_match(matches, players=(), bots=(bot, bot))
    monkeypatch.setattr(turns, "make_bot", lambda game_id, name: BROKEN[broken]())
    with over_grpc(matches) as client:
        monkeypatch.setattr(tasks, "_client", lambda: client)
        match_id, seat, version, game_id, name, seen = queue.queued.pop()
        result = tasks.play_turn_task.apply(
            args=(match_id, seat, version, game_id, name, 0.0),
            kwargs={"seen": jsonio.dumps(seen.to_plain())})
    assert result.get() == "played"
    assert matches.session(s.match_id).version > version
    _played_once_each(matches, s.match_id)
    # Said, as the bug it is.
    assert any(r.name == "partida.bots" and r.levelno >= logging.WARNING
               for r in caplog.records)


@pytest.mark.parametrize("broken", BROKEN)
def test_a_local_turn_whose_bot_fails_plays_a_legal_action(store, clock, monkeypatch, broken):
    """On the embedded server's threads, the refusal was logged at INFO and the turn dropped
    (a bot that raised, logged as failed), the seat waiting for the rules service to queue
    the same failing turn again."""
    monkeypatch.setattr(turns, "make_bot", lambda game_id, name: BROKEN[broken]())
    scheduler = ThreadBotScheduler(workers=1)
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), scheduler,
                      clock=clock)
    scheduler.bind(matches)
    try:
        match_id = new_match(matches, players=("alice",), bots=("heuristic",)).match_id
        while not _bot_actions(matches, match_id):  # alice plays until the bot has played
            s = matches.session(match_id)
            assert s.status == "active"
            default = matches.legal(match_id, 0, ALICE)[2]
            matches.submit(match_id, 0, s.version, rid(), default, ALICE)
            _wait_for_alice(matches, match_id)
        _played_by_bot_once_each(matches, match_id)
    finally:
        scheduler.shutdown()


class _NoServer(Exception):
    sqlstate = None  # what psycopg says when no server answered at all


STORE_GONE: dict[str, Callable[[], Exception]] = {
    "redis": lambda: redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379."),
    "database": lambda: exc.OperationalError("INSERT INTO match_log ...", {},
                                             _NoServer("connection refused")),
}


@pytest.mark.parametrize("lost", [False, True], ids=["not-sent", "answer-lost"])
@pytest.mark.parametrize("store_gone", STORE_GONE)
def test_a_local_turn_meeting_a_store_out_of_reach_is_retried_at_once(store, clock, lost,
                                                                      store_gone):
    """In-process, the session store or the database out of reach comes as the driver's own
    error, not as a ServiceError: the turn was logged as a bug and dropped, holding a decision
    it had kept that nobody else would play (until BOT_RETRY_SECONDS)."""
    scheduler = ThreadBotScheduler(workers=1)
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), scheduler,
                      clock=clock)
    scheduler.bind(matches)
    client = Flaky(scheduler.client, STORE_GONE[store_gone], lost)
    scheduler.client = client
    try:
        match_id = new_match(matches, players=("alice",), bots=("heuristic",)).match_id
        while client.failed_at is None:  # alice plays until a kept decision's submit fails
            _wait_for_alice(matches, match_id)
            s = matches.session(match_id)
            assert s.status == "active", "no run of two bot decisions"
            default = matches.legal(match_id, 0, ALICE)[2]
            matches.submit(match_id, 0, s.version, rid(), default, ALICE)
        _wait_for_alice(matches, match_id)
        assert matches.session(match_id).version > client.failed_at
        _played_by_bot_once_each(matches, match_id)
    finally:
        scheduler.shutdown()


def test_shutdown_ends_a_playing_turn_with_its_decision_in_hand(store, clock, monkeypatch,
                                                                caplog):
    """A turn playing when the embedded server stops went on through its seat's whole run
    (up to KEEP_LIMIT decisions, half a second each for a search bot), shutdown waiting for
    it; the turn it then handed over could not be queued, logged as a broker out of reach."""
    caplog.set_level(logging.INFO)  # whatever an in-process worker left the root logger at
    started, go_on = threading.Event(), threading.Event()

    class Held:
        """The heuristic bot, held on its first choice until the shutdown has begun."""

        def __init__(self) -> None:
            self.bot = make_bot("montanas", "heuristic")

        def choose(self, view: Any, actions: Any, rng: Any) -> str:
            started.set()
            assert go_on.wait(10)
            return str(self.bot.choose(view, actions, rng))

    monkeypatch.setattr(turns, "make_bot", lambda game_id, name: Held())
    scheduler = ThreadBotScheduler(workers=1)
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), scheduler,
                      clock=clock)
    scheduler.bind(matches)
    s = new_match(matches, players=(), bots=("heuristic", "heuristic"))
    assert started.wait(10)
    stopping = threading.Thread(target=scheduler.shutdown)
    stopping.start()
    _wait(lambda: scheduler._pool._shutdown, 5.0)  # (the executor's own: shutdown began)
    go_on.set()
    stopping.join(10)
    assert not stopping.is_alive()
    assert matches.session(s.match_id).version == 1  # the decision in hand, no further
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def _bot_actions(matches: Matches, match_id: str) -> int:
    loaded = matches.ledger.load_match(match_id)
    assert loaded is not None
    return sum(e.request_id.startswith("bot:") for e in loaded[1])


def _played_by_bot_once_each(matches: Matches, match_id: str) -> None:
    """No bot decision applied twice: one log entry per request id."""
    loaded = matches.ledger.load_match(match_id)
    assert loaded is not None
    ids = [e.request_id for e in loaded[1] if e.kind != "setup"]
    assert len(set(ids)) == len(ids)


def _wait_for_alice(matches: Matches, match_id: str) -> None:
    """Until the decision is alice's (seat 0) or the match is over: nothing here expires
    decisions or queues a bot's turn again, so a seat left stalled waits for ever."""
    _wait(lambda: matches.session(match_id).status != "active"
          or matches.legal(match_id, 0, ALICE)[3] == (0,), 5.0)


def _wait(done: Callable[[], bool], seconds: float) -> None:
    until = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < until, "the bot's decision was not played"
        time.sleep(0.01)

