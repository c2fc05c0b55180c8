"""The match function: which waiting tickets play together. Pure and deterministic: the
same tickets, time and policy always give the same proposals, and nothing is read or written.

Rules:
- Tickets pool by (game, seats, campaign): a campaign's tickets only meet each other; within
  a pool a ticket for a scenario only meets tickets for
  the same scenario or for any scenario.
- Fairness: tickets anchor in age order, oldest first. Every ticket has a rating window
  ([rating - w, rating + w], w widening the longer it has waited). An anchor takes the
  oldest compatible tickets that are within its window and that have it within theirs: a
  ticket that has waited long, with a wide window, does not draw a player who has just
  arrived into a table the newcomer's own window would refuse; the two meet once the
  newcomer has waited long enough too. An anchor that cannot complete its table stays
  queued, still available to the tables of younger anchors, and the next oldest ticket
  anchors.
- Bots: an anchor with fill_with_bots that has waited bot_fill_after_seconds completes its
  table with bot seats, taking along only tickets that also accept bots.
- A player never holds two seats of one table, whatever tickets they have open.
- Seats follow ticket age (oldest first, bots last) rather than a shuffle, so a
  proposal, and hence its request id, depends only on its inputs; the rules service may
  still randomise sides or turn order itself.
- A campaign table seats each team on one side and no two teams on one side (the sides the
  game deals its seats, Policy.sides; a scenario won is a point for the team that played it):
  a ticket that cannot be seated so is left for another table, and the table's tickets are
  put in the seats of their team's side (teamless ones, and bots, fill the rest).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from partida.engine import dealt_sides
from partida.engine.types import GameInfo
from partida.matchmaking.index import PoolIndex
from partida.matchmaking.tickets import SEARCHING, Ticket


@dataclass(frozen=True)
class Table:
    """A scenario and the seat counts it can be played with."""

    scenario_id: str
    min_seats: int
    max_seats: int


def catalog_of(games: Iterable[GameInfo]) -> dict[str, tuple[Table, ...]]:
    """game id -> its scenarios' tables, in the game's own scenario order."""
    return {g.id: tuple(Table(s.id, s.min_seats, s.max_seats) for s in g.scenarios)
            for g in games}


@dataclass(frozen=True)
class Policy:
    """The knobs of the match function. The catalog is an input rather than a registry
    lookup so that the function stays pure and tests can use made-up games."""

    catalog: Mapping[str, tuple[Table, ...]]
    window_base: float = 100.0
    window_step: float = 50.0
    window_step_seconds: float = 5.0
    window_max: float = 1000.0
    bot_fill_after_seconds: float = 10.0
    bot: str = "heuristic"
    # (game, scenario, seats) -> the side dealt to each seat; () where the game is unknown
    # (then campaign teams are seated in age order).
    sides: Callable[[str, str, int], tuple[str, ...]] = dealt_sides

    def window(self, waited: float) -> float:
        """How far from a ticket's rating another at its table may be after it has waited
        `waited` seconds."""
        steps = max(0, int(waited // self.window_step_seconds))
        return min(self.window_max, self.window_base + self.window_step * steps)

    def scenario_for(self, game_id: str, scenario_id: str, seats: int) -> str | None:
        """The scenario a table of `seats` plays: the one asked for, or for "" (any) the
        game's first scenario that takes that many seats; None if there is no such table."""
        for table in self.catalog.get(game_id, ()):
            if scenario_id in ("", table.scenario_id) and \
                    table.min_seats <= seats <= table.max_seats:
                return table.scenario_id
        return None


