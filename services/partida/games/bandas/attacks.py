"""Shooting and melee blows with every weapon and skill that changes them (Rulebook, Disparos;
Cuerpo a cuerpo; Armamento, blindaje y chequeo de munición; Armamento de distancia; Armas de
combate cuerpo a cuerpo; Habilidades; Disparo desde / a vehículos)."""

from __future__ import annotations

import math

from partida.engine import Event, Rng
from partida.games.bandas import combat as C
from partida.games.bandas import geometry as G
from partida.games.bandas import vehicles as V
from partida.games.bandas import world as W
from partida.games.bandas.state import DOWN, OUT, STANDING, STUNNED, BandasState

PTS = C.PTS


def _ammo(state: BandasState, mid: str, rng: Rng, ev: list[Event], why: str) -> bool:
    """The ammunition check: 4+ passes; a failure stops its shooting now and it reloads (no
    shooting) at its next activation."""
    roll = rng.d6()
    ok = roll >= 4
    ev.append(Event("ammo_check", {"model": mid, "roll": roll, "passed": ok, "why": why}))
    if not ok:
        _out_of_ammo(state, mid)
    return ok


def _out_of_ammo(state: BandasState, mid: str) -> None:
    state.tally()["ammo_out"] = True
    state.models[mid]["reload"] = "due"


def shoot_modifier(state: BandasState, mid: str, target: str, weapon: str, shot: int) -> int:
    """What is added to the shooter's weapon skill for its shot number `shot` (0 first):
    −1 per earlier shot (not heavy automatics), −1 for 50% cover (not with laser vision, not
    at a huge target), −1 from a vehicle (not gunners nor marksmen), +1 laser rifle close."""
    spec = PTS.weapons[weapon]
    m = state.models[mid]
    mod = 0 if spec.free_multishot else -shot
    if target in state.models:
        covered = W.hidden(state, mid, target) >= G.COVERED
        if covered and not C.has(state, mid, "laser_vision") and not C.has(state, target, "huge"):
            mod -= 1
        reach = G.distance(state.place(mid), state.place(target))
    else:
        if W.hidden_vehicle(state, mid, target) >= G.COVERED and \
                not C.has(state, mid, "laser_vision"):
            mod -= 1
        reach = W.range_to_vehicle(state, mid, target)
    if spec.close_bonus and reach < spec.close_range:     # at any target, vehicles too
        mod += spec.close_bonus
    if m["vehicle"] and m["role"] != "gunner" and not C.has(state, mid, "marksman"):
        mod -= 1
    return mod


def shoot(state: BandasState, mid: str, target: str, weapon: str, rng: Rng,
          ev: list[Event]) -> None:
    """One shooting action: two shots with a pair of pistols, else one."""
    spec = PTS.weapons[weapon]
    shots = 2 if spec.pair and state.models[mid]["weapons"].count(weapon) == 2 else 1
    for _ in range(shots):
        if state.tally()["ammo_out"] or (target in state.models and not state.in_play(target)):
            return
        _one_shot(state, mid, target, weapon, rng, ev)


