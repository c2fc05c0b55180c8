"""A nose's action phase: what it may do now and what each paid action costs ("Actions",
"Generic actions", "Movement", "Doors", "Double doors", "Oh my God, the curtains!", "Alert
Shot", "Jamming and Unjamming", "Limited Ammunition", "The Pájara", scenario 1's "The secret
door", deployment from board edges)."""

from __future__ import annotations

from dataclasses import replace

from partida.engine import Action
from partida.games.batallitas import (
    doors,
    hate,
    hidden,
    leaving,
    roles,
    shopping,
    slider,
    videogame,
)
from partida.games.batallitas.combat import (
    close_weapons,
    combat_dice,
    sweep_cells,
    sweep_penalty,
    sweeps,
    targets,
)
from partida.games.batallitas.content import Pos, load
from partida.games.batallitas.geometry import FACINGS, front_cells, quarter_turns
from partida.games.batallitas.grid import Field
from partida.games.batallitas.movement import can_step, step_cost, turn_cost
from partida.games.batallitas.shooting import burst_cells, firearms, first_targets, usable, weapon
from partida.games.batallitas.state import IN_PLAY, RESERVE, BatallitasState, Nose
from partida.games.batallitas.turn import available, can_pay, scenario_of

# Facing of a nose that has just come on from an edge (RULES.md decision: into the board).
ENTRY_FACING = {"north": "S", "south": "N", "east": "W", "west": "E"}


def costs() -> dict[str, int]:
    return load().rules.costs


def cell_id(p: Pos) -> str:
    return f"{p[0]},{p[1]}"


def parse_cell(text: str) -> Pos:
    x, y = text.split(",")
    return (int(x), int(y))


# --- entering from an edge ----------------------------------------------------------------

def entry_edges(state: BatallitasState, n: Nose) -> list[str]:
    if n.edge is not None:  # reinforcements enter where the enemy said
        return [n.edge]
    sq = state.squads[n.squad]
    deploy = scenario_of(state).forces[sq.force].deploy
    if deploy.kind == "opposite_edges":
        return _opposite(state, sq.side)
    if deploy.kind != "edge":
        return []
    if sq.edge is not None and deploy.one_edge_per_squad:
        return [sq.edge]
    return list(deploy.edges)


EDGES = ("north", "east", "south", "west")


def _opposite(state: BatallitasState, side: str) -> list[str]:
    """Scenario 6: the first side to bring a nose on picks its edge (RULES.md decision); the
    other side enters by the opposite one."""
    own = state.counters.get(f"{side}_edge")
    other = state.counters.get(f"{'rebel' if side == 'papal' else 'papal'}_edge")
    if own is not None:
        return [EDGES[own]]
    if other is not None:
        return [EDGES[(other + 2) % 4]]
    return list(EDGES)


def note_entry(state: BatallitasState, n: Nose, edge: str) -> None:
    deploy = scenario_of(state).forces[state.squads[n.squad].force].deploy
    key = f"{state.side_of(n)}_edge"
    if deploy.kind == "opposite_edges" and key not in state.counters:
        state.counters[key] = EDGES.index(edge)


def entry_cost(f: Field, p: Pos, command: bool) -> int:
    """As a forward step from outside the board into the cell."""
    c = costs()
    cost = c["move_forward"] + (c["building_extra"] if f.map.cell(p).indoor else 0)
    cost += c["obstacle_extra"] if f.terrain(p) == "obstacle" else 0
    cost += c["obstacle_extra"] if f.blasts.get(p) == "slows" else 0
    return max(1, cost - 1) if command else cost


def entries(state: BatallitasState, f: Field, n: Nose) -> list[tuple[str, Pos, int]]:
    out = []
    for side in entry_edges(state, n):
        for p in f.map.edge_cells(side):
            if f.blocks_step(p) or f.shut(f.map.outer_edge(p, side)):
                continue
            out.append((side, p, entry_cost(f, p, "command" in n.knacks)))
    return out