@dataclass(frozen=True)
class Proposal:
    """A table to create: tickets (and players) in seat order, then bot seats."""

    game_id: str
    scenario_id: str
    ticket_ids: tuple[str, ...]
    player_ids: tuple[str, ...]
    bot_seats: int = 0
    bot: str = ""
    campaign_id: str = ""
    campaign_teams: tuple[str, ...] = ()  # each ticket's team, in seat order (bots: none)

    @property
    def seats(self) -> list[tuple[str | None, str | None]]:
        """(player, None) for each ticket, then (None, bot) for each bot seat."""
        humans: list[tuple[str | None, str | None]] = [(p, None) for p in self.player_ids]
        return humans + [(None, self.bot)] * self.bot_seats

    @property
    def teams(self) -> list[str]:
        """Each seat's campaign team, in seat order ("" for none, and for bot seats)."""
        return [*self.campaign_teams, *[""] * (self.bot_seats + len(self.player_ids)
                                               - len(self.campaign_teams))]

    def to_json(self) -> str:
        # by hand: dataclasses.asdict's deep copy was a tenth of a big tick
        return json.dumps({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})

    @classmethod
    def from_json(cls, text: str) -> Proposal:
        d = json.loads(text)
        return cls(**{**d, "ticket_ids": tuple(d["ticket_ids"]),
                      "player_ids": tuple(d["player_ids"]),
                      "campaign_teams": tuple(d.get("campaign_teams", ()))})

    @property
    def request_id(self) -> str:
        """Names the proposal, so that creating its match twice (a matcher retrying after a
        crash) gives the rules service the same idempotency key."""
        key = json.dumps([self.game_id, self.scenario_id, self.ticket_ids, self.bot_seats,
                          self.bot, *([self.campaign_id] if self.campaign_id else [])])
        return "mm-" + hashlib.sha256(key.encode()).hexdigest()[:32]


def form_matches(tickets: Iterable[Ticket], now: float, policy: Policy) -> list[Proposal]:
    """Proposals for as many tables as the rules allow now; no ticket is in two of them.
    Tickets that are not searching, or ask for a table their game does not have, are ignored."""
    pools: dict[tuple[str, int, str], list[Ticket]] = {}
    unique = {t.ticket_id: t for t in tickets}  # a ticket listed twice is still one ticket
    for t in sorted(unique.values(), key=lambda t: (t.created, t.ticket_id)):
        if t.status == SEARCHING and policy.scenario_for(t.game_id, t.scenario_id, t.seats):
            pools.setdefault((t.game_id, t.seats, t.campaign_id), []).append(t)
    return [p for key in sorted(pools) for p in _match_pool(pools[key], now, policy)]


def _match_pool(queue: Sequence[Ticket], now: float, policy: Policy) -> list[Proposal]:
    index = PoolIndex(queue)
    windows = [policy.window(now - t.created) for t in queue]
    reach = _Reach(queue, windows, sorted(set(windows), reverse=True))
    proposals = []
    for i, anchor in enumerate(queue):
        if index.taken(i):
            continue
        waited = now - anchor.created
        picked = _gather(index, queue, i, reach, policy, bots_only=False)
        bots = 0
        if len(picked) < anchor.seats:
            index.put_back(picked)
            if not anchor.fill_with_bots or waited < policy.bot_fill_after_seconds:
                continue
            picked = _gather(index, queue, i, reach, policy, bots_only=True)
            bots = anchor.seats - len(picked)
        proposals.append(_proposal([queue[j] for j in picked], bots, policy))
    return proposals


@dataclass(frozen=True)
class _Reach:
    """Finds an anchor's partners: tickets within its window whose own window holds it.

    The index finds the oldest ticket in a rating range; the second condition is not a range.
    So the range is asked at each distinct window among the pool's tickets, capped at the
    anchor's, widest first, and the first answer that is a partner is the oldest partner.
    Say the oldest is p, with window w: the query of radius min(w, the anchor's) finds p or
    an older ticket q, and q, older, has a window at least w, so it holds the anchor too: q
    is a partner, so p. A wider query, asked before, answers p or an older ticket, so any
    partner it found was p too. A pool's tickets have few distinct windows (the policy's
    steps), and an anchor whose oldest ticket in range qualifies needs one query."""

    queue: Sequence[Ticket]
    windows: Sequence[float]  # each ticket's, by queue position: older, wider (or as wide)
    levels: Sequence[float]  # the distinct windows, widest first

    def oldest(self, index: PoolIndex, anchor: int, scenario: str,
               bots_only: bool) -> int | None:
        rating, radius = self.queue[anchor].rating, self.windows[anchor]
        narrower = (w for w in self.levels if w < radius)
        while True:
            j = index.oldest(rating - radius, rating + radius, scenario, bots_only)
            if j is None:
                return None  # narrower ranges hold none either
            theirs = self.windows[j]  # |difference| within it, written as the range is
            if rating - theirs <= self.queue[j].rating <= rating + theirs:
                return j
            radius = next(narrower, -1.0)
            if radius < 0:
                return None


