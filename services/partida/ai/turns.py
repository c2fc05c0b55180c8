"""Playing one bot turn as a client: read the seat's view, choose, submit.

The same function runs in local bot threads and in Celery workers; only the client differs.
A turn is idempotent: its request id is derived from (match, version, seat), so a duplicate
task returns the first result, and a stale one (the match moved on) does nothing.

A turn plays on while the decisions keep falling to its seat (up to KEEP_LIMIT of them): it
submits with keep_turn, and the rules service answers with the seat's next view instead of
queueing another turn. In Las Montañas four bot decisions in five follow one of the same
seat, so most decisions skip the queue.

So a turn holds a decision nobody else will play (only the rules service's BOT_RETRY_SECONDS
timer would): a turn that fails is retried from where it got to (`Progress`), promptly, not
from its first decision, whose repeat would end it.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import grpc

from partida.ai.bots import SEARCH_BOT, make_bot
from partida.engine import Action, LocalRng, get
from partida.engine.bots import RandomBot
from partida.platform import metrics
from partida.platform.calls import match_id_var, seat_var

log = logging.getLogger("partida.bots")


@dataclass
class SeatSnapshot:
    version: int
    to_act: Sequence[int]
    view: Mapping[str, Any]
    actions: Sequence[Action]

    def to_plain(self) -> dict[str, Any]:
        """JSON-ready, to travel in a queued turn's message."""
        return {"version": self.version, "to_act": list(self.to_act), "view": self.view,
                "actions": [[a.id, a.description] for a in self.actions]}

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> SeatSnapshot:
        return cls(int(data["version"]), list(data["to_act"]), data["view"],
                   [Action(i, d) for i, d in data["actions"]])


# Decisions one turn plays in a row at most; the next is queued as a turn of its own, so a
# seat with a long run of decisions does not hold a worker thread throughout.
KEEP_LIMIT = 25

# Failures worth retrying a turn for: the rules service (or one it calls) did not answer.
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                       grpc.StatusCode.RESOURCE_EXHAUSTED})
RETRIES = 8


def retry_delay(retries: int) -> float:
    """Seconds before a failed turn's retry (`retries` made so far): 0.1-0.2 s, doubling up
    to 2.5-5 s. Its match waits on it, and most failures are a blip; Celery's retry_backoff
    counts whole seconds (0.2 is taken as 1), hence a countdown of our own."""
    backoff = min(5.0, 0.2 * 2 ** retries)
    return backoff / 2 + random.uniform(0, backoff / 2)


@dataclass
class Progress:
    """Where a turn has got to, for its retry to go on from: the decision it holds (its
    version, and what the seat saw then), the decisions it has submitted (KEEP_LIMIT counts
    across retries) and `sent`, the action submitted for the held one whose answer has not
    come (the submit may have been applied: a retry sends it again, under the same request
    id, and learns which)."""

    version: int
    seen: SeatSnapshot | None = None
    played: int = 0
    sent: str = ""


class RulesClient(Protocol):
    """What a bot needs from the rules service (in-process or over gRPC)."""

    def snapshot(self, match_id: str, seat: int) -> SeatSnapshot: ...

    def bot_state(self, match_id: str, seat: int) -> tuple[int, dict[str, Any]]: ...

    def submit(self, match_id: str, seat: int, version: int, request_id: str,
               action_id: str, keep_turn: bool = False) -> SeatSnapshot | None:
        """With keep_turn, the seat's next decision when it falls to the seat at once; else
        None, and None too when the answer is a repeated request's (it carries the first
        result only): a redelivered turn never plays on."""


def request_id(match_id: str, version: int, seat: int) -> str:
    return f"bot:{version}:{seat}:{match_id}"[:128]


