"""A bot turn that fails while it holds a decision is retried from that decision, at once.

A turn plays on with keep_turn: the rules service queues no turn for a decision the turn
took on itself. A failure there (a transient error before the submit reached the service,
or after it was applied and the answer was lost) must not leave that decision to the
rules service's BOT_RETRY_SECONDS timer; nor may the retry play a decision twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from partida.ai import tasks, turns
from partida.ai.local import LocalRulesClient, ThreadBotScheduler
from partida.platform import jsonio
from partida.platform.errors import Unavailable
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore
from tests.unit.rules.conftest import ALICE, BOTS, Dice, new_match, rid
from tests.unit.rules.test_bot_turns import KeepingScheduler


class RpcFailure(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode) -> None:
        super().__init__(code.name)
        self._code = code

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._code.name


class Flaky:
    """A rules client whose first submit of a decision the answer before kept for the turn
    fails with `error()`: before it reaches the rules service, or, with `lost`, after the
    service applied it (its answer is lost)."""

    def __init__(self, inner: Any, error: Callable[[], Exception], lost: bool) -> None:
        self.inner, self.error, self.lost = inner, error, lost
        self.failed_at: int | None = None  # the version of the decision whose submit failed
        self._holding = False

    def snapshot(self, match_id: str, seat: int) -> Any:
        return self.inner.snapshot(match_id, seat)

    def bot_state(self, match_id: str, seat: int) -> Any:
        return self.inner.bot_state(match_id, seat)

    def submit(self, match_id: str, seat: int, version: int, request_id: str,
               action_id: str, keep_turn: bool = False) -> Any:
        if self._holding and self.failed_at is None:
            self.failed_at = version
            if self.lost:
                self.inner.submit(match_id, seat, version, request_id, action_id, keep_turn)
            raise self.error()
        following = self.inner.submit(match_id, seat, version, request_id, action_id,
                                      keep_turn)
        self._holding = following is not None
        return following


def _bot_decisions_unheld(matches: Matches, queued: set[tuple[int, int]],
                          match_id: str) -> list[tuple[int, int]]:
    """The live decisions of bot seats that no turn was queued for: (seat, version)."""
    s = matches.session(match_id)
    if s.status != "active":
        return []
    to_act = matches.legal(match_id, 0, BOTS)[3]
    return [(seat, s.version) for seat in to_act
            if s.seats[seat].controller == "bot" and (seat, s.version) not in queued]


def _played_once_each(matches: Matches, match_id: str) -> None:
    """Every action in the log is its version's own bot request: none applied twice."""
    loaded = matches.ledger.load_match(match_id)
    assert loaded is not None
    entries = [e for e in loaded[1] if e.kind != "setup"]
    assert [e.sequence for e in entries] == list(range(1, len(entries) + 1))
    assert all(e.request_id == turns.request_id(match_id, e.sequence - 1, e.seat)
               for e in entries)


@pytest.mark.parametrize("lost", [False, True], ids=["not-sent", "answer-lost"])
@pytest.mark.parametrize("bot", ["heuristic", "ismcts"])
def test_a_celery_turn_failing_on_a_kept_decision_retries_from_it(store, clock, monkeypatch,
                                                                  lost, bot):
    bots = KeepingScheduler()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)
    s = new_match(matches, players=(), bots=(bot, bot))
    code = grpc.StatusCode.DEADLINE_EXCEEDED if lost else grpc.StatusCode.UNAVAILABLE
    client = Flaky(LocalRulesClient(matches), lambda: RpcFailure(code), lost)
    monkeypatch.setattr(tasks, "_client", lambda: client)
    while client.failed_at is None:  # play the queued turns until one fails on a kept one
        assert matches.session(s.match_id).status == "active", "no run of two decisions"
        match_id, seat, version, game_id, name, seen = bots.queued.pop()
        assert bots.queued == []
        # apply() runs the task here, and its retries at once (no countdown).
        tasks.play_turn_task.apply(args=(match_id, seat, version, game_id, name, 0.0),
                                   kwargs={"seen": jsonio.dumps(seen.to_plain())}).get()
    now = matches.session(s.match_id)
    assert now.version > client.failed_at  # the held decision was played
    assert _bot_decisions_unheld(matches, {(q[1], q[2]) for q in bots.queued},
                                 s.match_id) == []
    _played_once_each(matches, s.match_id)


def test_a_celery_retry_waits_well_under_a_second_at_first(store, clock, monkeypatch):
    """Celery's retry_backoff counts whole seconds (0.2 becomes 1, and jitter 0 or 1 s):
    the retry's countdown is the task's own."""
    bots = KeepingScheduler()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), bots, clock=clock)
    new_match(matches, players=(), bots=("heuristic", "heuristic"))
    client = Flaky(LocalRulesClient(matches),
                   lambda: RpcFailure(grpc.StatusCode.UNAVAILABLE), False)
    client._holding = True  # fail the first submit
    monkeypatch.setattr(tasks, "_client", lambda: client)
    retries: list[Any] = []
    monkeypatch.setattr(tasks.play_turn_task, "retry",
                        lambda **kw: retries.append(kw) or RuntimeError("retried"))
    match_id, seat, version, game_id, name, seen = bots.queued.pop()
    with pytest.raises(RuntimeError, match="retried"):
        tasks.play_turn_task.run(match_id, seat, version, game_id, name, 0.0,
                                 jsonio.dumps(seen.to_plain()))
    assert len(retries) == 1 and 0 < retries[0]["countdown"] < 0.5
    assert retries[0]["args"][2] == version


@pytest.mark.parametrize("lost", [False, True], ids=["not-sent", "answer-lost"])
def test_a_local_turn_failing_on_a_kept_decision_is_retried_at_once(store, clock, lost):
    scheduler = ThreadBotScheduler(workers=1)
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store), scheduler,
                      clock=clock)
    scheduler.bind(matches)
    client = Flaky(scheduler.client, lambda: Unavailable("persistence unreachable"), lost)
    scheduler.client = client
    try:
        match_id = new_match(matches, players=("alice",), bots=("heuristic",)).match_id
        while True:
            # Nothing expires decisions here: a bot's decision left to the retry timer
            # would wait for ever.
            _wait(lambda: matches.session(match_id).status != "active"
                  or matches.legal(match_id, 0, ALICE)[3] == (0,), 5.0)
            s = matches.session(match_id)
            if s.status != "active" or client.failed_at is not None:
                break
            default = matches.legal(match_id, 0, ALICE)[2]
            matches.submit(match_id, 0, s.version, rid(), default, ALICE)
        assert client.failed_at is not None, "no run of two bot decisions"
        assert matches.session(match_id).version > client.failed_at
    finally:
        scheduler.shutdown()


def _wait(done: Callable[[], bool], seconds: float) -> None:
    until = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < until, "the bot's decision was not played"
        time.sleep(0.01)
