"""Production at the end of the turn (7.3): building from the pool, repairs (7.3.2 and the
errata), rebuilding eliminated HQs; build times by unit type."""

from __future__ import annotations

from partida.engine import Event
from partida.games.pasaran import board as B
from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState


def cost(content: Content, uid: str) -> int:
    """7.3: infantry cost their front value, tanks and aircraft double."""
    u = content.unit(uid)
    return u.front * content.tables.cost_factor[u.kind]


def repair_cost(content: Content, uid: str) -> int:
    """7.3.2: the difference between front and back, doubled for tanks and aircraft; an HQ
    (0 on both faces) costs what a rebuild does."""
    u = content.unit(uid)
    if u.kind == "hq":
        return content.tables.hq_rebuild_cost
    return (u.front - (u.back or 0)) * content.tables.cost_factor[u.kind]


def may_repair(content: Content, state: PasaranState, uid: str) -> bool:
    """Errata to 7.3.2: repairs follow the reinforcement limits of 5.1 (where, not how many:
    the unit is already there)."""
    r = state.units[uid]
    places = B.reinforcement_places(content, state, r["side"], adding=False)
    return r["at"] in places or B.area_of(r["at"]) in places


def choices(content: Content, state: PasaranState, side: str) -> list[tuple[str, str]]:
    """What the side may pay for now; identical counters in the pool are offered once."""
    money = state.bp[side]
    out: list[tuple[str, str]] = [("end", "Production is finished")]
    seen = set()
    for uid in sorted(state.units):
        r = state.units[uid]
        if r["side"] != side:
            continue
        u = content.unit(uid)
        if r["status"] == "pool" and u.kind != "hq" and cost(content, uid) <= money:
            kind = (u.kind, u.front, u.back, u.tag)
            if kind not in seen:
                seen.add(kind)
                out.append((f"build:{uid}", f"Build {uid} for {cost(content, uid)} BP"))
        elif r["status"] == "dead" and content.tables.hq_rebuild_cost <= money:
            out.append((f"rebuild:{uid}", f"Rebuild HQ {u.name}"))
        elif (r["status"] == "map" and r["face"] == "back" and u.back is not None
              and repair_cost(content, uid) <= money and may_repair(content, state, uid)):
            out.append((f"repair:{uid}", f"Repair {uid} for {repair_cost(content, uid)} BP"))
    return out


def produce(content: Content, state: PasaranState, side: str, verb: str, uid: str,
            events: list[Event]) -> None:
    """Pay and carry out a build, rebuild (both arrive after the type's build time) or repair."""
    r = state.units[uid]
    tables = content.tables
    if verb == "repair":
        state.bp[side] -= repair_cost(content, uid)
        r["face"] = "front"
    else:
        price = tables.hq_rebuild_cost if verb == "rebuild" else cost(content, uid)
        state.bp[side] -= price
        r.update(status="queue", arrive=state.turn + tables.build_delay[r["kind"]])
    events.append(Event(verb, {"side": side, "unit": uid, "stored": state.bp[side]}))