# --- listing ------------------------------------------------------------------------------

def nose_actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    """What the nose may do in its action phase, "done" first, within hate's grip (flaw
    "Hate"). A command nose standing in a friend's cell may only step on (knack "Command")."""
    if passing_through(state, n):
        return [a for a in free_actions(state, f, n) if a.id.startswith("move:")]
    return hate.restrict(state, f, n, free_actions(state, f, n))


def passing_through(state: BatallitasState, n: Nose) -> bool:
    """The nose shares its cell with a friend (it is moving through it; the slider, which
    holds two, is not a friend's cell)."""
    return n.cell is not None and not slider.inside(state, n) \
        and any(m.cell == n.cell for m in state.in_play() if m is not n)


def _friends(state: BatallitasState, n: Nose) -> frozenset[Pos]:
    """Cells a command nose may move through: those of other noses of its side."""
    if "command" not in n.knacks:
        return frozenset()
    return frozenset(m.cell for m in state.in_play() if m is not n and m.cell is not None
                     and state.side_of(m) == state.side_of(n))


def steps(state: BatallitasState, f: Field, n: Nose) -> list[tuple[Pos, int]]:
    """Cells the nose may step to now, with their cost. A command nose goes through friends'
    cells as if empty, but only into one it can afford to step out of again (RULES.md
    decision: it may not end its movement there)."""
    assert n.cell is not None
    here, command = n.cell, "command" in n.knacks
    friends = _friends(state, n)
    g = replace(f, noses=f.noses - friends) if friends else f
    out = []
    barred = hidden.barred(state, n)
    for p in _around(here):
        if p in barred or not can_step(g, here, p):
            continue
        cost = step_cost(f, here, n.facing, p, command=command)
        if not can_pay(state, n, cost, "move"):
            continue
        if p in friends and not _way_out(replace(g, noses=g.noses - {here}), n, p, friends,
                                         available(state, n) - cost):
            continue
        out.append((p, cost))
    return out


