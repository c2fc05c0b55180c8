"""Combat (6.4): rounds, the battle chart with terrain then weather (6.5.3), air and land
segments with anti-aircraft (6.4.6), hits (6.4.7), retreat (6.4.8, 6.4.9), the end of combat
and control (6.4.10, 6.6), and sieges (6.4.5)."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.pasaran import board as B
from partida.games.pasaran import chits as H
from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState


# ----- strengths ---------------------------------------------------------------------------
def chart(content: Content, value: int) -> int:
    """6.5.3: the battle chart row for a modified strength."""
    table = content.tables.battle_chart
    return table[max(0, min(value, len(table) - 1))]


def _terrain(content: Content, place: str) -> dict[str, int | str]:
    return content.tables.terrain.get(content.area(B.area_of(place)).terrain, {})


def land_value(content: Content, state: PasaranState, uid: str, attacker: bool,
               place: str) -> int:
    """A land unit's effective value in the land segment: terrain first (1.2), then weather
    (5.3), then the chart. HQs never fire."""
    r = state.units[uid]
    if r["kind"] == "hq":
        return 0
    t = _terrain(content, place)
    s = B.strength(content, state, uid)
    if attacker and r.get("invading"):
        s //= 2                                                 # card: Invasion, by sea
    if r["kind"] == "tank":
        s += int(t.get("armour", 0))
    if r["kind"] == "inf" and not attacker:
        s += int(t.get("infantry_defence", 0))
    if attacker:
        s += int(t.get("attacker", 0)) + int(t.get("attacker_land", 0))
        if (r["kind"] == "inf" and r["side"] == "nat" and "fifth_column" in state.flags
                and (B.is_city(place) or B.area_of(place) == content.map.madrid)):
            s += 1                                              # card: 5th Column
        if state.weather == "bad":
            s -= 1
    return chart(content, s + H.bonus(content, state, r["side"], "land"))


def air_value(content: Content, state: PasaranState, uid: str, place: str, in_air: bool) -> int:
    """An aircraft's value: in the air segment only weather counts; over the land segment the
    map's air modifier applies too and, to the attacking side's, the terrain's cut to every
    attacker (1.2; see RULES.md)."""
    s = B.strength(content, state, uid)
    if not in_air:
        t = _terrain(content, place)
        if t.get("air") == "half":
            s //= 2
        elif t.get("air") == "minus1":
            s -= 1
        if state.units[uid]["side"] == state.active:
            s += int(t.get("attacker", 0))
    if state.weather == "bad":
        s -= 1
    return chart(content, s + H.bonus(content, state, state.units[uid]["side"], "air"))


def shots(state: PasaranState, uid: str) -> int:
    """6.4.1: tanks fire twice, HQs never, everyone else once."""
    return {"tank": 2, "hq": 0}.get(state.units[uid]["kind"], 1)


# ----- segments ----------------------------------------------------------------------------
def _forces(state: PasaranState, place: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    air = {s: sorted(u for u in B.units_at(state, place, s) if state.units[u]["kind"] == "air")
           for s in B.SIDES}
    return air, {s: B.land_at(state, place, s) for s in B.SIDES}


def surplus(state: PasaranState, place: str, side: str) -> tuple[int, int]:
    """6.5.3 mixed forces: (aircraft beyond the enemy's that may go to the land segment,
    land units beyond the enemy's, HQs aside, that may fire anti-aircraft), both 0 unless the
    enemy has aircraft here."""
    air, land = _forces(state, place)
    e = B.ENEMY[side]
    if not air[e]:
        return 0, 0
    fighters = [u for u in land[side] if state.units[u]["kind"] != "hq"]
    return (max(0, len(air[side]) - len(air[e])),
            min(len(fighters), max(0, len(land[side]) - len(land[e]))))


def segments(content: Content, state: PasaranState, place: str) -> dict[str, dict[str, list[str]]]:
    """Per side: aircraft in the air segment, aircraft over the land segment, land units firing
    in the land segment and land units on anti-aircraft, after the side's declaration of its
    surplus (`declare`; undeclared, all surplus aircraft go to the land segment and all surplus
    land units, weakest first, to anti-aircraft). Aircraft facing none fight over the land."""
    air, land = _forces(state, place)
    declared = (state.combat or {}).get("declared", {})
    out: dict[str, dict[str, list[str]]] = {}
    for s in B.SIDES:
        extra_air, extra_land = surplus(state, place, s)
        to_land, on_aa = declared.get(s, (extra_air, extra_land))
        to_land, on_aa = min(to_land, extra_air), min(on_aa, extra_land)
        mine = sorted(air[s], key=lambda u: -B.strength(content, state, u))
        in_air = len(mine) - to_land if air[B.ENEMY[s]] else 0
        fighters = sorted((u for u in land[s] if state.units[u]["kind"] != "hq"),
                          key=lambda u: (B.strength(content, state, u), u))
        aa = fighters[:on_aa]
        out[s] = {"air": mine[:in_air], "over": mine[in_air:],
                  "land": [u for u in land[s] if u not in aa], "aa": aa}
    return out


def _fire(content: Content, state: PasaranState, rng: Rng, place: str
          ) -> tuple[dict[str, dict[str, int]], list[list]]:
    """Every unit's dice for one round; hits go to the enemy's air or land pool."""
    segs = segments(content, state, place)
    hits = {s: {"air": 0, "land": 0} for s in B.SIDES}
    log: list[list] = []
    for s in (state.active, B.ENEMY[state.active]):           # 6.4.1: the active side first
        attacker = s == state.active
        e = B.ENEMY[s]
        firing = ([(u, "air", air_value(content, state, u, place, True)) for u in segs[s]["air"]]
                  + [(u, "air", content.tables.anti_aircraft) for u in segs[s]["aa"]]
                  + [(u, "land", air_value(content, state, u, place, False))
                     for u in segs[s]["over"]]
                  + [(u, "land", land_value(content, state, u, attacker, place))
                     for u in segs[s]["land"]])
        for uid, pool, value in firing:
            if value <= 0:
                continue                                        # 6.4.2: a 0 never fires
            rolls = [rng.d6() for _ in range(shots(state, uid))]
            scored = sum(1 for d in rolls if d <= value)
            hits[e][pool] += scored
            log.append([uid, pool, value, rolls, scored])
    return hits, log


def can_fire(content: Content, state: PasaranState, place: str) -> bool:
    segs = segments(content, state, place)
    for s in B.SIDES:
        attacker = s == state.active
        if segs[s]["air"] or segs[s]["aa"]:
            return True
        if any(air_value(content, state, u, place, False) > 0 for u in segs[s]["over"]):
            return True
        if any(land_value(content, state, u, attacker, place) > 0 and shots(state, u)
               for u in segs[s]["land"]):
            return True
    return False


# ----- hits (6.4.7) ------------------------------------------------------------------------
def candidates(content: Content, state: PasaranState, side: str, pool: str) -> list[str]:
    """Units that may take a hit of `pool`, flips before eliminations, weakest first (the
    first is the timeout default)."""
    place = state.combat["place"] if state.combat else ""
    units = [u for u in B.units_at(state, place, side)
             if (state.units[u]["kind"] == "air") == (pool == "air")]
    trench = [TRENCH] if pool == "land" and ready_trenches(state, place, side) else []

    def key(u: str) -> tuple[int, int, str]:
        flips = state.units[u]["face"] == "front" and content.unit(u).back is not None
        return (0 if flips else 1, B.strength(content, state, u), u)

    return trench + sorted(units, key=key)


TRENCH = "trench"
"""9.5: the loss candidate standing for a finished trench of the side in the combat's place."""


def ready_trenches(state: PasaranState, place: str | None, side: str) -> list[dict]:
    return [t for t in state.trenches if t["place"] == place and t["side"] == side and t["done"]]


def capacity(content: Content, state: PasaranState, units: list[str], side: str) -> int:
    """How many hits the candidates can absorb (two for a unit with a back on its front)."""
    place = state.combat["place"] if state.combat else None
    units = [u for u in units if u != TRENCH]
    return len(ready_trenches(state, place, side)) + sum(
        2 if state.units[u]["face"] == "front" and content.unit(u).back is not None else 1
        for u in units)


def take_hit(content: Content, state: PasaranState, uid: str, events: list[Event]) -> None:
    """A hit flips a unit with a back; otherwise, or a second time, it is eliminated: HQs wait
    for a rebuild (7.3.2), other units go back to the pool. A trench absorbs one and is gone."""
    if uid == TRENCH:
        assert state.combat is not None
        place = state.combat["place"]
        side = B.ENEMY[state.active] if ready_trenches(
            state, place, B.ENEMY[state.active]) else state.active
        state.trenches.remove(ready_trenches(state, place, side)[0])
        events.append(Event("trench_lost", {"place": place, "side": side}))
        return
    r = state.units[uid]
    if r["face"] == "front" and content.unit(uid).back is not None:
        r["face"] = "back"
        events.append(Event("flipped", {"unit": uid}))
        return
    r.update(at=None, face="front", status="dead" if r["kind"] == "hq" else "pool")
    events.append(Event("eliminated", {"unit": uid}))


def auto_losses(content: Content, state: PasaranState, events: list[Event]) -> str | None:
    """Apply every hit that leaves no choice (surplus hits are lost); return the side that must
    choose a unit for its next hit, inactive side first, or None when all are applied."""
    c = state.combat
    assert c is not None
    for side in (B.ENEMY[state.active], state.active):
        for pool in ("air", "land"):
            while c["hits"][side][pool] > 0:
                units = candidates(content, state, side, pool)
                if not units:
                    c["hits"][side][pool] = 0
                elif len(units) == 1 or capacity(content, state, units, side) <= c["hits"][side][
                        pool]:
                    c["hits"][side][pool] -= 1
                    take_hit(content, state, units[0], events)
                else:
                    return side
    return None


def pending_pool(state: PasaranState, side: str) -> str:
    c = state.combat
    assert c is not None
    return "air" if c["hits"][side]["air"] > 0 else "land"


# ----- retreat (6.4.8, 6.4.9) --------------------------------------------------------------
def retreat_places(content: Content, state: PasaranState, side: str,
                   count: int | None = None) -> list[str]:
    """Where a side's land units (all of them, or `count` of them) may retreat to: a
    neighbouring friendly area, or the city or area of the combat's place when friendly, or
    the city of a neighbouring friendly area (a city within one move, see RULES.md); failing
    those, a place both sides occupy."""
    c = state.combat
    assert c is not None
    place = c["place"]
    moving = len(B.land_at(state, place, side)) if count is None else count
    if not moving:
        return []
    area = B.area_of(place)
    near: list[str] = []
    if B.is_city(place):
        near = [area]
    else:
        near = [b for b in content.area(area).adjacent if content.area(b).kind == "land"]
        if content.area(area).city is not None:
            near.append(B.city_of(area))
        near += [B.city_of(b) for b in near if not B.is_city(b) and content.area(b).city
                 is not None and B.friendly_area(content, state, b, side)]
    good = []
    for p in near:
        if B.is_city(p):
            ok = (B.holder(state, p) == side and not B.enemy_in(state, p, side)
                  and len(B.land_at(state, p, side)) + moving <= content.tables.city_stack)
        else:
            ok = B.friendly_area(content, state, p, side) and not B.contested(state, p)
        if ok and B.room(content, state, p, side, moving):
            good.append(p)
    if good:
        return sorted(good)
    return sorted(p for p in near if B.contested(state, p))


def air_home(content: Content, state: PasaranState, uid: str) -> str | None:
    """The nearest friendly area within 2 of the aircraft's place (6.3.1, 6.4.8)."""
    r = state.units[uid]
    start = B.area_of(r["at"])
    dist = B.distances(content, start, content.tables.air_mission_return,
                       lambda a: content.area(a).kind != "neutral")
    homes = [a for a in dist if B.friendly_area(content, state, a, r["side"])
             and B.room(content, state, a, r["side"])]
    return min(homes, key=lambda a: (dist[a], a)) if homes else None


def send_home(content: Content, state: PasaranState, uid: str, events: list[Event]) -> None:
    home = air_home(content, state, uid)
    if home is None:
        r = state.units[uid]
        r.update(at=None, face="front", status="pool")
        events.append(Event("eliminated", {"unit": uid, "why": "no friendly area within reach"}))
        return
    B.move_to(state, uid, home)
    events.append(Event("landed", {"unit": uid, "at": home}))


def send_back(content: Content, state: PasaranState, side: str, uid: str, dest: str,
              events: list[Event]) -> bool:
    """6.4.8, units retreating to different places: one land unit goes; True once the side's
    last land unit has left (its aircraft then fly home)."""
    c = state.combat
    assert c is not None
    B.move_to(state, uid, dest)
    events.append(Event("sent_back", {"unit": uid, "to": dest}))
    if B.contested(state, dest) and dest not in state.attacks:
        state.attacks.append(dest)
    if B.land_at(state, c["place"], side):
        return False
    retreat(content, state, side, None, events, aircraft_only=True)
    return True


def retreat(content: Content, state: PasaranState, side: str, dest: str | None,
            events: list[Event], aircraft_only: bool = False) -> None:
    c = state.combat
    assert c is not None
    place = c["place"]
    for uid in B.units_at(state, place, side):
        if state.units[uid]["kind"] == "air":
            send_home(content, state, uid, events)
        elif not aircraft_only:
            if dest is None:
                take_hit(content, state, uid, events)           # nowhere to go: lost
                if state.units[uid]["status"] == "map":
                    take_hit(content, state, uid, events)
            else:
                B.move_to(state, uid, dest)
    events.append(Event("retreated", {"side": side, "place": place, "to": dest,
                                      "aircraft_only": aircraft_only}))
    if dest is not None and B.contested(state, dest) and dest not in state.attacks:
        state.attacks.append(dest)


# ----- the flow of one combat --------------------------------------------------------------
def start(state: PasaranState, place: str, events: list[Event]) -> None:
    if place in state.attacks:
        state.attacks.remove(place)
    if B.is_city(place) and B.area_of(place) not in state.sieged:
        state.sieged.append(B.area_of(place))     # 6.4.5: a city attacked is not also besieged
    state.combat = {"place": place, "round": 0, "stage": "start", "ask": [], "must": None,
                    "hits": {s: {"air": 0, "land": 0} for s in B.SIDES}}
    events.append(Event("combat", {"place": place}))


def advance(content: Content, state: PasaranState, rng: Rng, events: list[Event]) -> bool:
    """Run the combat until a side must decide (True) or it is over (False)."""
    while state.combat is not None:
        c = state.combat
        place = c["place"]
        if c["stage"] == "losses":
            if auto_losses(content, state, events) is not None:
                return True
            c["stage"] = "after"
        if c["stage"] in ("start", "after"):
            sides = [s for s in B.SIDES if B.units_at(state, place, s)]
            if len(sides) < 2:
                finish(content, state, events)
                return False
            if c["stage"] == "after" and _forced_air(content, state, events):
                continue
            if c["stage"] == "start" and state.chits:
                H.begin(content, state, rng, events)             # 9.4: before the combat
                c["stage"] = "chits"
            if c["stage"] == "after":
                if not can_fire(content, state, place):       # 6.4.10 decision, see RULES.md
                    c["must"], c["ask"] = state.active, [state.active]
                else:
                    c["ask"] = [s for s in (state.active, B.ENEMY[state.active])
                                if retreat_places(content, state, s) or _has_air_and_land(
                                    state, place, s)]
                c["stage"] = "ask"
            elif c["stage"] == "start":
                c["stage"] = "fire"
        if c["stage"] == "chits":
            if c["chit_ask"]:
                return True
            c["stage"] = "fire"
        if c["stage"] == "ask":
            if c["must"] is not None and not retreat_places(content, state, c["must"]):
                retreat(content, state, c["must"], None, events)
                c["ask"], c["must"], c["stage"] = [], None, "after"
                continue
            if c["ask"]:
                return True
            c["stage"] = "fire"
        if c["stage"] == "fire" and c.get("declared_for") != c["round"] + 1:
            c["declared_for"], c["declared"] = c["round"] + 1, {}
            c["declare_ask"] = [s for s in (state.active, B.ENEMY[state.active])
                                if surplus(state, place, s) != (0, 0)]
            c["stage"] = "declare"
        if c["stage"] == "declare":
            if c["declare_ask"]:
                return True                                 # 6.5.3: each side declares
            c["stage"] = "fire"
        if c["stage"] == "fire":
            c["round"] += 1
            hits, log = _fire(content, state, rng, place)
            c["hits"] = hits
            events.append(Event("round", {"place": place, "round": c["round"], "fire": log}))
            c["stage"] = "losses"
    return False


def _has_air_and_land(state: PasaranState, place: str, side: str) -> bool:
    kinds = {state.units[u]["kind"] == "air" for u in B.units_at(state, place, side)}
    return kinds == {True, False}


def _forced_air(content: Content, state: PasaranState, events: list[Event]) -> bool:
    """6.4.9: aircraft alone in the place leave at once (the active side's if both)."""
    place = state.combat["place"]  # type: ignore[index]
    alone = [s for s in (state.active, B.ENEMY[state.active])
             if not B.land_at(state, place, s) and B.units_at(state, place, s)]
    if not alone:
        return False
    retreat(content, state, alone[0], None, events, aircraft_only=True)
    return True


def finish(content: Content, state: PasaranState, events: list[Event]) -> None:
    """6.4.10, 6.6: the side left holds the place if it has land units there; its aircraft stay
    only in an area it holds, else they fly home."""
    c = state.combat
    assert c is not None
    place = c["place"]
    left = [s for s in B.SIDES if B.units_at(state, place, s)]
    if left:
        winner = left[0]
        if B.land_at(state, place, winner) and B.holder(state, place) != winner:
            B.set_holder(state, place, winner)
            events.append(Event("taken", {"place": place, "side": winner}))
        for uid in B.units_at(state, place, winner):
            if state.units[uid]["kind"] == "air" and (
                    B.is_city(place) or B.holder(state, place) != winner):
                send_home(content, state, uid, events)
    events.append(Event("combat_over", {"place": place, "winner": left[0] if left else None}))
    H.put_back(state)
    state.combat = None


# ----- siege (6.4.5) -----------------------------------------------------------------------
def siege_targets(content: Content, state: PasaranState, side: str) -> list[str]:
    """Areas the side holds with its land units around an enemy-held city with defenders; a
    siege replaces an attack on the city, so not a city attacked in this segment."""
    out = []
    for a in content.map.areas:
        if a.city is None or a.id in state.sieged or state.control.get(a.id) != side:
            continue
        city = B.city_of(a.id)
        if city in state.attacks:
            continue
        if (B.holder(state, city) != side and B.land_at(state, city, B.ENEMY[side])
                and B.land_at(state, a.id, side) and not B.contested(state, a.id)):
            out.append(a.id)
    return out


def siege(content: Content, state: PasaranState, area: str, rng: Rng,
          events: list[Event]) -> None:
    """The strongest land unit on each side rolls one unmodified die; a side wiped out loses
    its place to the other; both wiped out, nothing changes hands."""
    side = state.active
    assert side is not None
    city = B.city_of(area)
    state.sieged.append(area)
    besieger = max(B.land_at(state, area, side), key=lambda u: (B.strength(content, state, u), u))
    defender = max(B.land_at(state, city, B.ENEMY[side]),
                   key=lambda u: (B.strength(content, state, u), u))
    rolls = {u: rng.d6() for u in (besieger, defender)}
    hit_defender = rolls[besieger] <= chart(content, B.strength(content, state, besieger))
    hit_besieger = rolls[defender] <= chart(content, B.strength(content, state, defender))
    events.append(Event("siege", {"area": area, "rolls": rolls}))
    if hit_defender:
        take_hit(content, state, defender, events)
    if hit_besieger:
        take_hit(content, state, besieger, events)
    city_gone = not B.land_at(state, city, B.ENEMY[side])
    area_gone = not B.land_at(state, area, side)
    if city_gone and not area_gone:
        B.set_holder(state, city, side)
        events.append(Event("taken", {"place": city, "side": side}))
    elif area_gone and not city_gone:
        B.set_holder(state, area, B.ENEMY[side])
        events.append(Event("taken", {"place": area, "side": B.ENEMY[side]}))


def auto_losses_side(content: Content, state: PasaranState) -> str | None:
    """The side whose choice of a unit for a hit is awaited (`advance` has already applied every
    hit that leaves no choice)."""
    c = state.combat
    if c is None or c["stage"] != "losses":
        return None
    for side in (B.ENEMY[state.active], state.active):
        if c["hits"][side]["air"] > 0 or c["hits"][side]["land"] > 0:
            return side
    return None
