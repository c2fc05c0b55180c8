"""Shooting: who may be shot, the dice, and what a shot does ("Shooting", "Line of Sight",
"Range", "Firing One Shot", "Empty and Obstructed Cells", "Rate of Fire", "Shooting
Restrictions", "Alert Shot" restrictions, "Cover", "Jamming and Unjamming", "Limited
Ammunition", "Pupae", "Automatic pupae", "Stunning pupae", "The Pájara", knack "Precision",
"Armour")."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.batallitas import dice, slider
from partida.games.batallitas.content import Pos, Weapon, load
from partida.games.batallitas.geometry import distance, has_cover, in_arc, line_of_sight, range_band
from partida.games.batallitas.grid import Field
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose, attr
from partida.games.batallitas.turn import give_pajara, hurt


def weapon(wid: str) -> Weapon:
    return load().arsenal.weapon(wid)


def firearms(n: Nose) -> list[str]:
    """Every firearm id the nose carries: its weapons and the grenades it has left."""
    return sorted({*(w for w in n.weapons if weapon(w).type != "close"),
                   *(g for g, k in n.grenades.items() if k > 0)})


def usable(n: Nose, w: Weapon, *, alert: bool = False) -> bool:
    """A firearm the nose holds, loaded and not jammed (grenades: one left); on alert only
    short/long ones or a heavy one that allows it."""
    if w.type == "close" or working(n, w) <= 0 or n.pajara:
        return False
    if w.grenade:
        if n.grenades.get(w.id, 0) <= 0:
            return False
    elif w.id not in n.weapons:
        return False
    if w.magazine is not None and n.ammo.get(w.id, 0) <= 0:
        return False
    return not alert or w.type != "heavy" or w.alert


def held(n: Nose, w: Weapon) -> int:
    """How many of the weapon the nose holds: two for a pair (content lists a `dual` weapon
    twice: Pistols, Submachine guns), otherwise one (a grenade in hand, or a weapon it has lost,
    counts as one so that a card may still jam it)."""
    return max(1, n.weapons.count(w.id))


def working(n: Nose, w: Weapon) -> int:
    """How many of the weapon can fire: those held less those jammed."""
    return held(n, w) - n.jammed.count(w.id)


def paired(n: Nose, w: Weapon) -> bool:
    return w.dual and held(n, w) >= 2


def jam(n: Nose, w: Weapon, ev: list[Event]) -> None:
    """One more of the weapon jams: a single weapon, or one of a pair (Pistols: a screw-up jams
    only one of the two); nothing when all are jammed already. An event for a pair says how
    many of the two still fire."""
    if working(n, w) <= 0:
        return
    n.jammed.append(w.id)
    ev.append(Event("jammed", weapon_event(n, w)))


def unjam(n: Nose, w: Weapon, ev: list[Event]) -> None:
    """Clear one jammed weapon (one of a pair at a time: RULES.md decision)."""
    n.jammed.remove(w.id)
    ev.append(Event("unjammed", weapon_event(n, w)))


def weapon_event(n: Nose, w: Weapon) -> dict[str, object]:
    data: dict[str, object] = {"nose": n.id, "weapon": w.id}
    if paired(n, w):
        data["working"] = working(n, w)
    return data


def rate_of_fire(n: Nose, w: Weapon, *, alert: bool = False) -> int:
    """The weapon's RoF, +1 with precision (short and long weapons) and +1 while both of a pair
    work (Pistols, Submachine guns); one on alert."""
    if alert:
        return 1
    bonus = 1 if "precision" in n.knacks and w.type in ("short", "long") else 0
    both = 1 if paired(n, w) and working(n, w) >= 2 else 0
    return (w.rof or 1) + bonus + both


def nearest_enemies(state: BatallitasState, n: Nose) -> set[str]:
    """The enemy noses at the least range count from `n` (all of them on a tie)."""
    assert n.cell is not None
    foes = [(distance(n.cell, e.cell), e.id) for e in state.in_play()
            if e.cell is not None and state.side_of(e) != state.side_of(n)]
    if not foes:
        return set()
    best = min(d for d, _ in foes)
    return {nid for d, nid in foes if d == best}


def is_leader(state: BatallitasState, n: Nose) -> bool:
    return state.squads[n.squad].leader == n.id


def shot_dice(state: BatallitasState, f: Field, n: Nose, target: Pos, *, alert: bool,
              w: Weapon) -> tuple[int, bool]:
    """Shooting dice and whether the target has cover: −1 at long range, −1 behind cover,
    +1 against a nose with a pájara, −1 on alert."""
    assert n.cell is not None
    band = range_band(distance(n.cell, target), w.range or 0)
    victim = state.at(target)
    # scenario 5, "The slider": a nose inside always counts as having cover (a line past the
    # bonnet's corner crosses no obstruction, yet the book gives the cover all the same)
    cover = victim is not None and (has_cover(f, n.cell, target) or slider.inside(state, victim))
    mods = [-1 if band == "long" else 0, -1 if cover else 0,
            1 if victim is not None and victim.pajara else 0, -1 if alert else 0]
    return dice.pool(attr(n, "shooting"), *mods), cover


def refusal(state: BatallitasState, f: Field, n: Nose, w: Weapon, target: Pos, *,
            alert: bool = False) -> str | None:
    """Why `n` may not shoot `w` at `target` now (None: it may)."""
    if n.cell is None or n.status != IN_PLAY:
        return "the nose is not on the board"
    if not usable(n, w, alert=alert):
        return "that weapon cannot fire now"
    if not f.map.inside(target) or target == n.cell:
        return "no such target cell"
    if not in_arc(n.cell, n.facing, target):
        return "the target is outside the frontal arc"
    band = range_band(distance(n.cell, target), w.range or 0)
    if band == "impossible" or (alert and band != "short"):
        return "out of range"
    if not line_of_sight(f, n.cell, target):
        return "no line of sight"
    victim = state.at(target)
    if victim is not None:
        if state.side_of(victim) == state.side_of(n):
            return "a nose of one's own side (RULES.md decision)"
        if distance(n.cell, target) == 1 and w.type != "short":
            return "only short weapons fire at an adjacent nose"
        if is_leader(state, victim) and victim.id not in nearest_enemies(state, n):
            return "a leader may be shot only as the nearest enemy"
    if shot_dice(state, f, n, target, alert=alert, w=w)[0] <= 0:
        return "no dice left to roll"
    return None


def pupae_dice(state: BatallitasState, n: Nose, w: Weapon, victim: Nose, *, cover: bool,
               bonus: int = 0) -> int:
    """The weapon's pupae dice (Muscles-based for close weapons), −1 behind cover, −1 for
    armour that stops this type of weapon."""
    base = w.pupae.dice + (attr(n, "muscles") if w.pupae.muscles else 0)
    armour = load().arsenal.armour
    worn = next((a for a in armour if a.id == victim.armour), None)
    minus = 1 if worn is not None and w.type in worn.pupae_minus_against else 0
    return dice.pool(base, -1 if cover else 0, -minus, bonus)


def wound(state: BatallitasState, rng: Rng, n: Nose, w: Weapon, victim: Nose, *, cover: bool,
          critical: bool, ev: list[Event], bonus: int = 0) -> None:
    """The pupae roll: each success is a pupa (a pájara with a contusion weapon); a critical
    adds one automatically."""
    k = pupae_dice(state, n, w, victim, cover=cover, bonus=bonus)
    r = dice.roll(rng, k)
    hits = (r.successes if r else 0) + (1 if critical else 0)
    ev.append(Event("pupae_roll", {"nose": n.id, "target": victim.id, "dice": k,
                                   "faces": list(r.dice) if r else [], "critical": critical,
                                   "pupae": hits}))
    if w.pupae.contusion:
        for _ in range(hits):
            if victim.status == IN_PLAY:
                give_pajara(state, victim, ev)
    elif hits > 0 and state.squads[victim.squad].family in ("fan", "lethal_fan") \
            and state.hands[state.seat_of(state.side_of(victim))]:
        # Si alguien encuentra mi brazo: the pupae wait for their owner's window (rules.py
        # answers it before anything else)
        state.prompts.append({"kind": "card", "seat": state.seat_of(state.side_of(victim)),
                              "timing": "on_pupae", "nose": victim.id, "pupae": hits})
    else:
        hurt(state, victim, hits, ev)


def shoot(state: BatallitasState, f: Field, rng: Rng, n: Nose, w: Weapon, target: Pos, *,
          alert: bool, ev: list[Event], given: dice.Roll | None = None) -> dict[str, bool]:
    """Resolve one shot (already known legal), with its roll `given` when event cards or a
    re-roll settled it. Returns what happened: hit, screw_up."""
    assert n.cell is not None
    if w.magazine is not None:
        n.ammo[w.id] -= 1
    r, cover = roll_shot(state, f, rng, n, w, target, alert=alert, ev=ev, given=given)
    victim = state.at(target)
    if r.screw_up:
        n.alert = False
        jam(n, w, ev)
    if r.success and victim is not None:
        victim.alert = False
        wound(state, rng, n, w, victim, cover=cover, critical=r.critical, ev=ev)
    return {"hit": r.success and victim is not None, "screw_up": r.screw_up}


def roll_shot(state: BatallitasState, f: Field, rng: Rng, n: Nose, w: Weapon, target: Pos, *,
              alert: bool, ev: list[Event],
              given: dice.Roll | None = None) -> tuple[dice.Roll, bool]:
    """Roll a legal shot's dice (or take the `given` roll) and report them; returns the roll
    and whether cover applied."""
    k, cover = shot_dice(state, f, n, target, alert=alert, w=w)
    r = given or dice.roll(rng, k, infernal=True)
    assert r is not None  # legal shots have dice
    victim = state.at(target)
    ev.append(Event("shot", {"nose": n.id, "weapon": w.id, "target": list(target),
                             "victim": victim.id if victim else None, "alert": alert,
                             "dice": k, "faces": list(r.dice), "infernal": r.infernal,
                             "cover": cover, "result": outcome_of(r)}))
    return r, cover


def outcome_of(r: dice.Roll) -> str:
    if r.critical:
        return "critical"
    if r.success:
        return "success"
    return "screw_up" if r.screw_up else "failure"


def burst_cells(state: BatallitasState, f: Field, n: Nose, w: Weapon, last: Pos) -> list[Pos]:
    """Cells the next shot of a burst may take: the last shot's cell or one next to it, each
    obeying sight, range and the restrictions ("Rate of Fire")."""
    out = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            p = (last[0] + dx, last[1] + dy)
            if refusal(state, f, n, w, p) is None:
                out.append(p)
    return out


def first_targets(state: BatallitasState, f: Field, n: Nose, w: Weapon) -> list[Pos]:
    """The cells worth listing for a burst's first shot: enemy noses in reach, and for an area
    weapon any cell whose blast would reach one. (Any other cell in reach is accepted too; see
    Batallitas.validate.)"""
    foes = [e.cell for e in state.in_play()
            if e.cell is not None and state.side_of(e) != state.side_of(n)]
    reach = 1 if w.area else 0
    cells = {(x + dx, y + dy) for x, y in foes
             for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)}
    return sorted(p for p in cells if refusal(state, f, n, w, p) is None)
