"""Resolving hits (Rulebook, Disparo y cuerpo a cuerpo; Heridas; Chequeo de pericia; Blindajes;
Caídas de vehículos, o edificios). Every die rolled goes into an event."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.bandas import geometry as G
from partida.games.bandas import world as W
from partida.games.bandas.content import load
from partida.games.bandas.state import DOWN, OUT, PRONE, STANDING, STUNNED, BandasState

PTS = load().points
HIGH = 10.0     # Caídas: above this height (cm) a fall takes two checks


def has(state: BandasState, mid: str, skill: str) -> bool:
    return skill in state.models[mid]["skills"]


def pericia(state: BandasState, mid: str) -> int:
    """A model's pericia now: its grade's, +1 driving with the ace driver skill (Conducción de
    primera), + a drugs bonus taken in its own activation."""
    m = state.models[mid]
    value = PTS.grades[m["grade"]].pericia
    if m["role"] == "driver" and has(state, mid, "ace_driver"):
        value += 1
    return value + _drug(state, mid, "pericia")


def weapon_skill(state: BandasState, mid: str) -> int:
    return PTS.grades[state.models[mid]["grade"]].ws + _drug(state, mid, "ws")


def _drug(state: BandasState, mid: str, what: str) -> int:
    a = state.active
    return 1 if a is not None and a["unit"] == mid and a.get("drug") == what else 0


def check(state: BandasState, mid: str, rng: Rng, ev: list[Event], why: str) -> bool:
    """A pericia check (Rulebook, Chequeo de pericia): a d6 at or under the pericia passes."""
    roll, value = rng.d6(), pericia(state, mid)
    ok = roll <= value
    ev.append(Event("pericia_check", {"model": mid, "roll": roll, "pericia": value, "passed": ok,
                                      "why": why}))
    return ok


def opposed(rng: Rng, ws: int, per: int, ev: list[Event], attacker: str, target: str) -> bool:
    """Rulebook, Disparo y cuerpo a cuerpo: d6 + weapon skill against d6 + pericia; only a
    strictly higher attacker's total hits."""
    a, d = rng.d6(), rng.d6()
    hit = a + ws > d + per
    ev.append(Event("attack_roll", {"attacker": attacker, "target": target, "roll": a, "ws": ws,
                                    "defence_roll": d, "pericia": per, "hit": hit}))
    return hit


def save_needed(state: BandasState, mid: str, save_mod: int) -> int | None:
    """The d6 score a model's armour saves on, None without armour (Rulebook, Armamento,
    blindaje: no armour, no save; a weapon's modifier can push it past 6: no save either).
    Assault armour improves a worn armour's save by one."""
    m = state.models[mid]
    if not m["armour"]:
        return None
    need = PTS.armour[m["armour"]].save - (1 if has(state, mid, "assault_armour") else 0)
    need += save_mod
    return need if need <= 6 else None


def saves(state: BandasState, mid: str, save_mod: int, rng: Rng, ev: list[Event]) -> bool:
    need = save_needed(state, mid, save_mod)
    if need is None:
        return False
    roll = rng.d6()
    ok = roll >= need
    ev.append(Event("save", {"model": mid, "roll": roll, "needed": need, "saved": ok}))
    return ok


WOUNDS = {1: DOWN, 2: DOWN, 3: STUNNED, 4: STUNNED, 5: OUT, 6: OUT}


def wound(state: BandasState, mid: str, rng: Rng, ev: list[Event]) -> str:
    """Roll on the wound table (Rulebook, Heridas). Regenerative skin ignores 1-4; the amulet
    cancels the first out-of-action of the match. A worse state never improves a model."""
    roll = rng.d6()
    result = WOUNDS[roll]
    m = state.models[mid]
    if result != OUT and has(state, mid, "regenerative_skin"):
        result = "none"
    elif result == OUT and has(state, mid, "amulet") and not m["amulet_used"]:
        m["amulet_used"] = True
        result = "amulet"
    ev.append(Event("wound", {"model": mid, "roll": roll, "result": result}))
    if result in (DOWN, STUNNED, OUT):
        worsen(state, mid, result, ev)
    return result


_RANK = {STANDING: 0, PRONE: 1, DOWN: 2, STUNNED: 3, OUT: 4}


def worsen(state: BandasState, mid: str, status: str, ev: list[Event]) -> None:
    m = state.models[mid]
    if status != OUT and m["status"] != OUT:
        # Heridas, Caídas: getting up (or over a stun) happens in the *next* turn, so a model
        # laid low before its activation has lost that activation.
        m["activated"] = True
    if _RANK[status] <= _RANK[m["status"]]:
        return
    m["status"] = status
    if status == OUT:
        _out(state, mid, ev)


def _out(state: BandasState, mid: str, ev: list[Event]) -> None:
    """Out of action: taken off the table; a crate it carried drops where it was."""
    m = state.models[mid]
    x, y = state.place(mid)
    drop_loot(state, mid, ev)
    m.update(x=x, y=y, vehicle=None, role=None, roof=None)
    ev.append(Event("out_of_action", {"model": mid}))


def drop_loot(state: BandasState, mid: str, ev: list[Event]) -> None:
    """The crates a model carries drop where it stands."""
    m = state.models[mid]
    if m["loot"]:
        x, y = state.place(mid)
        state.loot.extend([[x, y]] * m["loot"])
        ev.append(Event("loot_dropped", {"model": mid, "crates": m["loot"], "at": [x, y]}))
        m["loot"] = 0


