"""Scenario 2, Shopping: products taken next to a food column, shopping trolleys taken from
their row, abandoned and grabbed again (Scenario 2: "Shopping", "Shopping trolleys",
"Abandoned trolleys"); leaving the board with them is `leaving.py`.

Pure: `actions` lists a nose's scenario actions, `do` applies one (the victory conditions are
`turn.goods_out` and `turn.no_rebels`). The goods a nose carries are `Nose.goods`; an
abandoned trolley is a marker `{"kind": "trolley", "pos", "goods"}` (`turn.abandon_trolley`).
"""

from __future__ import annotations

from partida.engine import Action, Event
from partida.games.batallitas.content import Pos
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose
from partida.games.batallitas.turn import abandon_trolley, can_pay, pay, scenario_of

PRODUCTS = ("snacks", "beers")
NAMES = {"snacks": "a bag of snacks", "beers": "a litre of beer"}
GENERIC = 2


def active(state: BatallitasState) -> bool:
    return "shopping" in scenario_of(state).special_rules


def _near(f: Field, p: Pos, feature: str) -> bool:
    """A cell of `feature` among the eight neighbours, no wall between (RULES.md decision)."""
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            q = (p[0] + dx, p[1] + dy)
            if q == p or not f.map.inside(q) or f.map.cell(q).feature != feature:
                continue
            if dx and dy or not f.shut_between(p, q):
                return True
    return False


def trolleys_in_play(state: BatallitasState) -> int:
    carried = sum(1 for n in state.noses if n.trolley and n.status == IN_PLAY)
    return carried + sum(1 for m in state.markers if m["kind"] == "trolley")


def lying(state: BatallitasState, p: Pos) -> dict | None:
    return next((m for m in state.markers if m["kind"] == "trolley"
                 and (m["pos"][0], m["pos"][1]) == p), None)


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    if not active(state) or n.cell is None:
        return []
    out: list[Action] = []
    if _near(f, n.cell, "food_column") and can_pay(state, n, GENERIC, "take"):
        out.extend(Action(f"take:{g}", f"{n.name} takes {NAMES[g]} ({GENERIC})")
                   for g in PRODUCTS)
    limit = scenario_of(state).trolleys_in_play or 0
    if not n.trolley:
        ahead = (n.cell[0] + {"N": 0, "E": 1, "S": 0, "W": -1}[n.facing],
                 n.cell[1] + {"N": -1, "E": 0, "S": 1, "W": 0}[n.facing])
        if f.map.inside(ahead) and f.map.cell(ahead).feature == "trolleys" \
                and not f.shut_between(n.cell, ahead) and trolleys_in_play(state) < limit \
                and can_pay(state, n, GENERIC, "trolley"):
            out.append(Action("trolley:take", f"{n.name} takes a trolley from the row ({GENERIC})"))
        if lying(state, n.cell) is not None and can_pay(state, n, GENERIC, "trolley"):
            out.append(Action("trolley:grab", f"{n.name} grabs the abandoned trolley ({GENERIC})"))
    elif lying(state, n.cell) is None:
        out.append(Action("trolley:drop", f"{n.name} abandons its trolley and all in it (0)"))
    return out


def do(state: BatallitasState, f: Field, n: Nose, verb: str, rest: str, ev: list[Event]) -> None:
    assert n.cell is not None
    if verb == "take":
        pay(state, n, GENERIC, "take")
        n.goods[rest] = n.goods.get(rest, 0) + 1
        ev.append(Event("product_taken", {"nose": n.id, "product": rest, "goods": dict(n.goods)}))
    elif rest == "take":
        pay(state, n, GENERIC, "trolley")
        n.trolley = True
        ev.append(Event("trolley_taken", {"nose": n.id}))
    elif rest == "grab":
        pay(state, n, GENERIC, "trolley")
        m = lying(state, n.cell)
        assert m is not None
        state.markers.remove(m)
        for g, k in m["goods"].items():
            n.goods[g] = n.goods.get(g, 0) + k
        n.trolley = True
        ev.append(Event("trolley_grabbed", {"nose": n.id, "goods": dict(n.goods)}))
    else:  # trolley:drop
        abandon_trolley(state, n, ev)
