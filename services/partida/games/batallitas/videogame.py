"""Scenario 5, War Games: the videogame (the teddy bear marker), carried, passed, dropped and
picked up (Scenario 5: "The videogame").

The marker is {"kind": "teddy_bear", "videogame": True, "carrier": <nose id> | None,
"pos": <cell> | None}. Action ids: `videogame:take`, `videogame:drop`,
`videogame:pass:<nose>`, each a generic action; a side passes or drops it once per turn.
"""

from __future__ import annotations

from typing import Any

from partida.engine import Action, Event
from partida.games.batallitas import slider
from partida.games.batallitas.content import Pos, load
from partida.games.batallitas.geometry import distance, line_of_sight
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose
from partida.games.batallitas.turn import can_pay, pay


def marker(state: BatallitasState) -> dict[str, Any] | None:
    return next((k for k in state.markers if k.get("videogame")), None)


def give(state: BatallitasState, nid: str, ev: list[Event]) -> None:
    """Set-up: the rebel player names the nose that carries it."""
    state.markers.append({"kind": "teddy_bear", "videogame": True, "carrier": nid, "pos": None,
                          "face_down": False, "owner": None})
    ev.append(Event("videogame_carried", {"nose": nid}))


def _used(state: BatallitasState, n: Nose) -> bool:
    return state.counters.get(f"{state.side_of(n)}_videogame_turn") == state.turn


def reaches(state: BatallitasState, f: Field, a: Pos, b: Pos) -> bool:
    """A pass between neighbouring cells goes where a blow would (RULES.md decision): not
    across a wall, a closed door or a corner shut on both sides, and into or out of the slider
    only across one of its doors."""
    if distance(a, b) != 1:
        return False
    if slider.cell(state) in (a, b):
        return slider.hands_reach(state, a, b)
    return line_of_sight(f, a, b)


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    k = marker(state)
    cost = load().rules.costs["generic"]
    if k is None or n.cell is None or not can_pay(state, n, cost, "videogame"):
        return []
    if k["carrier"] is None:
        return [Action("videogame:take", f"{n.name} picks up the videogame ({cost})")] \
            if k["pos"] == list(n.cell) else []
    if k["carrier"] != n.id or _used(state, n):
        return []
    out = [Action("videogame:drop", f"{n.name} leaves the videogame on the floor ({cost})")]
    out.extend(Action(f"videogame:pass:{m.id}", f"{n.name} passes the videogame to {m.name} "
                      f"({m.id}) ({cost})") for m in state.in_play()
               if m is not n and m.cell is not None and reaches(state, f, n.cell, m.cell)
               and state.side_of(m) == state.side_of(n))
    return out


def do(state: BatallitasState, n: Nose, rest: str, ev: list[Event]) -> None:
    pay(state, n, load().rules.costs["generic"], "videogame")
    k = marker(state)
    assert k is not None and n.cell is not None
    verb, _, to = rest.partition(":")
    if verb == "take":
        k["carrier"], k["pos"] = n.id, None
    else:
        state.counters[f"{state.side_of(n)}_videogame_turn"] = state.turn
        if verb == "drop":
            k["carrier"], k["pos"] = None, list(n.cell)
        else:
            k["carrier"] = to
    ev.append(Event(f"videogame_{verb}", {"nose": n.id, "to": to or None}))


def aboard(state: BatallitasState, ids: set[str]) -> bool:
    k = marker(state)
    return k is not None and k["carrier"] in ids


def carrier(state: BatallitasState) -> Nose | None:
    k = marker(state)
    if k is None or k["carrier"] is None:
        return None
    n = state.nose(k["carrier"])
    return n if n.status == IN_PLAY else None