def _around(p: Pos) -> list[Pos]:
    return [(p[0] + dx, p[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


def _way_out(g: Field, n: Nose, at: Pos, friends: frozenset[Pos], budget: int) -> bool:
    """From a friend's cell, a step to a free cell within `budget` points."""
    return any(q not in friends and can_step(g, at, q)
               and step_cost(g, at, n.facing, q, command=True) <= budget for q in _around(at))


def free_actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    """Every action of the nose in its action phase, "done" first, as if it hated nobody."""
    out = [Action("done", f"{n.name} ends its action phase")]
    if state.burst is not None:
        return burst_actions(state, f, n)
    c = costs()
    if n.status == RESERVE:
        for side, p, cost in entries(state, f, n):
            if can_pay(state, n, cost, "enter"):
                out.append(Action(f"enter:{side}:{cell_id(p)}",
                                  f"{n.name} enters at {cell_id(p)} from the {side} ({cost})"))
        return out
    if n.status != IN_PLAY or n.cell is None:
        return out
    here = n.cell
    out.extend(Action(f"move:{cell_id(p)}", f"{n.name} moves to {cell_id(p)} ({cost})")
               for p, cost in steps(state, f, n))
    for facing in FACINGS:
        if facing != n.facing:
            cost = turn_cost(f, here, quarter_turns(n.facing, facing),
                             command="command" in n.knacks)
            if can_pay(state, n, cost, "turn"):
                out.append(Action(f"turn:{facing}", f"{n.name} turns to face {facing} ({cost})"))
    for wid in firearms(n):
        w = weapon(wid)
        cost = c["fire_heavy"] if w.type == "heavy" else c["fire_short_or_long"]
        if not usable(n, w) or not can_pay(state, n, cost, "fire"):
            continue
        out.extend(Action(f"fire:{wid}:{cell_id(p)}", f"{n.name} fires the {w.name} at "
                          f"{cell_id(p)} ({cost})") for p in first_targets(state, f, n, w))
    out.extend(_blows(state, f, n))
    out.extend(_sweeps(state, f, n))
    out.extend(doors.actions(state, f, n))
    out.extend(_upkeep(state, n))
    out.extend(shopping.actions(state, f, n))
    out.extend(leaving.actions(state, f, n))
    for scenario_actions in (roles.actions, hidden.actions, videogame.actions, slider.actions):
        out.extend(scenario_actions(state, f, n))
    return out


def _blows(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    if not can_pay(state, n, costs()["close_attack"], "attack"):
        return []
    return [Action(f"attack:{w.id}:{cell_id(p)}", f"{n.name} strikes at {cell_id(p)} with the "
                   f"{w.name} ({costs()['close_attack']})")
            for w in close_weapons(n) for p in targets(state, f, n)
            if combat_dice(state, n, state.at(p)) > 0]  # type: ignore[arg-type]


def _sweeps(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    """`sweep:<weapon>:<start>:<cw|ccw>` ("Sweeping Attacks"): listed when at least one of its
    blows can be rolled."""
    if n.cell is None or n.pajara or not can_pay(state, n, costs()["close_attack"], "attack"):
        return []
    out = []
    for w in close_weapons(n):
        if not sweeps(n, w):
            continue
        for start in front_cells(n.cell, n.facing):
            if not f.map.inside(start):
                continue
            for way in ("cw", "ccw"):
                cells = sweep_cells(state, f, n, start, way)
                if any(combat_dice(state, n, state.at(p), sweep_penalty(n)) > 0  # type: ignore[arg-type]
                       for p in cells):
                    out.append(Action(
                        f"sweep:{w.id}:{cell_id(start)}:{way}",
                        f"{n.name} sweeps the {w.name} from {cell_id(start)} "
                        f"{'clockwise' if way == 'cw' else 'anticlockwise'}, striking "
                        f"{', '.join(cell_id(p) for p in cells)} ({costs()['close_attack']})"))
    return out


def alert_cost(state: BatallitasState, n: Nose) -> int:
    """3 points, one more while the squad's inept original leader lives (flaw "Inept")."""
    sq = state.squads[n.squad]
    inept = sq.original_leader is not None and state.nose(sq.original_leader)
    extra = 1 if inept and "inept" in inept.flaws and inept.status in (IN_PLAY, RESERVE) else 0
    return costs()["alert"] + extra


def alert_weapons(n: Nose) -> list[str]:
    return [wid for wid in sorted(set(n.weapons)) if usable(n, weapon(wid), alert=True)]


def _upkeep(state: BatallitasState, n: Nose) -> list[Action]:
    c = costs()
    out = []
    if not n.alert and alert_weapons(n) and can_pay(state, n, alert_cost(state, n), "alert"):
        out.append(Action("alert", f"{n.name} goes on alert ({alert_cost(state, n)})"))
    for wid in sorted(set(n.jammed)):
        if can_pay(state, n, c["unjam"], "unjam"):
            out.append(Action(f"unjam:{wid}", f"{n.name} clears its {weapon(wid).name}"))
    for wid, left in sorted(n.ammo.items()):
        full = weapon(wid).magazine or 0
        if n.spares.get(wid, 0) > 0 and left < full and can_pay(state, n, 2 * c["generic"],
                                                                "reload"):
            out.append(Action(f"reload:{wid}", f"{n.name} changes the {weapon(wid).name}'s "
                              f"magazine ({2 * c['generic']})"))
    if n.pajara and can_pay(state, n, c["remove_pajara"], "rally"):
        out.append(Action("rally", f"{n.name} shakes off its pájara ({c['remove_pajara']})"))
    return out


def burst_actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    b = state.burst
    assert b is not None
    w = weapon(b["weapon"])
    out = [Action("stop", f"{n.name} stops the burst")]
    out.extend(Action(f"shot:{cell_id(p)}", f"next shot of the burst at {cell_id(p)}")
               for p in burst_cells(state, f, n, w, (b["last"][0], b["last"][1])))
    return out
