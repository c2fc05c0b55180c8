"""The hate flaw's forced charge (Flaws: Hate): a nose within three cells of a nose it hates,
with a line of sight to it, must head for it by the cheapest path and strike it in close combat
while its points last; points shared by its leader serve only the blows.

Pure: `restrict` narrows a nose's listed actions; `bound` says whether it is in hate's grip.
"""

from __future__ import annotations

import heapq
from dataclasses import replace

from partida.engine import Action
from partida.games.batallitas.content import Pos
from partida.games.batallitas.geometry import (
    FACINGS,
    distance,
    front_cells,
    line_of_sight,
    quarter_turns,
)
from partida.games.batallitas.grid import Field
from partida.games.batallitas.movement import can_step, step_cost, turn_cost
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose
from partida.games.batallitas.turn import own_left

REACH = 3  # cells (RULES.md decision: the trigger's 3 also for choosing among several)


def hated(state: BatallitasState, f: Field, n: Nose) -> list[Nose]:
    """Hated enemies in play within three cells and in sight (regardless of facing)."""
    if "hate" not in n.flaws or n.hates is None or n.cell is None:
        return []
    return [e for e in state.in_play() if e.cell is not None
            and state.squads[e.squad].family == n.hates and state.side_of(e) != state.side_of(n)
            and distance(n.cell, e.cell) <= REACH
            and line_of_sight(f, n.cell, e.cell)]


def first_moves(f: Field, n: Nose, targets: list[Pos]) -> tuple[int, dict[str, int]] | None:
    """The cheapest cost to stand facing a target in a front cell a blow reaches, and the
    first action (`move:` or `turn:`) of every cheapest path with its cost; None when no path
    exists."""
    assert n.cell is not None
    g = replace(f, noses=f.noses - {n.cell})
    command = "command" in n.knacks
    start = (n.cell, n.facing)
    best: dict[tuple[Pos, str], int] = {start: 0}
    firsts: dict[tuple[Pos, str], set[tuple[str, int]]] = {start: set()}
    heap: list[tuple[int, Pos, str]] = [(0, n.cell, n.facing)]
    goal: int | None = None
    ends: set[tuple[str, int]] = set()
    while heap:
        cost, cell, facing = heapq.heappop(heap)
        if cost > best.get((cell, facing), 1 << 30) or (goal is not None and cost > goal):
            continue
        if any(t in front_cells(cell, facing) and line_of_sight(g, cell, t) for t in targets):
            goal = cost
            ends |= firsts[(cell, facing)]
            continue
        nexts: list[tuple[Pos, str, int, str]] = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                p = (cell[0] + dx, cell[1] + dy)
                if p != cell and can_step(g, cell, p):
                    nexts.append((p, facing, step_cost(g, cell, facing, p, command=command),
                                  f"move:{p[0]},{p[1]}"))
        for fc in FACINGS:
            if fc != facing:
                nexts.append((cell, fc,
                              turn_cost(g, cell, quarter_turns(facing, fc), command=command),
                              f"turn:{fc}"))
        for p, fc, step, aid in nexts:
            c = cost + step
            key = (p, fc)
            via = {(aid, step)} if (cell, facing) == start else firsts[(cell, facing)]
            if c < best.get(key, 1 << 30):
                best[key], firsts[key] = c, set(via)
                heapq.heappush(heap, (c, p, fc))
            elif c == best[key]:
                firsts[key] |= via
    if goal is None:
        return None
    return goal, dict(ends)


def restrict(state: BatallitasState, f: Field, n: Nose, actions: list[Action]) -> list[Action]:
    """Hate's grip on a nose's listed actions: blows at a hated nose if any can be struck; else
    the first steps of the cheapest paths to strike one, paid from its own points (a leader
    sharing its pool pays from it: those are its own); else only `done`. A nose that stands
    ready but cannot strike (a pájara, no dice) is not bound (RULES.md decision)."""
    foes = hated(state, f, n)
    if not foes or n.status != IN_PLAY or state.burst is not None or n.pajara:
        return actions
    cells = {f"{e.cell[0]},{e.cell[1]}" for e in foes if e.cell is not None}
    blows = [a for a in actions if a.id.startswith("attack:") and a.id.split(":")[2] in cells]
    if blows:
        return blows
    path = first_moves(f, n, [e.cell for e in foes if e.cell is not None])
    if path is None or path[0] == 0:
        return actions  # no way there, or there but unable to strike
    sq = state.squads[n.squad]
    purse = 1 << 30 if sq.pool_owner == n.id else own_left(n, sq)
    steps = [a for a in actions if a.id in path[1] and path[1][a.id] <= purse]
    return steps or [a for a in actions if a.id == "done"]


def bound(state: BatallitasState, f: Field, n: Nose, actions: list[Action]) -> bool:
    """Whether hate leaves the nose something it must do (so its squad cannot skip it)."""
    narrowed = restrict(state, f, n, actions)
    return narrowed is not actions and any(a.id != "done" for a in narrowed)
