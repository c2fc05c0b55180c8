"""What a character may do (rulebook 4.2 action phase, 5 Actions) and carrying it out. The same
code serves an active character's turn and the single action of an ambush (5.7) or of an
out-of-turn joker."""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.dynamit_joe.content import load
from partida.games.dynamit_joe.geometry import OUTSIDE, Sight, geometry
from partida.games.dynamit_joe.state import JoeState

TURN, AMBUSH, INSTINCT, ADRENALINE = "turn", "ambush", "instinct", "adrenaline"
WOUNDS = {"wound1": 1, "wound2": 2, "panic_wound1": 1}


def kind(state: JoeState, oid: str) -> str:
    return str(state.objects[oid]["kind"])


def spec(kind_name: str) -> Any:
    return load().objects.kind(kind_name)


def open_locks(state: JoeState) -> set[str]:
    return {lock for lock, holds in state.locks.items() if not holds} | _unused_locks(state)


def _unused_locks(state: JoeState) -> set[str]:
    """Locks a scenario does not close stand open."""
    return {link.lock for link in load().board.links
            if link.lock and link.lock not in state.locks}


def sees(state: JoeState, a: str, t: str, over_fences: bool = False) -> Sight:
    """Line of sight from character `a` to character `t` (6.1, 6.2)."""
    ca, ct = state.chars[a], state.chars[t]
    return geometry().sight(ca["zone"], ct["zone"], state.occupied(),
                            ct["fired_outside"], over_fences)


def level(state: JoeState, att: str, target_zone: str, behind: bool, harder: int = 0,
          consume: bool = False) -> int:
    """The marksmen pile (0 easy, 1 average, 2 hard) from the three disadvantages of 7.1, one
    step harder per `harder`, moved by panic luck cards and the sharpshooter joker."""
    c = state.chars[att]
    far = geometry().distance[c["zone"]][target_zone] > 1
    n = int(far) + int(behind) + int(c["wounds"] > 0)
    lv = min(n, 2) + harder - c["luck"] - int(c["sharp"])
    if consume:
        c["luck"], c["sharp"] = 0, False
    return max(0, min(2, lv))


def targets(state: JoeState, n: str, reach: int, over_fences: bool = False) -> list[str]:
    """Opponents on the board within `reach` zones and in sight of `n`."""
    me = state.chars[n]
    dist = geometry().distance[me["zone"]]
    out = []
    for t in state.order:
        ct = state.chars[t]
        if t == n or not state.enemies(n, t) or ct["dead"] or ct["left"] or ct["captured"]:
            continue
        if dist[ct["zone"]] <= reach and sees(state, n, t, over_fences).visible:
            out.append(t)
    return out


def room_for(state: JoeState, n: str, oid: str) -> bool:
    """At most two guns and two other objects (2.5, 5.6)."""
    c = state.chars[n]
    cfg = load().objects
    obj = state.objects[oid]
    if obj.get("face_down") or not spec(obj["kind"]).gun:
        return len(c["objects"]) < cfg.max_objects
    return len(c["guns"]) < cfg.max_guns


def ground(state: JoeState, zone: str) -> list[str]:
    return sorted(o for o, obj in state.objects.items() if obj["zone"] == zone)


def _loaded(state: JoeState, g: str) -> bool:
    obj = state.objects[g]
    return obj["ammo"] > 0 and not obj["jammed"]


def _colts(state: JoeState, n: str) -> list[str]:
    return [g for g in state.chars[n]["guns"] if kind(state, g) == "colt" and _loaded(state, g)]


def _friends_here(state: JoeState, n: str) -> list[str]:
    me = state.chars[n]
    return [f for f in state.in_zone(me["zone"]) if f != n and not state.enemies(n, f)
            and state.standing(f)]


def options(state: JoeState, n: str, mode: str, ap: int = 1) -> list[tuple[str, str]]:
    """(action id, description) pairs open to character `n`."""
    c = state.chars[n]
    out: list[tuple[str, str]] = []
    if mode in (TURN, AMBUSH, ADRENALINE) and ap >= 1:
        out += _moves(state, n, mode, ap)
    if mode in (TURN, AMBUSH, INSTINCT) and ap >= 1:
        out += _shots(state, n, mode)
    if mode in (TURN, AMBUSH) and ap >= 1:
        out += _other(state, n)
    if mode == TURN:
        if _crowded(state, n):
            out += [(f"drop:{o}", f"{n} drops the {kind(state, o)} (free)")
                    for o in state.held(n)]
        if ap >= 2 and not c["ambush"]:
            out.append(("ambush", f"{n} lays an ambush (2 points)"))
        out += _own_jokers(state, n)
        out.append(("end", f"{n} ends the turn"))
    return out