def play_turn(client: RulesClient, match_id: str, seat: int, version: int, game_id: str,
              bot_name: str, seed: int | None = None, seen: SeatSnapshot | None = None,
              at: Progress | None = None) -> str:
    """Play the seat's decision at `version`; returns what happened, for logs and metrics.

    The task carries the game and the bot, and usually what the seat saw when its turn was
    queued (`seen`), so a turn costs a submit alone (else a read first). If the match moved
    on or the seat was given back to its player meanwhile, the rules service refuses the
    submit. `at`: where a retried turn goes on from; kept up to date as the turn plays, for
    the caller to retry from should the turn fail."""
    at = at if at is not None else Progress(version, seen)
    if not at.sent:  # (else the held decision is settled by sending it again, below)
        snap = at.seen if at.seen is not None else client.snapshot(match_id, seat)
        if snap.version != at.version:
            return "stale"
        if seat not in snap.to_act:
            return "not-to-act"
        at.seen = snap
    rng = LocalRng(seed if seed is not None else time.time_ns())
    bot = make_bot(game_id, bot_name)
    game = get(game_id)
    while at.played < KEEP_LIMIT:
        resent = bool(at.sent)
        if not resent:
            assert at.seen is not None
            state = None
            if bot_name == SEARCH_BOT:
                state_version, state = client.bot_state(match_id, seat)
                if state_version != at.version:
                    return "stale"
            at.sent = _choose(bot, bot_name, game, seat, at.seen, state, rng)
        keep = at.played + 1 < KEEP_LIMIT
        following = client.submit(match_id, seat, at.version,
                                   request_id(match_id, at.version, seat), at.sent,
                                   keep_turn=keep)
        if following is None and resent and keep:
            following = _kept_by_lost_answer(client, match_id, seat, at.version)
        at.played, at.sent = at.played + 1, ""
        if following is None:
            break
        at.version, at.seen = following.version, following
    return "played"


def _choose(bot: Any, bot_name: str, game: Any, seat: int, seen: SeatSnapshot,
            state: dict[str, Any] | None, rng: LocalRng) -> str:
    """The bot's choice (from `state` for a search bot, else from what the seat saw), if it is
    one of the seat's legal actions; else a legal one at random. A bot that fails or chooses
    otherwise is a bug, but its choice sent would be refused (FAILED_PRECONDITION, which
    ends a task as stale) and the same bot asked again every BOT_RETRY_SECONDS, failing
    alike: the match stalled, for ever without a decision timeout. (Bots choose among the
    actions listed, as `engine.bots.Bot` says.)"""
    actions = seen.actions
    try:
        chosen = (bot.choose_from_state(game, game.state_from_dict(state), seat, rng)
                  if state is not None else bot.choose(seen.view, actions, rng))
    except Exception:
        log.exception("bot %s failed; a random legal action is played instead", bot_name)
    else:
        if any(a.id == chosen for a in actions):
            return chosen
        log.warning("bot %s chose %.100r, not a legal action; a random legal action is "
                    "played instead", bot_name, chosen)
    return RandomBot().choose({}, actions, rng)


def _kept_by_lost_answer(client: RulesClient, match_id: str, seat: int, version: int
                         ) -> SeatSnapshot | None:
    """A submit sent again was answered without a view: a repeat's answer, when the first
    was applied. If that first, lost, answer kept the seat's next decision for this turn
    (the match is just past `version`, with the seat to act), nobody else will play it: the
    turn goes on with it."""
    snap = client.snapshot(match_id, seat)
    return snap if snap.version == version + 1 and seat in snap.to_act else None


def run_turn(client: RulesClient, match_id: str, seat: int, version: int, game_id: str,
             bot_name: str, queued_at: float = 0.0, seen: SeatSnapshot | None = None,
             at: Progress | None = None) -> str:
    """`play_turn` as a worker runs it: the time it waited since being queued at `queued_at`
    (wall clock, 0: unknown) and the turn's own time are measured, and logs name the match
    and seat."""
    if queued_at:
        metrics.BOT_QUEUE_WAIT.labels(game_id).observe(max(0.0, time.time() - queued_at))
    tokens = match_id_var.set(match_id), seat_var.set(seat)
    started = time.perf_counter()
    try:
        return play_turn(client, match_id, seat, version, game_id, bot_name, seen=seen, at=at)
    finally:
        metrics.BOT_TURN_DURATION.labels(game_id).observe(time.perf_counter() - started)
        seat_var.reset(tokens[1])
        match_id_var.reset(tokens[0])