def _one_shot(state: BandasState, mid: str, target: str, weapon: str, rng: Rng,
              ev: list[Event]) -> None:
    a = state.tally()
    spec = PTS.weapons[weapon]
    mode = PTS.shotgun_modes[state.models[mid]["shotgun_ammo"]] if weapon == "shotgun" else None
    shot = a["shots"]
    a["shots"] += 1
    if shot >= 1 and not spec.free_multishot and not a["ammo_checked"]:
        a["ammo_checked"] = True        # two or more shots declared: one check (4+)
        if not _ammo(state, mid, rng, ev, "second shot"):
            return
    ev.append(Event("shot", {"model": mid, "target": target, "weapon": weapon, "shot": shot + 1}))
    if target in state.models and C.has(state, target, "mimetic_skin") and \
            not C.check(state, mid, rng, ev, "mimetic skin"):
        return
    ws = C.weapon_skill(state, mid) + shoot_modifier(state, mid, target, weapon, shot)
    save_mod = spec.save_mod + (mode.save_mod if mode else 0)
    if target in state.vehicles:
        _at_vehicle(state, mid, target, ws, save_mod, spec.harpoon, rng, ev)
    else:
        area = spec.area or (mode.area if mode else 0)
        bonus = mode.pericia_bonus if mode else 0
        for t in [target, *_around(state, target, area)]:
            if C.opposed(rng, ws, C.pericia(state, t) + bonus, ev, mid, t):
                C.hit(state, t, rng, ev, save_mod)
                if spec.push and state.models[t]["status"] != OUT:
                    _pulse_push(state, mid, t, rng, ev)
    if spec.reload:
        _out_of_ammo(state, mid)
        ev.append(Event("must_reload", {"model": mid, "weapon": weapon}))
    elif (spec.ammo_each_shot or (mode and mode.ammo_each_shot)) and not a["ammo_out"]:
        _ammo(state, mid, rng, ev, weapon)


def _around(state: BandasState, target: str, area: float) -> list[str]:
    """Other models in action within an area weapon's radius of its target."""
    if not area:
        return []
    at = state.place(target)
    return [o for o in state.models if o != target and state.in_play(o)
            and G.distance(state.place(o), at) <= area]


def _at_vehicle(state: BandasState, mid: str, vid: str, ws: int, save_mod: int, harpoon: bool,
                rng: Rng, ev: list[Event]) -> None:
    """Disparo a vehículos: the driver's pericia defends; a hit takes the vehicle's armour
    save, then the hit table. A harpoon that hits lets its shooter board without limits."""
    driver = state.driver(vid)
    per = C.pericia(state, driver) if driver else 0
    if not C.opposed(rng, ws, per, ev, mid, vid):
        return
    if harpoon:
        state.tally()["harpoon"] = vid
        ev.append(Event("harpooned", {"model": mid, "vehicle": vid}))
    if not V.armour_saves(state, vid, save_mod, rng, ev):
        V.hit_table(state, vid, rng, ev)


def _pulse_push(state: BandasState, mid: str, target: str, rng: Rng, ev: list[Event]) -> None:
    """Rifle de pulsos: the target is pushed 1d6 cm straight away from the shooter."""
    sx, sy = state.place(mid)
    tx, ty = state.place(target)
    angle = math.degrees(math.atan2(ty - sy, tx - sx))
    C.push(state, target, angle, rng.d6(), rng, ev, {"by": "pulse_rifle"})


# ----- melee -------------------------------------------------------------------------------------

def melee_modifier(state: BandasState, mid: str, weapon: str, blow: int) -> int:
    """Added to the weapon skill for blow number `blow` (0 first): −1 per earlier blow, +1
    laser weapon, +1 bionic arm, +1 huge."""
    spec = PTS.weapons.get(weapon)
    mod = -blow + (spec.ws_bonus if spec else 0)
    mod += 1 if C.has(state, mid, "bionic_arm") else 0
    return mod + (1 if C.has(state, mid, "huge") else 0)


def fight(state: BandasState, mid: str, target: str, weapon: str, rng: Rng,
          ev: list[Event]) -> None:
    a = state.tally()
    m, t = state.models[mid], state.models[target]
    first = m["foes"].setdefault(target, state.turn) == state.turn
    t["foes"].setdefault(mid, state.turn)
    if weapon == "net":
        _net(state, mid, target, rng, ev)
        return
    if t["status"] == STANDING and "spear" in t["weapons"] and target not in a["countered"]:
        a["countered"].append(target)       # Lanza: the charged spear strikes first, once
        ev.append(Event("spear_strikes_first", {"model": target, "at": mid}))
        _lands(state, target, mid, "spear", 0, t["foes"][mid] == state.turn, rng, ev)
    for _ in range(_blows(state, mid, weapon)):
        if m["status"] != STANDING or not state.in_play(target):
            return
        blow = a["blows"]
        a["blows"] += 1
        save_mod = _melee_save_mod(state, mid, weapon)
        ev.append(Event("blow", {"model": mid, "target": target, "weapon": weapon,
                                 "blow": blow + 1}))
        if t["status"] in (DOWN, STUNNED):
            C.charged(state, target, save_mod, rng, ev)
            _acid_blood(state, target, mid, rng, ev)    # the charge is a hit without a roll
            continue
        _lands(state, mid, target, weapon, blow, first, rng, ev)


