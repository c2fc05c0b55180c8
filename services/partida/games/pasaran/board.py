"""Places, control and production on the map (1.1, 6.3.3, 6.6, 7.3.1). A place is an area id
or "<area>.c", the city inside that area."""

from __future__ import annotations

from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState

SIDES = ("rep", "nat")
ENEMY = {"rep": "nat", "nat": "rep"}


def area_of(place: str) -> str:
    return place[:-2] if place.endswith(".c") else place


def is_city(place: str) -> bool:
    return place.endswith(".c")


def city_of(area: str) -> str:
    return area + ".c"


def holder(state: PasaranState, place: str) -> str | None:
    """Who controls a place (None for sea, mountain and neutral areas)."""
    if is_city(place):
        return state.city_control.get(area_of(place))
    return state.control.get(place)


def set_holder(state: PasaranState, place: str, side: str) -> None:
    """A place changes hands; the loser's trenches there are lost (9.5)."""
    state.trenches = [t for t in state.trenches if t["place"] != place or t["side"] == side]
    if is_city(place):
        state.city_control[area_of(place)] = side
    else:
        state.control[place] = side


class snapshot:  # noqa: N801 - used as a context manager, reads like a function
    """While enumerating choices or searching a move's path (nothing moves), index units by
    place once instead of scanning every unit for each question. Nested on one state, the
    inner one uses the outer's index and leaves it in place."""

    def __init__(self, state: PasaranState) -> None:
        self.state = state
        self.outer = False

    def __enter__(self) -> None:
        self.outer = id(self.state) not in _SNAPSHOT
        if not self.outer:
            return
        # By place and by (place, side): a move search asks about one side's units at a
        # place many times over.
        index: dict[tuple[str, str | None], list[str]] = {}
        for u, r in sorted(self.state.units.items()):
            if r["status"] == "map":
                index.setdefault((r["at"], None), []).append(u)
                index.setdefault((r["at"], r["side"]), []).append(u)
        _SNAPSHOT[id(self.state)] = index

    def __exit__(self, *exc: object) -> None:
        if self.outer:
            _SNAPSHOT.pop(id(self.state), None)


_SNAPSHOT: dict[int, dict[tuple[str, str | None], list[str]]] = {}


def move_to(state: PasaranState, uid: str, place: str) -> None:
    """Put a unit in a place, on top of the stack there (9.2: the last to arrive is the top)."""
    r = state.units[uid]
    r["at"] = place
    r["order"] = 1 + max((x.get("order", 0) for x in state.units.values()), default=0)


def top(state: PasaranState, place: str, side: str) -> str | None:
    """9.2: the unit the enemy may inspect in a stack: the last one to arrive."""
    here = units_at(state, place, side)
    return max(here, key=lambda u: (state.units[u].get("order", 0), u)) if here else None


def room(content: Content, state: PasaranState, place: str, side: str, count: int = 1) -> bool:
    """9.2: with fog of war no stack holds more than 10 units."""
    if not state.options.get("fog_of_war"):
        return True
    return len(units_at(state, place, side)) + count <= content.tables.fog_stack


def units_at(state: PasaranState, place: str, side: str | None = None) -> list[str]:
    index = _SNAPSHOT.get(id(state))
    if index is not None:
        return list(index.get((place, side), ()))
    # sorted: a restored state's units come back in another order, and order picks dice
    return sorted(u for u, r in state.units.items() if r["status"] == "map" and r["at"] == place
                  and (side is None or r["side"] == side))


def land_at(state: PasaranState, place: str, side: str) -> list[str]:
    return [u for u in units_at(state, place, side) if state.units[u]["kind"] != "air"]


def enemy_in(state: PasaranState, place: str, side: str) -> bool:
    return bool(units_at(state, place, ENEMY[side]))


def contested(state: PasaranState, place: str) -> bool:
    sides = {state.units[u]["side"] for u in units_at(state, place)}
    return len(sides) == 2


