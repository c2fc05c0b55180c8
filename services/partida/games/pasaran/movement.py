"""Where units may go: rail and coastal moves (6.1), rebasing (6.2), movement with ranges, double
range and cities (6.3-6.3.3), the inactive side's reactions and reserves (6.3.5, 6.3.6) and
exploitation (6.5). Each function returns destinations with the path used to reach them."""

from __future__ import annotations

from collections import deque

from partida.engine import Event
from partida.games.pasaran import board as B
from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState

Moves = dict[str, list[str]]   # destination -> places passed, destination last


def _free(content: Content, state: PasaranState, uid: str) -> bool:
    """On the map and not caught in a combat (units in an attacked place stay put), nor held
    by a revolt."""
    r = state.units[uid]
    if r["status"] != "map" or r.get("digging"):
        return False                     # 9.5: a unit digging a trench does not move that turn
    return not B.contested(state, r["at"]) and not B.held_by_revolt(content, state, uid)


def _steps(content: Content, state: PasaranState, place: str, side: str, land_units: bool
           ) -> list[tuple[str, int, str]]:
    """(next place, cost, kind) for a land unit of `side` at `place`; kind is pass (may go on),
    capture (an empty enemy area taken), attack (ends the move) or stop."""
    area = B.area_of(place)
    if B.is_city(place):
        if B.friendly_area(content, state, area, side):
            return [(area, 0, "pass")]
        if B.enemy_in(state, area, side):
            return [(area, 1, "attack")]
        return [(area, 1, "capture")]              # 6.3.1: an empty enemy area, taken
    out: list[tuple[str, int, str]] = []
    if content.area(area).city is not None:
        city = B.city_of(area)
        stack = len(B.land_at(state, city, side))
        if B.holder(state, city) == side and not B.enemy_in(state, city, side):
            if stack < content.tables.city_stack:
                out.append((city, 0, "pass"))
        elif B.enemy_in(state, city, side):
            if stack < content.tables.city_attackers:          # 6.4.5: three attack a city
                out.append((city, 1, "attack"))
        else:
            out.append((city, 1, "stop"))
    for b in sorted(content.area(area).adjacent, key=lambda x: (state.control.get(x) != side, x)):
        if content.area(b).kind != "land":
            continue                                            # 1.2, 8.1: sea, mountain, neutral
        if B.contested(state, b):
            out.append((b, 1, "attack"))
        elif B.friendly_area(content, state, b, side):
            out.append((b, 1, "pass"))
        elif B.enemy_in(state, b, side) or (
                content.area(b).city is not None and B.enemy_in(state, B.city_of(b), side)):
            out.append((b, 1, "attack"))
        else:
            out.append((b, 1, "capture"))
    return out


def _search(content: Content, state: PasaranState, uid: str, budget: int, friendly_only: bool,
            through_captures: bool) -> Moves:
    """0-1 breadth-first search of a land unit's destinations within `budget` points."""
    r = state.units[uid]
    start = r["at"]
    best: dict[str, tuple[int, list[str]]] = {start: (0, [])}
    todo: deque[tuple[str, int, list[str]]] = deque([(start, 0, [])])
    while todo:
        place, cost, path = todo.popleft()
        if best[place][0] < cost:
            continue
        for nxt, step, kind in _steps(content, state, place, r["side"], True):
            if friendly_only and kind != "pass":
                continue
            total = cost + step
            if total > budget or (nxt in best and best[nxt][0] <= total):
                continue
            best[nxt] = (total, [*path, nxt])
            goes_on = kind == "pass" or (kind == "capture" and through_captures)
            if goes_on:
                (todo.appendleft if step == 0 else todo.append)((nxt, total, [*path, nxt]))
    return {p: path for p, (_, path) in best.items() if p != start}


def land_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """6.3.1-6.3.3: normal range (tanks and HQs through empty enemy areas), then 6.3.2's double
    range through friendly places only."""
    if not _free(content, state, uid):
        return {}
    kind = state.units[uid]["kind"]
    reach = content.tables.range[kind]
    moves = _search(content, state, uid, reach, False, kind in ("tank", "hq"))
    for dest, path in _search(content, state, uid, 2 * reach, True, False).items():
        moves.setdefault(dest, path)
    return moves


def _air_passable(content: Content, area: str) -> bool:
    return content.area(area).kind != "neutral"                # 6.3.1: never over neutral land


def targets(content: Content, state: PasaranState, side: str) -> list[str]:
    """Places an aircraft of `side` may attack: any place with enemy units or already attacked."""
    out = set(state.attacks)
    for r in state.units.values():
        if r["status"] == "map" and r["side"] != side:
            out.add(r["at"])
    return sorted(out)