def _blows(state: BandasState, mid: str, weapon: str) -> int:
    """Blows of one melee action: two with two hand weapons (Dos armas de mano), and two with a
    pair of pistols, whose two shots hold in melee too (Pistolas; see RULES.md)."""
    spec = PTS.weapons.get(weapon)
    if spec is None:
        return 1
    if spec.pair and state.models[mid]["weapons"].count(weapon) == 2:
        return 2
    return spec.blows


def _lands(state: BandasState, mid: str, target: str, weapon: str, blow: int, first: bool,
           rng: Rng, ev: list[Event]) -> None:
    """One melee blow's roll (the striker's poison injector takes 1 off the target's pericia
    in their first turn of combat); on a hit the target's sabre may parry it (Sables), then
    the hit and the target's acid blood (Sangre ácida) burning the striker."""
    ws = C.weapon_skill(state, mid) + melee_modifier(state, mid, weapon, blow)
    per = C.pericia(state, target) - (1 if first and C.has(state, mid, "poison_injector") else 0)
    if not C.opposed(rng, ws, per, ev, mid, target):
        return
    if "sabre" in state.models[target]["weapons"]:
        roll = rng.d6()
        ev.append(Event("parry", {"model": target, "roll": roll, "parried": roll >= 6}))
        if roll >= 6:
            return
    C.hit(state, target, rng, ev, _melee_save_mod(state, mid, weapon))
    _acid_blood(state, target, mid, rng, ev)


def _acid_blood(state: BandasState, target: str, mid: str, rng: Rng, ev: list[Event]) -> None:
    """Sangre ácida: a model with acid blood hit in melee (a blow that lands, or a charge on
    it while it lies downed or stunned; see RULES.md) hits the model that struck it."""
    if C.has(state, target, "acid_blood") and state.models[mid]["status"] != OUT:
        ev.append(Event("acid_blood", {"model": target, "burns": mid}))
        C.hit(state, mid, rng, ev)


def _melee_save_mod(state: BandasState, mid: str, weapon: str) -> int:
    spec = PTS.weapons.get(weapon)
    return (spec.save_mod if spec else 0) + (1 if C.has(state, mid, "huge") else 0)


def _net(state: BandasState, mid: str, target: str, rng: Rng, ev: list[Event]) -> None:
    """Lanza redes telemétrico: on a hit the target takes no move action at its next
    activation; the launcher then reloads through the model's next activation."""
    state.models[mid]["net"] = "due"
    ws = C.weapon_skill(state, mid) + melee_modifier(state, mid, "net", state.tally()["blows"])
    state.tally()["blows"] += 1
    if C.opposed(rng, ws, C.pericia(state, target), ev, mid, target):
        state.models[target]["netted"] = True
        ev.append(Event("netted", {"model": target}))


def drugs(state: BandasState, mid: str, what: str, rng: Rng, ev: list[Event]) -> None:
    """Drogas para todos: once per turn, a pericia check; passed, +1 weapon skill, +1 pericia
    or +5 cm per move for this activation; failed, the model is knocked down whatever skin
    it has."""
    state.models[mid]["drugs"] = state.turn
    if C.check(state, mid, rng, ev, "drugs"):
        state.tally()["drug"] = what
    else:
        state.models[mid]["status"] = DOWN
        ev.append(Event("drugs_knocked_down", {"model": mid}))
