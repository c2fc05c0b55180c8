"""Leaving the board as an objective: scenario 2's Fans by any side with their goods, scenario
3's Fanhunters by the side opposite their entry (Scenario 2 and 3, "Objectives and victory
conditions").

Pure: `exits` says where a nose may leave and at what cost, `leave` takes it off the board.
"""

from __future__ import annotations

from partida.engine import Action, Event
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import GONE, BatallitasState, Nose
from partida.games.batallitas.turn import can_pay, leader_out, pay, scenario_of

SIDES = ("north", "east", "south", "west")
FACING_OUT = {"north": "N", "south": "S", "west": "W", "east": "E"}
FORWARD, OTHER = 1, 2
PRODUCTS = ("snacks", "beers")


def sides_out(state: BatallitasState, n: Nose) -> tuple[str, ...]:
    """The sides the nose may leave by: its force's exit edge, or any side for the Fans of
    scenario 2 (RULES.md decision: only the side whose objective it is leaves)."""
    sc = scenario_of(state)
    force = sc.forces[state.squads[n.squad].force]
    if force.exit_edge is not None:
        return (force.exit_edge,)
    if "shopping" in sc.special_rules and state.side_of(n) == "rebel":
        return SIDES
    return ()


def exits(state: BatallitasState, f: Field, n: Nose) -> list[tuple[str, int]]:
    """Sides it may leave by from its cell, each with its cost: a forward step when it faces
    out, else a backward or sideways one (RULES.md decision)."""
    if n.cell is None:
        return []
    less = 1 if "command" in n.knacks else 0  # a step, so knack "Command" makes it cheaper
    return [(side, max(1, (FORWARD if n.facing == FACING_OUT[side] else OTHER) - less))
            for side in sides_out(state, n)
            if n.cell in f.map.edge_cells(side) and not f.shut(f.map.outer_edge(n.cell, side))]


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    out = []
    for side, cost in exits(state, f, n):
        if can_pay(state, n, cost, "leave"):
            what = (f" carrying {n.goods.get('snacks', 0)} snacks and "
                    f"{n.goods.get('beers', 0)} beers") if n.goods else ""
            out.append(Action(f"leave:{side}",
                              f"{n.name} leaves the board by the {side} side{what} ({cost})"))
    return out


def leave(state: BatallitasState, f: Field, n: Nose, side: str, ev: list[Event]) -> None:
    """Off the board, out of the game but not eliminated; what it carries, and the nose itself,
    are counted (`counters`: `<product>_out`, `<side>_left`)."""
    pay(state, n, dict(exits(state, f, n))[side], "leave")
    for g in PRODUCTS:
        if n.goods.get(g):
            state.counters[f"{g}_out"] = state.counters.get(f"{g}_out", 0) + n.goods[g]
    key = f"{state.side_of(n)}_left"
    state.counters[key] = state.counters.get(key, 0) + 1
    ev.append(Event("left_board", {"nose": n.id, "side": side, "goods": dict(n.goods)}))
    n.status, n.pos, n.alert, n.done = GONE, None, False, True
    n.goods, n.trolley = {}, False
    if state.active_nose == n.id:
        state.active_nose = None
    leader_out(state, n)
