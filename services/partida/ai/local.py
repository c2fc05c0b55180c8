"""Bots on local threads for the embedded server, acting through the in-process rules logic
with a service principal."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from partida.ai.turns import SeatSnapshot, run_turn
from partida.engine import Action
from partida.platform.auth import SERVICE, Principal
from partida.platform.errors import ServiceError

log = logging.getLogger("partida.bots")
BOT_PRINCIPAL = Principal(SERVICE, "bots")


class LocalRulesClient:
    """The rules logic called directly, as a bot service would over gRPC."""

    def __init__(self, matches: Any) -> None:
        self.matches = matches

    def snapshot(self, match_id: str, seat: int) -> SeatSnapshot:
        look = self.matches.view(match_id, seat, BOT_PRINCIPAL, with_actions=True)
        return SeatSnapshot(look.session.version, look.to_act, look.view, look.actions)

    def bot_state(self, match_id: str, seat: int) -> tuple[int, dict[str, Any]]:
        return self.matches.bot_state(match_id, seat)

    def submit(self, match_id: str, seat: int, version: int, request_id: str,
               action_id: str, keep_turn: bool = False) -> SeatSnapshot | None:
        result = self.matches.submit(match_id, seat, version, request_id, action_id,
                                     BOT_PRINCIPAL, keep_turn)
        if result.next_view is None:  # not kept, not the seat's, or a repeat's answer
            return None
        return SeatSnapshot(result.version, result.to_act, result.next_view,
                            [Action(i, d) for i, d in result.next_actions])


class ThreadBotScheduler:
    """Runs bot turns on a small thread pool; errors are logged, never raised to the caller
    (a failed turn is retried by the decision timer or the next schedule)."""

    def __init__(self, workers: int = 4) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
        self.client: LocalRulesClient | None = None

    def bind(self, matches: Any) -> None:
        self.client = LocalRulesClient(matches)

    def schedule(self, match_id: str, seat: int, version: int, game_id: str,
                 bot: str, seen: SeatSnapshot | None = None) -> None:
        self._pool.submit(self._run, match_id, seat, version, game_id, bot, time.time(), seen)

    def _run(self, match_id: str, seat: int, version: int, game_id: str, bot: str,
             queued_at: float, seen: SeatSnapshot | None) -> None:
        assert self.client is not None
        try:
            run_turn(self.client, match_id, seat, version, game_id, bot, queued_at, seen)
        except ServiceError as e:
            log.info("bot turn %s seat %s v%s: %s", match_id, seat, version, e.message)
        except Exception:  # a bug in a bot must not kill the pool
            log.exception("bot turn %s seat %s v%s failed", match_id, seat, version)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