def friendly_area(content: Content, state: PasaranState, area: str, side: str) -> bool:
    """A land area the side holds with no enemy unit standing in it."""
    return (content.area(area).kind == "land" and state.control.get(area) == side
            and not enemy_in(state, area, side))


def strength(content: Content, state: PasaranState, uid: str) -> int:
    u = content.unit(uid)
    return u.front if state.units[uid]["face"] == "front" else (u.back or 0)


def command(content: Content, state: PasaranState, hq: str) -> int:
    rating = content.unit(hq).command
    assert rating is not None
    return rating[0] if state.units[hq]["face"] == "front" else rating[1]


def commands(content: Content, hq: str, uid: str) -> bool:
    """7.3.2: Kleber leads only Republican regulars, Durruti only militia; others lead all."""
    tag = content.unit(uid).tag
    if hq == "hq_kleber":
        return tag != "militia"
    if hq == "hq_durruti":
        return tag == "militia"
    return True


def area_bp(content: Content, state: PasaranState, side: str) -> int:
    """7.3.1, 6.6: BP of the areas the side holds, city included (mixed control yields none)."""
    total = 0
    for a in content.map.areas:
        if a.kind == "land" and state.control.get(a.id) == side and (
                a.city is None or state.city_control.get(a.id) == side):
            total += a.bp
    return total


def income(content: Content, state: PasaranState, side: str) -> int:
    """7.1: the areas' BP plus the production changes of permanent cards; an area in revolt
    (Barcelona Revolt) yields its holder nothing while the card lies."""
    bonus = 0
    for cid in state.permanent:
        effect = content.card(cid).effect or {}
        bonus += int(effect.get("production", {}).get(side, 0))
        area = effect.get("revolt")
        if (isinstance(area, str) and state.control.get(area) == side
                and state.city_control.get(area) == side):
            bonus -= content.area(area).bp
    return max(0, area_bp(content, state, side) + bonus)


def held_by_revolt(content: Content, state: PasaranState, uid: str) -> bool:
    """Barcelona Revolt: the Republican militia in the revolting area may not move."""
    r = state.units[uid]
    for cid in state.permanent:
        area = (content.card(cid).effect or {}).get("revolt")
        if (area is not None and r["side"] == "rep" and content.unit(uid).tag == "militia"
                and r["at"] is not None and area_of(r["at"]) == area):
            return True
    return False


def reinforcement_places(content: Content, state: PasaranState, side: str,
                         adding: bool = True) -> list[str]:
    """5.1: an area the side holds together with its city, or that city; the French note's
    Madrid exception: a side holding Madrid's city may always place in it. Cities take at most
    3 land units of a side; `adding=False` (a repair, errata to 7.3.2, adds no unit) skips the
    stacking limits."""
    out = []
    for a in content.map.areas:
        if a.city is None or a.kind != "land":
            continue
        city = city_of(a.id)
        space = not adding or (len(land_at(state, city, side)) < content.tables.city_stack
                               and room(content, state, city, side))
        if state.control.get(a.id) == side and state.city_control.get(a.id) == side:
            if not contested(state, a.id) and (not adding or room(content, state, a.id, side)):
                out.append(a.id)
            if space:
                out.append(city)
        elif a.id == content.map.madrid and state.city_control.get(a.id) == side and space:
            out.append(city)
    return out


def distances(content: Content, start: str, limit: int, passable) -> dict[str, int]:
    """Steps from `start` to every area within `limit`, entering only areas `passable(area)`
    allows (the start is always counted, at 0)."""
    dist = {start: 0}
    frontier = [start]
    for step in range(1, limit + 1):
        nxt = []
        for a in frontier:
            for b in content.area(a).adjacent:
                if b not in dist and passable(b):
                    dist[b] = step
                    nxt.append(b)
        frontier = nxt
    return dist
