"""A bot turn played by a real Celery worker, from the rules service's queue on a real Redis
broker, through gRPC, when its bot fails: the seat's decision is still played."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from celery.contrib.testing.worker import start_worker

from partida.ai import tasks, turns
from partida.ai.celery import BOT_QUEUE, app
from partida.ai.grpc_client import GrpcRulesClient
from partida.ai.tasks import CeleryBotScheduler
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform import metrics
from partida.platform.auth import Authority
from partida.platform.server import Registration, Server
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.service import RulesServicer
from partida.rules.session import MemorySessionStore
from partida.v1 import rules_pb2_grpc
from tests.support.serving import channel_to
from tests.unit.rules.conftest import ALICE, Clock, Dice, new_match, rid


@pytest.fixture
def broker(redis_url, monkeypatch):
    url = redis_url.rsplit("/", 1)[0] + "/7"
    redis.Redis.from_url(url).flushdb()
    monkeypatch.setattr(app.conf, "broker_url", url)
    monkeypatch.setattr(metrics, "serve", lambda *_: None)  # the worker's exporter: none here
    return url


@contextlib.contextmanager
def worker_against(matches: Matches, monkeypatch: Any) -> Iterator[None]:
    """A Celery worker in this process, on the bots queue, calling the rules service over
    `matches` through a real gRPC server."""
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.RulesService", RulesServicer(matches),
                       rules_pb2_grpc.add_RulesServiceServicer_to_server)
    with channel_to(Server([reg], auth, "127.0.0.1:0")) as channel:
        client = GrpcRulesClient(channel, auth.service_token("bots"))
        monkeypatch.setattr(tasks, "_client", lambda: client)
        root = logging.getLogger()
        handlers, level = root.handlers[:], root.level
        try:
            with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                              queues=[BOT_QUEUE], shutdown_timeout=10):
                yield
        finally:  # the worker set the process's logging up as its own (ai.celery): undone
            root.handlers[:], root.level = handlers, level


class Illegal:
    """A bot bug: it chooses an action that is none of those listed."""

    def choose(self, view: Any, actions: Any, rng: Any) -> str:
        return "deploy:99"


def test_a_worker_plays_a_legal_action_for_a_bot_choosing_an_illegal_one(
        broker, tmp_path, monkeypatch):
    """The refusal (FAILED_PRECONDITION) ended the task as stale, a success: no error
    anywhere, the rules service queueing the same turn every BOT_RETRY_SECONDS, the match
    stalled for good without a decision timeout."""
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    store = PersistenceStore(engine)
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store),
                      CeleryBotScheduler(), clock=Clock())
    monkeypatch.setattr(turns, "make_bot", lambda game_id, name: Illegal())
    match_id = new_match(matches, players=("alice",), bots=("heuristic",)).match_id
    with worker_against(matches, monkeypatch):
        bot_played = 0
        while not bot_played:  # alice plays until a decision is the bot's, then waits
            s = matches.session(match_id)
            assert s.status == "active"
            matches.submit(match_id, 0, s.version, rid(), matches.legal(match_id, 0, ALICE)[2],
                           ALICE)
            until = time.monotonic() + 10
            while matches.legal(match_id, 0, ALICE)[3] != (0,):
                assert time.monotonic() < until, "the bot's decision was not played"
                time.sleep(0.05)
            loaded = matches.ledger.load_match(match_id)
            assert loaded is not None
            bot_played = sum(e.request_id.startswith("bot:") for e in loaded[1])
