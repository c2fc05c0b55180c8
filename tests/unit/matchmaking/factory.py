"""Made-up games and tickets for matchmaking tests (the match function takes its catalog
as input, so these need not be registered engines)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import grpc

from partida.matchmaking.matcher import each_alone
from partida.matchmaking.pools import Policy, Proposal, Table
from partida.matchmaking.tickets import SEARCHING, Ticket

CATALOG = {
    "chess": (Table("classic", 2, 2),),
    "quest": (Table("forest", 2, 4), Table("cave", 3, 5)),
}
POLICY = Policy(CATALOG, bot_fill_after_seconds=10.0, bot="heuristic")


def ticket(tid: str, *, created: float = 0.0, rating: float = 1500.0, game: str = "quest",
           scenario: str = "forest", seats: int = 2, bots: bool = False,
           player: str | None = None, ttl: float = 300.0, status: str = SEARCHING) -> Ticket:
    return Ticket(tid, player or f"p-{tid}", game, scenario, seats, bots, rating, created,
                  created + ttl, status)


class CallFailed(grpc.RpcError):
    """A failed gRPC call as its client sees it; by default one whose reply never came (it
    timed out), the server perhaps having done the work."""

    def __init__(self, code: grpc.StatusCode = grpc.StatusCode.DEADLINE_EXCEEDED,
                 details: str = "Deadline Exceeded") -> None:
        super().__init__(details)
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


class RecordingCreator:
    """A MatchCreator that keeps every match it made and, like the rules service, returns
    the same match for a repeated request id. `fail` makes the next calls raise; `lose`
    makes the next create_matches calls make their matches, then raise CallFailed."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.matches: dict[str, tuple[str, str, str, list[tuple[str | None, str | None]]]] = {}
        self.fail = 0  # how many of the next calls fail
        self.lose = 0  # how many of the next create_matches calls lose their reply

    def create_match(self, game_id: str, scenario_id: str,
                     seats: list[tuple[str | None, str | None]], request_id: str) -> str:
        with self.lock:
            if self.fail:
                self.fail -= 1
                raise RuntimeError("rules service unavailable")
            if request_id not in self.matches:
                match_id = f"match-{len(self.matches)}"
                self.matches[request_id] = (match_id, game_id, scenario_id, list(seats))
            return self.matches[request_id][0]

    def create_matches(self, proposals: Sequence[Proposal]) -> list[str | Exception]:
        made = each_alone(lambda p: self.create_match(p.game_id, p.scenario_id, p.seats,
                                                      p.request_id), proposals)
        with self.lock:
            if self.lose:
                self.lose -= 1
                raise CallFailed()
        return made

    def by_match(self) -> dict[str, tuple[str, str, list[tuple[str | None, str | None]]]]:
        with self.lock:
            return {m: (g, s, seats) for m, g, s, seats in self.matches.values()}
