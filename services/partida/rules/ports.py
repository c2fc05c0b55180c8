"""What the rules service needs from the other services, as small interfaces.

Each has an in-process implementation (the embedded server) and a gRPC client (replicas).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from partida.ai.turns import SeatSnapshot
from partida.rules.session import SeatMeta, Session


@dataclass
class LogEntry:
    """One record of a match's log as the rules service writes and replays it."""

    sequence: int
    kind: str               # "setup", "action", "timeout" or "resign"
    seat: int
    action_id: str
    request_id: str
    positions: list[int]
    values: list[int]
    events: list[dict[str, Any]]  # unredacted, with seq and version
    created_at: float = 0.0
    hash: bytes = b""
    prev_hash: bytes = b""


@dataclass
class MatchPage:
    matches: list[Session] = field(default_factory=list)
    next_page_token: str = ""


class Dice(Protocol):
    def create_stream(self, match_id: str, draw: int = 0
                      ) -> tuple[bytes, tuple[int, Sequence[int]]]: ...

    def draw(self, match_id: str, count: int) -> tuple[int, Sequence[int]]: ...

    def reveal(self, match_id: str) -> bytes: ...


class Ledger(Protocol):
    def record_match(self, session: Session, setup: list[LogEntry]) -> bool:
        """Durably records a new match with its log's first entries (in one go); recording
        it again changes nothing. Returns whether this call wrote the entries: False when the
        log already held an earlier call's (which stand), or when the persistence service
        predates set-ups; the caller's append of them then tells which."""

    def check_campaign(self, session: Session) -> None:
        """Refuses (NotFound, FailedPrecondition) a match that could not count for its
        campaign, before anything of it is created; record_match checks again."""

    def append_log(self, match_id: str, entries: list[LogEntry], controller: str = "") -> None:
        """Durably append; raises platform.errors.AlreadyExists if a sequence is taken, and
        Aborted if the entries' seat is no longer played by `controller` ("human" or "bot",
        who made their actions; "" unchecked)."""

    def finish_match(self, match_id: str, outcome: dict[str, Any], seed: bytes,
                     final_sides: Sequence[str] = ()) -> None:
        """Records the end; `final_sides`: each seat's side at the end, if any changed."""

    def update_seat(self, match_id: str, index: int, seat: SeatMeta) -> None: ...

    def load_match(self, match_id: str) -> tuple[Session, list[LogEntry]] | None:
        """The match as created (version 0, no state) and its whole log, or None."""

    def load_entries(self, match_id: str, after_version: int, up_to_version: int | None
                     ) -> list[LogEntry]:
        """The log's entries with a sequence above `after_version` (-1: from the set-up) and
        at most `up_to_version` (None: to the end), in order; none for a match unknown."""

    def find_entry(self, match_id: str, request_id: str) -> LogEntry | None: ...

    def unfinished_matches(self, after_match_id: str, limit: int) -> list[str]:
        """Up to `limit` ids of matches not finished, in id order, after `after_match_id`."""

    def player_matches(self, player_id: str, page_size: int, page_token: str) -> MatchPage: ...


class BotScheduler(Protocol):
    """Queues a bot seat's turn; `seen` is what the seat sees then (its view and actions),
    so that the bot need not read it back."""

    def schedule(self, match_id: str, seat: int, version: int, game_id: str,
                 bot: str, seen: SeatSnapshot | None = None) -> None: ...