def _gather(index: PoolIndex, queue: Sequence[Ticket], i: int, reach: _Reach,
            policy: Policy, bots_only: bool) -> list[int]:
    """Takes the anchor queue[i] and the oldest compatible tickets within its reach, at most
    a table's worth; their positions in age order."""
    anchor = queue[i]
    scenario = anchor.scenario_id
    picked = [i]
    index.take(i)
    # A player may hold several open tickets, but never two seats of one table (they would
    # play themselves, and rate themselves). Another ticket of a seated player is set aside
    # while this table gathers, then put back for other tables; so is a campaign ticket
    # whose team could not be seated on a side of its own.
    players, skipped = {anchor.player_id}, []
    while len(picked) < anchor.seats:
        j = reach.oldest(index, i, scenario, bots_only)
        if j is None:
            break
        index.take(j)
        fixed = scenario or queue[j].scenario_id  # the first specific ticket fixes it
        if queue[j].player_id in players or (anchor.campaign_id and _seating(
                [queue[k].campaign_team for k in (*picked, j)],
                _sides_open(policy, anchor, fixed, bots_only, len(picked) + 1)) is None):
            skipped.append(j)
            continue
        picked.append(j)
        players.add(queue[j].player_id)
        scenario = fixed
    index.put_back(skipped)
    return sorted(picked)


def _sides_open(policy: Policy, anchor: Ticket, scenario: str, bots_only: bool,
                players: int) -> tuple[str, ...]:
    """The sides of the seats `players` tickets may take: every seat's, or with bots to
    come (they sit last) the first `players` seats'."""
    table = policy.scenario_for(anchor.game_id, scenario, anchor.seats)
    dealt = policy.sides(anchor.game_id, table, anchor.seats) if table else ()
    return dealt[:players] if bots_only else dealt


def _seating(teams: Sequence[str], sides: Sequence[str]) -> list[int] | None:
    """A seat for each of `teams` (a ticket's campaign team, "" for none), among seats dealt
    `sides`, such that each team sits on one side and no side holds two teams; None if there
    is none. The first such assignment of teams to sides, in the order the teams and sides
    first appear, so the same tickets are always seated alike. No sides: in order."""
    if not sides:
        return list(range(len(teams)))
    named = list(dict.fromkeys(t for t in teams if t))
    seats_of = {s: [k for k, x in enumerate(sides) if x == s] for s in dict.fromkeys(sides)}
    for chosen in itertools.permutations(seats_of, len(named)):
        free = {side: list(seats) for side, seats in seats_of.items()}
        side_of = dict(zip(named, chosen, strict=True))
        if any(teams.count(t) > len(free[side_of[t]]) for t in named):
            continue
        taken = [free[side_of[t]].pop(0) if t else -1 for t in teams]
        rest = iter(sorted(k for seats in free.values() for k in seats))  # for teamless ones
        return [k if k >= 0 else next(rest) for k in taken]
    return None


def _proposal(tickets: Sequence[Ticket], bots: int, policy: Policy) -> Proposal:
    first = tickets[0]
    specific = next((t.scenario_id for t in tickets if t.scenario_id), "")
    scenario = policy.scenario_for(first.game_id, specific, first.seats)
    assert scenario is not None  # every pooled ticket passed scenario_for
    if first.campaign_id:  # each ticket in a seat of its team's side (see _seating)
        seats = _seating([t.campaign_team for t in tickets],
                         policy.sides(first.game_id, scenario, first.seats)[:len(tickets)])
        assert seats is not None  # _gather took only tickets that can be seated so
        tickets = [t for _, t in sorted(zip(seats, tickets, strict=True),
                                        key=lambda pair: pair[0])]
    return Proposal(first.game_id, scenario, tuple(t.ticket_id for t in tickets),
                    tuple(t.player_id for t in tickets), bots, policy.bot if bots else "",
                    first.campaign_id,
                    tuple(t.campaign_team for t in tickets) if first.campaign_id else ())
