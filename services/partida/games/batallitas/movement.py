"""Steps and turns: legality and action-point cost ("Movement", "Actions", "Doors", knack
"Command", the board notes on raised stages)."""

from __future__ import annotations

from partida.games.batallitas.content import Pos
from partida.games.batallitas.geometry import corner_open, distance, front_cells
from partida.games.batallitas.grid import Field

FORWARD, BACK_OR_SIDE, EXTRA = 1, 2, 1


def can_step(f: Field, origin: Pos, dest: Pos) -> bool:
    """One step to a neighbour: the cell must be enterable, no wall or closed door in the way,
    and a diagonal needs one open side route."""
    if distance(origin, dest) != 1 or f.blocks_step(dest):
        return False
    if origin[0] == dest[0] or origin[1] == dest[1]:
        return not f.shut_between(origin, dest)
    return corner_open(f, origin, dest, f.blocks_step)


def step_cost(f: Field, origin: Pos, facing: str, dest: Pos, *, command: bool = False) -> int:
    """Points to step from `origin` to `dest` (assumed legal) keeping `facing`."""
    cost = FORWARD if dest in front_cells(origin, facing) else BACK_OR_SIDE
    a, b = f.map.cell(origin), f.map.cell(dest)
    if a.indoor != b.indoor:
        cost += EXTRA  # entering or leaving a building
    if f.terrain(dest) == "obstacle":
        cost += EXTRA
    if f.blasts.get(dest) == "slows":
        cost += EXTRA  # tear gas: crossed like an obstacle, on top of any obstacle
    if a.raised != b.raised:
        cost += EXTRA  # onto or off a stage
    return max(1, cost - 1) if command else cost


def turn_cost(f: Field, at: Pos, quarters: int, *, command: bool = False) -> int:
    """Points for `quarters` 90° turns; each costs one more inside an obstacle cell, and one
    less (at least 1) for a nose with command (turning is a movement action, "Actions")."""
    per = 1 + (EXTRA if f.terrain(at) == "obstacle" else 0)
    if command:
        per = max(1, per - 1)
    return per * abs(quarters)
