"""Close combat: adjacency and facing, the dice, tough enemies, surprise attacks and the combat
backpack, screw-ups that turn the blow back, the chainsaw's own screw-up ("Close Combat",
"Tough Enemies", "Surprise Attacks", "Combat backpack", "Chainsaw", "Pupae", "Sweeping
Attacks", knack "Mastery")."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.batallitas import dice, slider
from partida.games.batallitas.content import Pos, Weapon, load
from partida.games.batallitas.geometry import corner_open, front_cells, line_of_sight
from partida.games.batallitas.grid import Field
from partida.games.batallitas.shooting import weapon, wound
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose, attr


def close_weapons(n: Nose) -> list[Weapon]:
    return [weapon(w) for w in dict.fromkeys(n.weapons) if weapon(w).type == "close"]


def surprise(attacker: Nose, defender: Nose) -> bool:
    """The defender shows its back: it faces the attacker's way from one of the attacker's
    front cells (RULES.md decision on whose front cells)."""
    return (attacker.cell is not None and defender.facing == attacker.facing
            and defender.cell in front_cells(attacker.cell, attacker.facing))


def backpack(defender: Nose) -> bool:
    armour = next((a for a in load().arsenal.armour if a.id == defender.armour), None)
    return armour is not None and armour.cancels_surprise


def targets(state: BatallitasState, f: Field, n: Nose) -> list[Pos]:
    """Enemy noses in the three front cells that a blow can reach (RULES.md decision: where a
    line of sight passes), for a nose without a pájara."""
    if n.cell is None or n.pajara or n.status != IN_PLAY:
        return []
    out = []
    for p in front_cells(n.cell, n.facing):
        foe = state.at(p)
        if foe is not None and state.side_of(foe) != state.side_of(n) \
                and (slider.blow_reaches(state, n.cell, p) if p == slider.cell(state)
                     else line_of_sight(f, n.cell, p)):
            out.append(p)
    return out


def combat_dice(state: BatallitasState, n: Nose, foe: Nose, minus: int = 0) -> int:
    """Combat, −1 against a better fighter, +1 against a pájara, +1 from behind (not against a
    backpack), −`minus` (a sweep's blow without mastery)."""
    tough = -1 if attr(foe, "combat") > attr(n, "combat") else 0
    behind = 1 if surprise(n, foe) and not backpack(foe) else 0
    return dice.pool(attr(n, "combat"), tough, 1 if foe.pajara else 0, behind, -minus)


# The eight neighbours clockwise from north (y grows southwards).
RING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def sweeps(n: Nose, w: Weapon) -> bool:
    """A weapon that sweeps, or any close weapon in the hands of a master (knack "Mastery")."""
    return w.type == "close" and (w.sweep or "mastery" in n.knacks)


def sweep_penalty(n: Nose) -> int:
    """A sweep's blows roll one combat die and one pupae die fewer, except for a master."""
    return 0 if "mastery" in n.knacks else 1


def sweep_cells(state: BatallitasState, f: Field, n: Nose, start: Pos, way: str) -> list[Pos]:
    """The enemy cells a sweep strikes, in order ("Sweeping Attacks"): round the attacker from
    `start` (one of its front cells) clockwise (`cw`) or not (`ccw`), stopping at a cell off the
    map, obstructed (minor or major), cut off by a wall or closed door, or held by a nose of its
    own side, and after a full circle."""
    assert n.cell is not None
    x, y = n.cell
    i = RING.index((start[0] - x, start[1] - y))
    step = 1 if way == "cw" else -1
    out = []
    for k in range(8):
        dx, dy = RING[(i + step * k) % 8]
        p = (x + dx, y + dy)
        if not f.map.inside(p) or f.terrain(p) in ("minor", "major") or _cut(f, n.cell, p):
            break
        other = state.at(p)
        if other is not None and state.side_of(other) == state.side_of(n):
            break
        if other is not None:
            out.append(p)
    return out


def _cut(f: Field, a: Pos, p: Pos) -> bool:
    """A wall or closed door between the attacker and a neighbouring cell; for a diagonal one,
    when both ways round the corner are shut by walls, doors or major obstructions (RULES.md
    decision: noses do not stop the swing)."""
    if a[0] == p[0] or a[1] == p[1]:
        return f.shut_between(a, p)
    return not corner_open(f, a, p, lambda q: f.terrain(q) == "major")


def attack(state: BatallitasState, rng: Rng, n: Nose, w: Weapon, foe: Nose,
           ev: list[Event], given: dice.Roll | None = None, minus: int = 0) -> dict[str, bool]:
    """Resolve one blow (already known legal), with its roll `given` when event cards or a
    re-roll settled it; `minus` dice fewer to hit and to wound (a sweep). Returns whether the
    defender may turn round (a screw-up from behind) and whether it was a screw-up."""
    k = combat_dice(state, n, foe, minus)
    back = surprise(n, foe)
    bonus = (1 if back and not backpack(foe) else 0) - minus
    foe.alert = False
    r = given or dice.roll(rng, k, infernal=True)
    if r is None:
        ev.append(Event("blow", {"nose": n.id, "weapon": w.id, "target": foe.id, "dice": 0}))
        return {"turn_round": False, "screw_up": False}
    result = "critical" if r.critical else "success" if r.success else \
        "screw_up" if r.screw_up else "failure"
    ev.append(Event("blow", {"nose": n.id, "weapon": w.id, "target": foe.id, "dice": k,
                             "faces": list(r.dice), "infernal": r.infernal, "surprise": back,
                             "result": result}))
    if r.success:
        wound(state, rng, n, w, foe, cover=False, critical=r.critical, ev=ev, bonus=bonus)
    elif r.screw_up and back:
        return {"turn_round": True, "screw_up": True}  # ignored; the defender may turn
    elif r.screw_up and w.screw_up == "hits_self":
        wound(state, rng, n, w, n, cover=False, critical=False, ev=ev)
    elif r.screw_up:
        best = max(close_weapons(foe), key=lambda x: (not x.pupae.contusion, x.pupae.dice))
        wound(state, rng, foe, best, n, cover=False, critical=False, ev=ev)
    return {"turn_round": False, "screw_up": r.screw_up}