def _moves(state: JoeState, n: str, mode: str, ap: int) -> list[tuple[str, str]]:
    c = state.chars[n]
    geo = geometry()
    windows_cost = 2 if state.options.get("windows_cost_two") else 1
    locks = open_locks(state)
    out = []
    reach: dict[str, int] = {}
    for o, link in geo.moves(c["zone"], locks):
        cost = windows_cost if link.kind == "window" else 1
        if cost <= ap and (mode == TURN or cost == 1):
            reach[o] = cost
    if c["speed"] and mode == TURN:   # the speed joker: two zones for one point
        # Not on from a window that costs two (8.2): the step would come out cheaper.
        for first in [z for z, k in reach.items() if k == 1]:
            for o, link in geo.moves(first, locks):
                if o != c["zone"] and o not in reach and link.kind != "window":
                    reach[o] = 1
    for o in sorted(reach):
        out.append((f"move:{o}", f"{n} moves to {geo.zones[o].name} ({reach[o]} point(s))"))
    if mode == TURN:
        captives = [t for t in state.in_zone(c["zone"]) if state.chars[t]["tied"]]
        if captives:
            out += [(f"drag:{o}", f"{n} moves to {geo.zones[o].name} dragging {captives[0]}")
                    for o in sorted(reach) if reach[o] <= 1]
        side = load().scenario(state.scenario).sides
        if geo.zones[c["zone"]].edge and any(s.can_leave and s.id == c["side"] for s in side):
            out.append(("leave", f"{n} leaves the board with what he carries"))
    return out


def _shots(state: JoeState, n: str, mode: str) -> list[tuple[str, str]]:
    c = state.chars[n]
    out = []
    for g in c["guns"]:
        if not _loaded(state, g):
            continue
        k = kind(state, g)
        for t in targets(state, n, spec(k).range):
            out.append((f"shoot:{g}:{t}", f"{n} fires the {k} at {t}"))
            if mode != INSTINCT and k == "shotgun" and state.objects[g]["ammo"] >= 2:
                out.append((f"double:{g}:{t}", f"{n} fires both barrels at {t}"))
    colts = _colts(state, n)
    if mode != INSTINCT and len(colts) == 2:
        for t in targets(state, n, spec("colt").range):
            out.append((f"double:colts:{t}", f"{n} fires both colts at {t}"))
    return out


def _other(state: JoeState, n: str) -> list[tuple[str, str]]:
    c = state.chars[n]
    geo = geometry()
    out = []
    for g in c["guns"]:
        obj = state.objects[g]
        if obj["ammo"] < spec(obj["kind"]).capacity:
            out.append((f"reload:{g}", f"{n} loads one bullet into the {obj['kind']}"))
    for o in state.held(n):
        if state.objects[o]["jammed"]:
            out.append((f"unjam:{o}", f"{n} clears the jammed {kind(state, o)}"))
    for g in c["guns"]:   # 5.2: with two guns, the shooter names the one he fires
        if not _loaded(state, g):
            continue
        for other, link in geo.links[c["zone"]]:
            if link.lock and state.locks.get(link.lock) and link.kind == "door":
                out.append((f"lock:{g}:{link.lock}",
                            f"{n} shoots at the lock to {other} with the {kind(state, g)}"))
    objs = c["objects"]
    occupied = state.occupied()
    for o in objs:
        obj = state.objects[o]
        if obj["kind"] == "dynamite" and not obj["jammed"]:
            for z in geo.ids:
                d = geo.distance[c["zone"]][z]
                if 1 <= d <= spec("dynamite").range and geo.sight(
                        c["zone"], z, occupied, True, over_fences=True).visible:
                    out.append((f"dyn:{o}:{z}", f"{n} throws dynamite at {geo.zones[z].name}"))
        if obj["kind"] == "knife":
            for t in targets(state, n, spec("knife").range):
                if state.chars[t]["zone"] != c["zone"]:
                    out.append((f"knife:{o}:{t}", f"{n} throws a knife at {t}"))
        if obj["kind"] == "whisky":
            out.append((f"drink:{o}", f"{n} drinks the whisky"))
    if any(kind(state, o) == "knife" for o in objs):
        for t in state.in_zone(c["zone"]):
            if t != n and state.enemies(n, t):   # a tied captive too (5.8, 9.6)
                out.append((f"stab:{t}", f"{n} attacks {t} with a knife"))
            if state.chars[t]["tied"]:
                out.append((f"free:{t}", f"{n} cuts {t}'s ropes"))
    out += [(f"pick:{o}", f"{n} picks up the {_shown(state, o)}")
            for o in ground(state, c["zone"]) if room_for(state, n, o)]
    for f in _friends_here(state, n):
        out += [(f"take:{o}", f"{n} takes {f}'s {kind(state, o)}")
                for o in state.held(f) if room_for(state, n, o)]
        out += [(f"give:{o}:{f}", f"{n} gives the {kind(state, o)} to {f}")
                for o in state.held(n) if room_for(state, f, o)]
    return out


