"""Scenario 4, Long Live Rock: who plays which role at set-up, where each role starts, and the
rock band's weapons left behind the stage curtains (Scenario 4: "Deployment", "Armament", "The
rock band").

Roles are public (`Nose.role`); the band's firearms wait in `Nose.stowed` until a band member
picks them up by a generic action (`arm`) on a cell behind the curtains.
"""

from __future__ import annotations

from partida.engine import Action, Event
from partida.games.batallitas.content import Pos, Scenario, load
from partida.games.batallitas.geometry import distance
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import BatallitasState, Nose
from partida.games.batallitas.turn import can_pay, pay, scenario_of
from partida.games.batallitas.world import door_cells


def assign(sc: Scenario, state: BatallitasState) -> None:
    """The leader role to each role-deployed squad's original leader, the other filled roles to
    the other noses in order (RULES.md decision: the band's Fans are the first three, all four
    Fans being alike); the band's firearms are stowed."""
    for sq in state.squads:
        deploy = sc.forces[sq.force].deploy
        if deploy.kind != "roles":
            continue
        rest = [n for n in state.members(sq.index) if n.id != sq.original_leader]
        for role in deploy.roles:
            if role.unfilled:
                continue
            takers = [state.nose(sq.original_leader or "")] if role.leader else \
                [rest.pop(0) for _ in range(role.count)]
            for n in takers:
                n.role = role.role
    if sc.band_arms_at:
        for n in state.noses:
            if n.role == "band":
                n.stowed = [w for w in n.weapons if w != "hand"]
                n.weapons = [w for w in n.weapons if w == "hand"]


def start_cells(state: BatallitasState, f: Field, n: Nose) -> list[Pos]:
    """Free cells where the nose's role starts."""
    deploy = scenario_of(state).forces[state.squads[n.squad].force].deploy
    role = next(r for r in deploy.roles if r.role == n.role)
    m = f.map
    free = [p for p in m.positions() if not f.blocks_step(p)]
    if role.where == "free":
        return free
    if role.where == "feature":
        return [p for p in free if m.cell(p).feature == role.feature]
    if role.where == "next_to_feature":
        spots = m.with_feature(role.feature or "")
        return [p for p in free if any(distance(p, q) == 1 for q in spots)]
    # next_to_curtain: cells of the feature within one cell of a curtain's own side
    curtains = [c for d in m.doors if d.spec.name == "curtain" for c in door_cells(d)
                if m.cell(c).feature == role.feature]
    return [p for p in free if m.cell(p).feature == role.feature
            and any(distance(p, c) <= 1 for c in curtains)]


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    """`arm`: a band member behind the curtains picks up its weapons (a generic action)."""
    where = scenario_of(state).band_arms_at
    cost = load().rules.costs["generic"]
    if not n.stowed or n.cell is None or f.map.cell(n.cell).feature != where \
            or not can_pay(state, n, cost, "arm"):
        return []
    return [Action("arm", f"{n.name} picks up its weapons ({cost})")]


def arm(state: BatallitasState, n: Nose, ev: list[Event]) -> None:
    pay(state, n, load().rules.costs["generic"], "arm")
    n.weapons = [*n.weapons, *n.stowed]
    ev.append(Event("armed", {"nose": n.id, "weapons": list(n.stowed)}))
    n.stowed = []