def hit(state: BandasState, mid: str, rng: Rng, ev: list[Event], save_mod: int = 0) -> None:
    """A hit landed on a model: armour save, the wound table, then a push if it stood near a
    roof edge or rode a moving vehicle (Rulebook, Caídas)."""
    if saves(state, mid, save_mod, rng, ev):
        return
    wound(state, mid, rng, ev)
    if state.models[mid]["status"] != OUT:
        push_if_exposed(state, mid, rng, ev)


def charged(state: BandasState, mid: str, save_mod: int, rng: Rng, ev: list[Event]) -> None:
    """A downed or stunned model attacked in melee is not rolled against: unless its armour
    saves it goes to stunned (from down) or out of action (from stunned) (Rulebook, Heridas;
    see RULES.md on 'charged'); an unused amulet cancels that out of action (Amuletos); a
    downed model with regenerative skin cannot be stunned, so it stays down (Piel
    regenerativa)."""
    if saves(state, mid, save_mod, rng, ev):
        return
    m = state.models[mid]
    status = STUNNED if m["status"] == DOWN else OUT
    if status == STUNNED and has(state, mid, "regenerative_skin"):
        pass                            # Piel regenerativa: stunned does not apply, it stays down
    elif status == OUT and has(state, mid, "amulet") and not m["amulet_used"]:
        m["amulet_used"] = True         # Amuletos: one out of action ignored, it stays stunned
    else:
        worsen(state, mid, status, ev)
    ev.append(Event("charged_while_down", {"model": mid, "now": state.models[mid]["status"]}))


def push_if_exposed(state: BandasState, mid: str, rng: Rng, ev: list[Event]) -> None:
    m = state.models[mid]
    roof = W.roof_block(state, mid)
    moving = bool(m["vehicle"]) and state.vehicles[m["vehicle"]]["moving"]
    if not moving and not (roof is not None and G.near_edge(roof, state.place(mid))):
        return
    direction, dist = rng.scatter(), rng.d6()
    push(state, mid, G.scatter_angle(direction), dist, rng, ev, {"scatter": direction})


def push(state: BandasState, mid: str, angle: float, dist: float, rng: Rng, ev: list[Event],
         why: dict) -> None:
    """Push a model `dist` cm; leaving its roof or its vehicle it falls (Rulebook, Caídas)."""
    m = state.models[mid]
    start = state.place(mid)
    t = W.table(state)
    skip = frozenset(v for v in (m["vehicle"],) if v)
    end = G.pushed(start, angle, dist, W.blocks(state, skip), t.width, t.height)
    end = _short_of_bases(state, mid, start, end)
    ev.append(Event("pushed", {"model": mid, "from": list(start), "to": list(end), "cm": dist,
                               **why}))
    if m["vehicle"]:
        v = state.vehicles[m["vehicle"]]
        if W.vehicle_shape(state, m["vehicle"]).shape.contains(G.Point(end)):
            return
        m.update(vehicle=None, role=None, x=end[0], y=end[1], roof=None)
        fall(state, mid, 99.0 if v["moving"] else PTS.vehicles[v["kind"]].height,
             rng, ev)
        return
    roof = W.roof_block(state, mid)
    m.update(x=end[0], y=end[1])
    if roof is not None and not roof.shape.contains(G.Point(end)):
        m["roof"] = None
        fall(state, mid, roof.height, rng, ev)


def _short_of_bases(state: BandasState, mid: str, start: tuple[float, float],
                    end: tuple[float, float]) -> tuple[float, float]:
    """Where a push from `start` towards `end` stops short of the bases of the other models
    standing on the level it crosses (see RULES.md, pushes): the ground, or the roof it
    starts on while its centre is over that roof. Riders are inside their vehicle."""
    m = state.models[mid]
    length = G.distance(start, end)
    if length <= 1e-9:
        return end
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    roof = W.roof_block(state, mid)
    reach = 2 * G.RADIUS
    stop = length
    for oid, o in state.models.items():
        if oid == mid or o["vehicle"] or not state.in_play(oid):
            continue
        cx, cy = o["x"] - start[0], o["y"] - start[1]
        along = cx * ux + cy * uy
        across = abs(cx * uy - cy * ux)
        if along <= 0 or across >= reach:
            continue                    # behind the push, or beside its path
        s = along - (reach * reach - across * across) ** 0.5
        if s < 0:
            continue                    # already touching: the push moves it away
        p = (start[0] + s * ux, start[1] + s * uy)
        over_roof = roof is not None and roof.shape.contains(G.Point(p))
        level = roof.id if over_roof and roof is not None else None
        if m["vehicle"] and W.vehicle_shape(state, m["vehicle"]).shape.contains(G.Point(p)):
            continue                    # still aboard there: ground models are below
        if o["roof"] == level:
            stop = min(stop, s)
    if stop >= length:
        return end
    return (start[0] + stop * ux, start[1] + stop * uy)


def fall(state: BandasState, mid: str, drop: float, rng: Rng, ev: list[Event]) -> None:
    """Rulebook, Caídas: one pericia check up to 10 cm, two above it or from a moving vehicle
    (`drop` 99); gelatinous body: none up to 10 cm, else one. Each failure is a roll on the
    wound table; passing them all leaves the model prone."""
    checks = 1 if drop <= HIGH else 2
    if has(state, mid, "gelatinous_body"):
        checks -= 1
    ev.append(Event("fell", {"model": mid, "height": drop, "checks": checks}))
    for _ in range(checks):
        if not check(state, mid, rng, ev, "fall"):
            wound(state, mid, rng, ev)
        if state.models[mid]["status"] == OUT:
            return
    worsen(state, mid, PRONE, ev)