def _crowded(state: JoeState, n: str) -> bool:
    """Dropping is offered when something here does not fit (5.6: drop to make room)."""
    c = state.chars[n]
    here = ground(state, c["zone"]) + [o for f in _friends_here(state, n) for o in state.held(f)]
    return any(not room_for(state, n, o) for o in here)


def _shown(state: JoeState, o: str) -> str:
    return "face-down marker" if state.objects[o].get("face_down") else kind(state, o)


def _own_jokers(state: JoeState, n: str) -> list[tuple[str, str]]:
    c = state.chars[n]
    j = c["joker"]
    if j is None:
        return []
    if j == "weaponsmith":
        return [(f"joker:weaponsmith:{o}", f"Weaponsmith: {n} repairs the {kind(state, o)}")
                for o in state.held(n) if state.objects[o]["jammed"]]
    if j == "rapid_loading":
        return [(f"joker:rapid_loading:{g}", f"Rapid loading: {n} fills the {kind(state, g)}")
                for g in c["guns"]
                if state.objects[g]["ammo"] < spec(kind(state, g)).capacity]
    if j == "energy":
        return [("joker:energy", f"Energy: {n} gains an action point")]
    if j == "mortal_fear":
        return [(f"joker:mortal_fear:{t}", f"Mortal fear: {t} draws a panic card")
                for t in state.order if state.enemies(n, t) and state.standing(t)]
    if j == "quick_pickup":
        return [(f"joker:quick_pickup:{o}", f"Quick pickup: {n} picks up the {_shown(state, o)}")
                for o in ground(state, c["zone"]) if room_for(state, n, o)]
    if j == "speed" and not c["speed"]:
        return [("joker:speed", f"Speed: {n}'s next move covers two zones")]
    if j == "sharpshooter" and not c["sharp"]:
        return [("joker:sharpshooter", f"Sharpshooter: {n}'s next shot is one step easier")]
    if j == "ambush" and not c["ambush"]:
        return [("end:ambush", f"Ambush joker: {n} ends the turn lying in ambush")]
    return []


# ----- carrying out ------------------------------------------------------------------------------

def cost(state: JoeState, n: str, aid: str) -> int:
    verb = aid.split(":", 1)[0]
    if verb in ("drop", "joker", "end"):
        return 0
    if verb == "ambush":
        return 2
    if verb in ("move", "drag") and state.options.get("windows_cost_two"):
        link = geometry().link(state.chars[n]["zone"], aid.split(":")[1])
        return 2 if link is not None and link.kind == "window" else 1
    return 1


def perform(state: JoeState, n: str, aid: str, rng: Rng, ev: list[Event]) -> None:
    """Carry out a legal action of `n`; hits and panics are queued for resolution."""
    verb, _, rest = aid.partition(":")
    _HANDLERS[verb](state, n, rest, rng, ev)


def drop_all(state: JoeState, n: str) -> None:
    c = state.chars[n]
    for o in state.held(n):
        state.objects[o].update(holder=None, zone=c["zone"])
    c["guns"], c["objects"] = [], []


def _take(state: JoeState, n: str, o: str) -> None:
    obj = state.objects[o]
    holder = obj["holder"]
    if holder is not None:
        h = state.chars[holder]
        for box in ("guns", "objects"):
            if o in h[box]:
                h[box].remove(o)
    obj.update(holder=n, zone=None, face_down=False)
    box = "guns" if spec(obj["kind"]).gun else "objects"
    state.chars[n][box].append(o)


