"""Bots on local threads for the embedded server, acting through the in-process rules logic
with a service principal."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc

from partida.ai.turns import RETRIES, TRANSIENT, Progress, SeatSnapshot, retry_delay, run_turn
from partida.engine import Action
from partida.platform.auth import SERVICE, Principal
from partida.platform.calls import failure_status
from partida.platform.errors import ServiceError
from partida.platform.outages import out_of_reach

log = logging.getLogger("partida.bots")
BOT_PRINCIPAL = Principal(SERVICE, "bots")


class LocalRulesClient:
    """The rules logic called directly, as a bot service would over gRPC. Once `closing` is
    set (the server shutting down), a turn plays no further than the decision in hand."""

    def __init__(self, matches: Any, closing: threading.Event | None = None) -> None:
        self.matches = matches
        self.closing = closing if closing is not None else threading.Event()

    def snapshot(self, match_id: str, seat: int) -> SeatSnapshot:
        look = self.matches.view(match_id, seat, BOT_PRINCIPAL, with_actions=True)
        return SeatSnapshot(look.session.version, look.to_act, look.view, look.actions)

    def bot_state(self, match_id: str, seat: int) -> tuple[int, dict[str, Any]]:
        return self.matches.bot_state(match_id, seat)

    def submit(self, match_id: str, seat: int, version: int, request_id: str,
               action_id: str, keep_turn: bool = False) -> SeatSnapshot | None:
        # Closing, a turn does not keep its seat's next decision: shutdown would wait for it
        # to play the whole run (up to KEEP_LIMIT decisions, half a second each for a search
        # bot). The decision is left to the rules service, as a turn not queued.
        keep_turn = keep_turn and not self.closing.is_set()
        result = self.matches.submit(match_id, seat, version, request_id, action_id,
                                     BOT_PRINCIPAL, keep_turn)
        if result.next_view is None:  # not kept, not the seat's, or a repeat's answer
            return None
        return SeatSnapshot(result.version, result.to_act, result.next_view,
                            [Action(i, d) for i, d in result.next_actions])


class ThreadBotScheduler:
    """Runs bot turns on a small thread pool; errors are logged, never raised to the caller.
    A turn that fails for want of a service is retried from where it got to, shortly after
    (as the Celery task is); one failing otherwise is retried by the decision timer."""

    def __init__(self, workers: int = 4) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
        self._closing = threading.Event()
        self.client: LocalRulesClient | None = None

    def bind(self, matches: Any) -> None:
        self.client = LocalRulesClient(matches, self._closing)

    def schedule(self, match_id: str, seat: int, version: int, game_id: str,
                 bot: str, seen: SeatSnapshot | None = None) -> None:
        # Shut down: the turn goes, as the turns queued then do. Raised, the rules service
        # would log it as a broker out of reach, "asked again after 10 s", which it will not
        # be in a process that is stopping; the deadline index asks it once the server is
        # back.
        with contextlib.suppress(RuntimeError):
            self._pool.submit(self._run, match_id, seat, game_id, bot, time.time(),
                              Progress(version, seen), 0)

    def _run(self, match_id: str, seat: int, game_id: str, bot: str, queued_at: float,
             at: Progress, retries: int) -> None:
        assert self.client is not None
        version = at.version
        try:
            run_turn(self.client, match_id, seat, version, game_id, bot, queued_at, at=at)
        except (ServiceError, grpc.RpcError) as e:  # a refusal, or a service unreachable
            code, message = failure_status(e)
        except Exception as e:
            # In-process, a store out of reach comes as the driver's own error (the gRPC
            # server answers it UNAVAILABLE: calls.unexpected_status); anything else is a
            # bug, which must not kill the pool.
            gone = out_of_reach(e)
            if gone is None:
                log.exception("bot turn %s seat %s v%s failed", match_id, seat, version)
                return
            code, message = grpc.StatusCode.UNAVAILABLE, f"{gone} is out of reach"
        else:
            return
        log.info("bot turn %s seat %s v%s: %s", match_id, seat, version, message)
        if code in TRANSIENT and retries < RETRIES:
            retry = threading.Timer(retry_delay(retries), self._again,
                                    (match_id, seat, game_id, bot, 0.0, at, retries + 1))
            retry.daemon = True
            retry.start()

    def _again(self, *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # shut down meanwhile: the turn goes too
            self._pool.submit(self._run, *args)

    def shutdown(self) -> None:
        """Turns not started go; those playing end with the decision in hand."""
        self._closing.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
