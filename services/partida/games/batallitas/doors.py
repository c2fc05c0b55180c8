"""Working doors, their leaves and flaps ("Doors", "Double doors", "Oh my God, the curtains!",
the flaps of the Board 2, Board 4 and Board 7 notes, scenario 1's "The secret door").

A door is open whole (`state.open_doors`) or, for a door of several leaves, leaf by leaf
(`state.open_leaves`: [door, leaf] pairs, leaves numbered along the door's edges). Flaps are
doors inside a cell (`state.open_flaps`: cells). Action ids: `open:<door>`, `close:<door>` (the
whole door), `open:<door>:<leaf>`, `close:<door>:<leaf>` (one leaf of a door of several), and
`open_flap:<x>,<y>`, `close_flap:<x>,<y>`.
"""

from __future__ import annotations

from partida.engine import Action, Event
from partida.games.batallitas.content import Door, Pos, load
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import BatallitasState, Nose
from partida.games.batallitas.turn import can_pay, pay, scenario_of
from partida.games.batallitas.world import ahead, door_cells, facing_door, state_map


def leaves_open(state: BatallitasState, door: Door) -> set[int]:
    if door.id in state.open_doors:
        return set(range(len(door.edges)))
    return {leaf for d, leaf in state.open_leaves if d == door.id}


def set_leaves(state: BatallitasState, door: Door, leaves: set[int]) -> None:
    """Store a door's open leaves: all of them as an open door, some as open leaves."""
    state.open_leaves = [pair for pair in state.open_leaves if pair[0] != door.id]
    state.open_doors = [d for d in state.open_doors if d != door.id]
    if len(leaves) == len(door.edges):
        state.open_doors = sorted([*state.open_doors, door.id])
    else:
        state.open_leaves = sorted([*state.open_leaves, *([door.id, leaf] for leaf in leaves)])


def door_refusal(state: BatallitasState, n: Nose, door: Door, opening: bool,
                 leaf: int | None = None) -> str | None:
    """Opening: in front of a leaf and facing it (any leaf, for the whole door or another
    leaf); closing: in front of a leaf, any facing. Automatic doors take no action; one-way and
    secret doors limit who and from where."""
    if n.cell is None or door.spec.automatic or door.spec.feature == "slider_door":
        return "this door is not worked by hand"  # (the slider's are the vehicle's own)
    if n.cell not in door_cells(door):
        return "not in front of the door"
    shut = set(range(len(door.edges))) - leaves_open(state, door)
    moving = {leaf} if leaf is not None else set(range(len(door.edges)))
    if opening and not moving & shut or not opening and not moving - shut:
        return "the door is already so"
    m = state_map(state)
    sc = scenario_of(state)
    spec = door.spec
    rule = sc.secret_door if spec.feature == "secret_door" else None
    if rule is not None:
        families = rule.get("families") or []
        if state.squads[n.squad].family not in families:  # type: ignore[operator]
            return "only the scenario's own noses work the secret door"
    opens_from = spec.opens_from or (rule or {}).get("opens_from")
    if opening and opens_from == "indoor" and not m.cell(n.cell).indoor:
        return "it opens only from inside"
    inside_of = opens_from[len("outside:"):] if isinstance(opens_from, str) \
        and opens_from.startswith("outside:") else None
    if opening and inside_of is not None and m.cell(n.cell).feature == inside_of:
        return "it opens only from outside"
    if opening and not facing_door(m, n.cell, n.facing, door):
        return "a door is opened facing it"
    return None


def _choices(state: BatallitasState, door: Door, opening: bool) -> list[int | None]:
    """The whole door, and each leaf on its own while two or more leaves would move (with one
    left to move, the leaf is the whole door)."""
    now = leaves_open(state, door)
    movable = [i for i in range(len(door.edges)) if (i not in now) == opening]
    return [None, *movable] if len(movable) >= 2 else [None]


def flap_refusal(state: BatallitasState, f: Field, n: Nose, cell: Pos, opening: bool) -> str | None:
    """A flap is worked like a door from an orthogonally adjacent cell (RULES.md decision):
    opened facing it, closed from beside it while nobody stands in it."""
    if n.cell is None or abs(n.cell[0] - cell[0]) + abs(n.cell[1] - cell[1]) != 1:
        return "not beside the flap"
    if f.shut_between(n.cell, cell):
        return "a wall between"
    is_open = list(cell) in state.open_flaps
    if opening == is_open:
        return "the flap is already so"
    if opening and ahead(n.cell, n.facing) != cell:
        return "a flap is opened facing it"
    if not opening and cell in f.noses:
        return "someone stands in the flap"
    return None


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    cost = load().rules.costs["generic"]
    out = []
    for verb, opening in (("open", True), ("close", False)):
        if not can_pay(state, n, cost, verb):
            continue
        for door in f.map.doors:
            for leaf in _choices(state, door, opening):
                if door_refusal(state, n, door, opening, leaf) is None:
                    what = f"the {door.spec.name}" if leaf is None else \
                        f"leaf {leaf} of the {door.spec.name}"
                    out.append(Action(f"{verb}:{door.id}" + ("" if leaf is None else f":{leaf}"),
                                      f"{n.name} {verb}s {what}"))
        for cell in f.map.with_feature("flap"):
            if f.map.cell(cell).flap and flap_refusal(state, f, n, cell, opening) is None:
                out.append(Action(f"{verb}_flap:{cell[0]},{cell[1]}",
                                  f"{n.name} {verb}s the flap at {cell[0]},{cell[1]}"))
    return out


def work_door(state: BatallitasState, n: Nose, verb: str, rest: str, ev: list[Event]) -> None:
    pay(state, n, load().rules.costs["generic"], verb)
    door_id, _, leaf = rest.partition(":")
    door = state_map(state).doors[int(door_id)]
    moving = {int(leaf)} if leaf else set(range(len(door.edges)))
    now = leaves_open(state, door)
    set_leaves(state, door, now | moving if verb == "open" else now - moving)
    data = {"nose": n.id, "door": door.id, **({"leaf": int(leaf)} if leaf else {})}
    ev.append(Event("door_opened" if verb == "open" else "door_closed", data))


def work_flap(state: BatallitasState, n: Nose, verb: str, rest: str, ev: list[Event]) -> None:
    pay(state, n, load().rules.costs["generic"], verb)
    x, y = (int(v) for v in rest.split(","))
    if verb == "open":
        state.open_flaps = sorted([*state.open_flaps, [x, y]])
    else:
        state.open_flaps = [c for c in state.open_flaps if c != [x, y]]
    ev.append(Event("flap_opened" if verb == "open" else "flap_closed",
                    {"nose": n.id, "cell": [x, y]}))