def _release(state: JoeState, n: str, o: str, zone: str | None) -> None:
    c = state.chars[n]
    for box in ("guns", "objects"):
        if o in c[box]:
            c[box].remove(o)
    state.objects[o].update(holder=None, zone=zone)


def _move(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    c = state.chars[n]
    ev.append(Event("moved", {"character": n, "from": c["zone"], "to": rest}))
    c["zone"], c["speed"] = rest, False


def _drag(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    captive = next(t for t in state.in_zone(state.chars[n]["zone"]) if state.chars[t]["tied"])
    _move(state, n, rest, rng, ev)
    state.chars[captive]["zone"] = rest
    ev.append(Event("dragged", {"character": captive, "by": n, "to": rest}))


def _leave(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    c = state.chars[n]
    gold = sum(state.objects[o]["value"] for o in c["objects"] if kind(state, o) == "nugget")
    state.gold_off[c["side"]] = state.gold_off.get(c["side"], 0) + gold
    c["left"], c["ambush"] = True, False
    ev.append(Event("left_board", {"character": n, "zone": c["zone"], "gold": gold}))


def queue_hit(state: JoeState, **task: Any) -> None:
    base = {"t": "hit", "stage": "draw", "card": None, "res": None, "extra": 0, "gun": None,
            "tgt": None, "lock": None, "blast": None, "first": False}
    base.update(task)
    state.queue.append(base)


def _fire(state: JoeState, n: str, guns: list[str], t: str, ev: list[Event]) -> None:
    ct = state.chars[t]
    sight = sees(state, n, t)
    lv = level(state, n, ct["zone"], sight.behind_opening, consume=True)
    ev.append(Event("shot", {"character": n, "target": t, "guns": guns, "level": lv}))
    # Two cards of one action are drawn together, their panics after both (7.4).
    volley = {"volley": f"{'+'.join(guns)}>{t}"} if len(guns) > 1 else {}
    for g in guns:
        queue_hit(state, att=n, tgt=t, weapon=kind(state, g), gun=g, level=lv, mode="shot",
                  zone=ct["zone"], **volley)


def _shoot(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    g, t = rest.split(":")
    _fire(state, n, [g], t, ev)


def _double(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    g, t = rest.split(":")
    _fire(state, n, _colts(state, n) if g == "colts" else [g, g], t, ev)


def _lock(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    g, lock = rest.split(":")
    c = state.chars[n]
    lv = level(state, n, c["zone"], False, consume=True)
    ev.append(Event("shot", {"character": n, "target": lock, "guns": [g], "level": lv}))
    queue_hit(state, att=n, weapon=kind(state, g), gun=g, level=lv, mode="lock", lock=lock,
              zone=c["zone"])


def _reload(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    state.objects[rest]["ammo"] += 1
    ev.append(Event("reloaded", {"character": n, "object": rest,
                                 "ammo": state.objects[rest]["ammo"]}))


def _unjam(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    if state.options.get("jam_repair_by_card"):
        lv = 1 if state.chars[n]["wounds"] else 0
        queue_hit(state, att=n, weapon=kind(state, rest), gun=rest, level=lv, mode="repair",
                  zone=state.chars[n]["zone"])
        return
    state.objects[rest]["jammed"] = False
    ev.append(Event("unjammed", {"character": n, "object": rest}))


def _dyn(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    o, zone = rest.split(":")
    geo = geometry()
    _release(state, n, o, None)
    state.objects[o]["gone"] = True
    ev.append(Event("dynamite_thrown", {"character": n, "object": o, "zone": zone}))
    victims = [(t, level(state, n, zone, _behind(state, n, zone)))
               for t in state.in_zone(zone)]
    for z in geo.blast_zones(zone):
        victims += [(t, level(state, n, z, _behind(state, n, z), harder=1))
                    for t in state.in_zone(z)]
    state.chars[n]["luck"], state.chars[n]["sharp"] = 0, False
    blast = f"{o}@{zone}"
    first_level = victims[0][1] if victims else level(state, n, zone, _behind(state, n, zone))
    if not victims:
        queue_hit(state, att=n, weapon="dynamite", gun=o, level=first_level, mode="blast",
                  zone=zone, blast=blast, first=True)
    for i, (t, lv) in enumerate(victims):
        queue_hit(state, att=n, tgt=t, weapon="dynamite", gun=o, level=lv, mode="blast",
                  zone=zone, blast=blast, first=i == 0)
    bars = [link.lock for _, link in geo.links[zone]
            if link.lock and link.kind == "window" and state.locks.get(link.lock)]
    for lock in bars:
        queue_hit(state, att=n, weapon="dynamite", gun=o, level=first_level, mode="lock",
                  lock=lock, zone=zone, blast=blast)


def _behind(state: JoeState, n: str, zone: str) -> bool:
    """Whether blast victims in `zone` are behind a door or window for thrower `n` (7.1): in a
    building the stick entered through an opening, or right across an opening from him (the
    note of 7.1, as for shots). Thrown out of a building into the street, nobody is: the
    opening is the thrower's (6.2 A), as for a shot out of it."""
    geo = geometry()
    here = state.chars[n]["zone"]
    space = geo.zones[zone].space
    link = geo.link(here, zone)
    return (space not in (OUTSIDE, geo.zones[here].space)
            or (link is not None and link.at is not None))


def _knife(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    o, t = rest.split(":")
    ct = state.chars[t]
    sight = sees(state, n, t)
    lv = level(state, n, ct["zone"], sight.behind_opening, consume=True)
    _release(state, n, o, ct["zone"])
    ev.append(Event("knife_thrown", {"character": n, "target": t, "level": lv}))
    queue_hit(state, att=n, tgt=t, weapon="knife", gun=o, level=lv, mode="knife",
              zone=ct["zone"])


def _stab(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    zone = state.chars[n]["zone"]
    lv = level(state, n, zone, False, consume=True)
    ev.append(Event("knife_attack", {"character": n, "target": rest, "level": lv}))
    queue_hit(state, att=n, tgt=rest, weapon="knife", level=lv, mode="stab", zone=zone)


def _pick(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    was_hidden = bool(state.objects[rest].get("face_down"))
    _take(state, n, rest)
    obj = state.objects[rest]
    ev.append(Event("picked_up", {"character": n, "object": rest, "kind": obj["kind"],
                                  "value": obj["value"], "revealed": was_hidden}))


def _take_from(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    giver = state.objects[rest]["holder"]
    _take(state, n, rest)
    ev.append(Event("handed", {"object": rest, "from": giver, "to": n}))


def _give(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    o, f = rest.split(":")
    _take(state, f, o)
    ev.append(Event("handed", {"object": o, "from": n, "to": f}))


def _drop(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    _release(state, n, rest, state.chars[n]["zone"])
    ev.append(Event("dropped", {"character": n, "object": rest}))


def _drink(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    c = state.chars[n]
    _release(state, n, rest, None)
    state.objects[rest]["gone"] = True
    c["wounds"] = max(0, c["wounds"] - 1)
    ev.append(Event("drank", {"character": n, "wounds": c["wounds"]}))


def _ambush(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    state.chars[n]["ambush"] = True
    ev.append(Event("ambush_laid", {"character": n}))


def _free(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    state.chars[rest]["tied"] = False
    state.pool.append(rest)
    ev.append(Event("freed", {"character": rest, "by": n}))


def _joker(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    name, _, arg = rest.partition(":")
    c = state.chars[n]
    c["joker"] = None
    c["jokers_played"].append(name)
    ev.append(Event("joker_played", {"character": n, "joker": name, "target": arg}))
    if name == "weaponsmith":
        state.objects[arg]["jammed"] = False
    elif name == "rapid_loading":
        state.objects[arg]["ammo"] = spec(kind(state, arg)).capacity
    elif name == "energy":
        state.ap += 1
    elif name == "mortal_fear":
        state.queue.append({"t": "panic", "char": arg, "stage": "cold", "card": None})
    elif name == "quick_pickup":
        _pick(state, n, arg, rng, ev)
    elif name == "speed":
        c["speed"] = True
    elif name == "sharpshooter":
        c["sharp"] = True


def _end(state: JoeState, n: str, rest: str, rng: Rng, ev: list[Event]) -> None:
    if rest == "ambush":
        _joker(state, n, "ambush", rng, ev)
        _ambush(state, n, "", rng, ev)
    state.ap = 0
    state.active = None
    ev.append(Event("turn_ended", {"character": n}))


_HANDLERS = {
    "move": _move, "drag": _drag, "leave": _leave, "shoot": _shoot, "double": _double,
    "lock": _lock, "reload": _reload, "unjam": _unjam, "dyn": _dyn, "knife": _knife,
    "stab": _stab, "pick": _pick, "take": _take_from, "give": _give, "drop": _drop,
    "drink": _drink, "ambush": _ambush, "free": _free, "joker": _joker, "end": _end,
}
