"""Scenario 5, War Games: the slider in board 8's garage, the Lethal Fans' way out (Scenario 5:
"The slider", "Objectives and victory conditions").

The slider is its cabin cell; noses inside stand on it (up to its capacity). Action ids:
`slider:in` (from a cell across one of its doors), `slider:out:<x>,<y>`, `slider:garage`
(opens the garage door from inside), `slider:drive` (off with everyone inside).
"""

from __future__ import annotations

from partida.engine import Action, Event
from partida.games.batallitas import doors
from partida.games.batallitas.content import Pos, load
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import GONE, BatallitasState, Nose
from partida.games.batallitas.turn import can_pay, check_end, pay, scenario_of
from partida.games.batallitas.world import door_cells, state_map


def cell(state: BatallitasState) -> Pos | None:
    if scenario_of(state).slider is None:
        return None
    spots = state_map(state).with_feature("slider")
    return spots[0] if spots else None


def door_side(state: BatallitasState) -> list[Pos]:
    """The cells across the slider's doors from its cabin."""
    s = cell(state)
    return [c for d in state_map(state).doors if d.spec.feature == "slider_door"
            for c in door_cells(d) if c != s]


def inside(state: BatallitasState, n: Nose) -> bool:
    s = cell(state)
    return s is not None and n.cell == s


def aboard(state: BatallitasState) -> list[Nose]:
    return [n for n in state.in_play() if inside(state, n)]


def blow_reaches(state: BatallitasState, at: Pos, target: Pos) -> bool:
    """A nose inside is struck only from a cell by one of the doors."""
    return target == cell(state) and at in door_side(state)


def hands_reach(state: BatallitasState, a: Pos, b: Pos) -> bool:
    """Whether something can be handed between the cabin and a neighbouring cell: only across
    one of the slider's doors (RULES.md decision, as for a blow); False when neither is the
    cabin (the caller then asks the board)."""
    return blow_reaches(state, a, b) or blow_reaches(state, b, a)


def _garage(state: BatallitasState):
    return next(d for d in state_map(state).doors if d.spec.feature == "garage_door")


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    sc = scenario_of(state)
    s = cell(state)
    if sc.slider is None or s is None or n.cell is None:
        return []
    generic = load().rules.costs["generic"]
    cost = sc.slider.entry_cost
    out: list[Action] = []
    if inside(state, n):
        if can_pay(state, n, cost, "move"):
            out.extend(Action(f"slider:out:{p[0]},{p[1]}", f"{n.name} gets out of the slider "
                              f"to {p[0]},{p[1]} ({cost})")
                       for p in door_side(state) if not f.blocks_step(p))
        if can_pay(state, n, generic, "slider"):
            if _garage(state).id not in f.open_doors:
                out.append(Action("slider:garage", f"{n.name} opens the garage door with the "
                                  f"remote ({generic})"))
            else:
                out.append(Action("slider:drive", f"{n.name} starts the slider and drives off "
                                  f"({generic})"))
        return out
    if state.squads[n.squad].family in sc.slider.families and n.cell in door_side(state) \
            and len(aboard(state)) < sc.slider.capacity and can_pay(state, n, cost, "move"):
        out.append(Action("slider:in", f"{n.name} gets into the slider ({cost})"))
    return out


def do(state: BatallitasState, n: Nose, rest: str, ev: list[Event]) -> None:
    sc = scenario_of(state)
    assert sc.slider is not None
    verb, _, where = rest.partition(":")
    if verb in ("in", "out"):
        pay(state, n, sc.slider.entry_cost, "move")
        to = cell(state) if verb == "in" else tuple(int(v) for v in where.split(","))
        assert to is not None
        ev.append(Event("moved", {"nose": n.id, "from": n.pos, "to": list(to),
                                  "cost": sc.slider.entry_cost}))
        n.pos = list(to)
        return
    pay(state, n, load().rules.costs["generic"], "slider")
    if verb == "garage":  # every leaf opens (a leaf opened by hand before is open already)
        garage = _garage(state)
        doors.set_leaves(state, garage, set(range(len(garage.edges))))
        ev.append(Event("door_opened", {"nose": n.id, "door": garage.id}))
        return
    from partida.games.batallitas import videogame  # here: videogame imports this module
    crew = aboard(state)
    with_game = videogame.aboard(state, {m.id for m in crew})
    ev.append(Event("slider_gone", {"noses": [m.id for m in crew], "videogame": with_game}))
    state.counters["slider_with_game" if with_game else "slider_without_game"] = 1
    for m in crew:
        m.status, m.pos, m.alert, m.done = GONE, None, False, True
    state.active_nose = None
    check_end(state, ev)