def air_moves(content: Content, state: PasaranState, uid: str, only: list[str] | None = None
              ) -> Moves:
    """6.3.1: 2 areas over anything but neutral land, ending in a friendly area or on a target;
    6.3.2: 4 areas through friendly areas and the sea, never attacking. `only` limits the
    targets (exploitation: the places being fought over)."""
    if not _free(content, state, uid):
        return {}
    r = state.units[uid]
    side, start = r["side"], B.area_of(r["at"])
    near = B.distances(content, start, content.tables.range["air"],
                       lambda a: _air_passable(content, a))
    moves: Moves = {}
    for place in (only if only is not None else targets(content, state, side)):
        if B.area_of(place) in near and place != r["at"]:
            moves[place] = [place]
    if only is None:
        far = B.distances(content, start, 2 * content.tables.range["air"],
                          lambda a: B.friendly_area(content, state, a, side)
                          or content.area(a).kind == "sea")
        for a in sorted(set(near) | set(far)):
            if a != start and B.friendly_area(content, state, a, side):
                moves.setdefault(a, [a])
    return moves


def rail_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """6.1: any distance along rail links through friendly areas."""
    if not _free(content, state, uid):
        return {}
    r = state.units[uid]
    start = B.area_of(r["at"])
    if not B.friendly_area(content, state, start, r["side"]):
        return {}
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for b in content.rail_neighbours(a):
            if b not in seen and B.friendly_area(content, state, b, r["side"]):
                seen.add(b)
                todo.append(b)
    return {a: [a] for a in sorted(seen - {start})}


def coast_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """6.1: one Republican land unit from a friendly coastal area to another, any distance."""
    r = state.units[uid]
    start = B.area_of(r["at"])
    if not _free(content, state, uid) or r["kind"] == "air" or not content.area(start).coast:
        return {}
    if not B.friendly_area(content, state, start, r["side"]):
        return {}
    return {a.id: [a.id] for a in content.map.areas if a.coast and a.id != start
            and B.friendly_area(content, state, a.id, r["side"])}


def rebase_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """6.2: an aircraft, once a turn, up to 4 areas through friendly areas (the sea counts as
    passable, or Mallorca's aircraft could never leave) to a friendly area."""
    r = state.units[uid]
    if not _free(content, state, uid) or r["kind"] != "air" or r["rebased"]:
        return {}
    start = B.area_of(r["at"])
    near = B.distances(content, start, content.tables.rebase_range,
                       lambda a: B.friendly_area(content, state, a, r["side"])
                       or content.area(a).kind == "sea")
    return {a: [a] for a in sorted(near) if a != start
            and B.friendly_area(content, state, a, r["side"])}


def airlift_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """JU 52 Airbridge: a Nationalist land unit from Spanish Morocco to a friendly Andalusian
    area."""
    r = state.units[uid]
    if not _free(content, state, uid) or r["kind"] == "air" or B.area_of(r["at"]) != "marruecos":
        return {}
    return {a: [a] for a in content.map.andalusia
            if B.friendly_area(content, state, a, r["side"])}


def coastal_distances(content: Content, start: str) -> dict[str, int]:
    """Steps from `start` counting coastal areas only: along land borders between coastal
    areas, and between an island and the coasts facing it (content `island_coasts`)."""
    links: dict[str, set[str]] = {}
    for island, coasts in content.map.island_coasts.items():
        for a in coasts:
            links.setdefault(island, set()).add(a)
            links.setdefault(a, set()).add(island)
    dist, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for a in frontier:
            land = {b for b in content.area(a).adjacent if content.area(b).coast
                    and content.area(b).kind == "land"}
            for b in sorted(land | links.get(a, set())):
                if b not in dist:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


def invasion_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """Invasion card: an infantry unit in a friendly coastal area attacks an enemy coastal area
    by sea, at most `reach` coastal areas away; Spanish Morocco cannot be invaded."""
    r = state.units[uid]
    here = r["at"]
    if not _free(content, state, uid) or r["kind"] != "inf" or B.is_city(here):
        return {}
    if not content.area(here).coast or not B.friendly_area(content, state, here, r["side"]):
        return {}
    reach = int((content.card("invasion").effect or {})["reach"])
    dist = coastal_distances(content, here)
    return {a: [a] for a, d in sorted(dist.items()) if 0 < d <= reach
            and a not in content.map.not_invadable and state.control.get(a) == B.ENEMY[r["side"]]}


def exploit_moves(content: Content, state: PasaranState, uid: str) -> Moves:
    """6.5: tanks and HQs; infantry sharing an area with an HQ that still has command to spare;
    aircraft only onto places being fought over."""
    r = state.units[uid]
    if r["kind"] == "air":
        return air_moves(content, state, uid, only=state.attacks)
    if r["kind"] == "inf" and leader(content, state, uid) is None:
        return {}
    return land_moves(content, state, uid)


def leader(content: Content, state: PasaranState, uid: str) -> str | None:
    """The first HQ in the unit's area (not a city) able to lead it with command left."""
    r = state.units[uid]
    if B.is_city(r["at"]):
        return None
    for hq in B.land_at(state, r["at"], r["side"]):
        if (hq != uid and state.units[hq]["kind"] == "hq" and B.commands(content, hq, uid)
                and state.command_used.get(hq, 0) < B.command(content, state, hq)):
            return hq
    return None


def reactions(content: Content, state: PasaranState, side: str) -> dict[tuple[str, str], str]:
    """6.3.5, 6.3.6: (unit, attacked place) -> how: "air", "city" (between a city and its area)
    or "reserve:<hq>"."""
    out: dict[tuple[str, str], str] = {}
    attacked = state.attacks
    for uid in state.on_map(side):
        r = state.units[uid]
        if (r["reacted"] or r.get("pinned") or r.get("digging") or B.contested(state, r["at"])
                or B.held_by_revolt(content, state, uid)):
            continue                  # 10.1: a pinned unit does not react; 9.5: nor a digger
        here = B.area_of(r["at"])
        if r["kind"] == "air":
            near = B.distances(content, here, content.tables.range["air"],
                               lambda a: _air_passable(content, a))
            for p in attacked:
                if B.area_of(p) in near:
                    out[(uid, p)] = "air"
            continue
        for p in attacked:
            if B.area_of(p) != here or p == r["at"]:
                continue
            if B.is_city(p) and len(B.land_at(state, p, side)) >= content.tables.city_stack:
                continue
            out[(uid, p)] = "city"
        hq = _reserve_hq(content, state, uid)
        if hq is None:
            continue
        reach = content.tables.range[r["kind"]]
        for p in attacked:
            if B.is_city(p) or p in {here} or not _land_attack(state, p, side):
                continue
            if hq == uid and not _escorts(state, uid, p):
                continue                      # 6.3.6: an HQ goes only where its reserves went
            near = B.distances(content, here, reach,
                               lambda a, p=p: a == p or B.friendly_area(content, state, a, side))
            if p in near:
                out.setdefault((uid, p), f"reserve:{hq}")
    return {k: v for k, v in out.items() if B.room(content, state, k[1], side)}


def pins(content: Content, state: PasaranState, uid: str) -> list[str]:
    """10.1, 10.2: enemy units `uid` may pin: an aircraft pins any enemy aircraft or
    HQ-led land unit within its range, a land unit (not an HQ) such a land unit in a
    neighbouring area; land units count as led when an HQ shares their area (HQs included)."""
    r = state.units[uid]
    if not _free(content, state, uid) or r["kind"] == "hq" or r["moved"]:
        return []
    here = B.area_of(r["at"])
    if r["kind"] == "air":
        near = set(B.distances(content, here, content.tables.range["air"],
                               lambda a: _air_passable(content, a)))
    else:
        near = set(content.area(here).adjacent)
    out = []
    for e in state.on_map(B.ENEMY[r["side"]]):
        er = state.units[e]
        if er.get("pinned") or B.area_of(er["at"]) not in near:
            continue
        fog = bool(state.options.get("fog_of_war"))
        if fog and B.top(state, er["at"], er["side"]) != e:
            continue                  # 9.2: only the top of a stack is seen, so pinned
        if er["kind"] == "air":
            if r["kind"] == "air":
                out.append(e)
        elif not B.is_city(er["at"]) and (fog or any(
                state.units[h]["kind"] == "hq" for h in B.land_at(state, er["at"], er["side"]))):
            out.append(e)
    return out


def _reserve_hq(content: Content, state: PasaranState, uid: str) -> str | None:
    """6.3.6: an HQ in the area sends units up to its rating; an HQ goes along once it has
    sent one."""
    r = state.units[uid]
    if r["kind"] == "hq":
        return uid if state.command_used.get(uid, 0) > 0 and not B.is_city(r["at"]) else None
    return leader(content, state, uid)


def _escorts(state: PasaranState, hq: str, place: str) -> bool:
    """Whether reserves sent this step from the HQ's area stand in `place`."""
    r = state.units[hq]
    return any(state.units[u]["reacted"] and state.units[u].get("from") == r["at"]
               for u in B.land_at(state, place, r["side"]))


def _land_attack(state: PasaranState, place: str, side: str) -> bool:
    """6.3.6: reserves answer only attacks made with land units."""
    return bool(B.land_at(state, place, B.ENEMY[side]))


def carry_out(content: Content, state: PasaranState, uid: str, path: list[str],
              events: list[Event], verb: str) -> None:
    """Move a unit along `path`, taking empty enemy places on the way (6.3.1, 6.6) and marking
    the destination attacked when enemies hold or stand in it (6.3)."""
    r = state.units[uid]
    side, origin = r["side"], r["at"]
    for place in path[:-1]:
        if B.holder(state, place) not in (side, None) and not B.enemy_in(state, place, side):
            B.set_holder(state, place, side)
            events.append(Event("taken", {"place": place, "side": side}))
    dest = path[-1]
    B.move_to(state, uid, dest)
    events.append(Event(verb, {"unit": uid, "to": dest, "path": list(path)}))
    if r["kind"] == "air" and not B.enemy_in(state, dest, side):
        return
    hostile_city = (not B.is_city(dest) and content.area(dest).city is not None
                    and B.enemy_in(state, B.city_of(dest), side))
    if B.enemy_in(state, dest, side) or hostile_city:
        r["from"] = origin                     # where REP Disorder sends the attacker back
        if dest not in state.attacks:
            state.attacks.append(dest)
    elif B.holder(state, dest) not in (side, None):
        B.set_holder(state, dest, side)
        events.append(Event("taken", {"place": dest, "side": side}))
