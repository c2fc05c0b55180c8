"""Area-effect weapons: scatter and rebounds, the explosion template and the walls that shield
cells, the blast's pupae, lingering templates and the flamethrower's overheating ("Area-Effect
Weapons", "Shooting Restrictions", "Automatic pupae", Arsenal: "Flamethrower (Flambeador)",
"Grenades (Granadas)")."""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.batallitas.content import Pos, Weapon, load
from partida.games.batallitas.dice import Roll
from partida.games.batallitas.geometry import corner_open
from partida.games.batallitas.grid import Field
from partida.games.batallitas.shooting import roll_shot, wound
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose
from partida.games.batallitas.turn import hurt

# Scatter directions, clockwise from north (the order they are offered in).
DIRECTIONS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
              "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
OVERHEAT_PUPAE = 4  # the clumsy wielder of an exploding flamethrower ("Flamethrower")


def ammunition(n: Nose, w: Weapon) -> int:
    """Grenades are counted per nose; the flamethrower by its magazine."""
    return n.grenades.get(w.id, 0) if w.grenade else n.ammo.get(w.id, 0)


def spend(n: Nose, w: Weapon) -> None:
    if w.grenade:
        n.grenades[w.id] -= 1
    else:
        n.ammo[w.id] -= 1


def _blocked(f: Field, a: Pos, b: Pos) -> bool:
    """A scatter cannot pass from `a` to `b`: the board's edge, a major obstruction, a wall or a
    closed door (RULES.md decision: a closed door rebounds like a wall)."""
    if not f.map.inside(b) or f.terrain(b) == "major":
        return True
    if a[0] == b[0] or a[1] == b[1]:
        return f.shut_between(a, b)
    return not corner_open(f, a, b, lambda p: f.terrain(p) == "major")


def scatter_path(f: Field, start: Pos, direction: str, cells: int) -> list[Pos]:
    """The cells a missed shot flies through, the last one being where it lands. Meeting a
    blocker, it rebounds for the cells left: straight back when flying orthogonally; flying
    diagonally, only the blocked component turns (both in a corner) (RULES.md decision)."""
    dx, dy = DIRECTIONS[direction]
    here, path = start, []
    for _ in range(cells):
        nxt = (here[0] + dx, here[1] + dy)
        if _blocked(f, here, nxt):
            if dx and dy:
                flip_x = _blocked(f, here, (here[0] + dx, here[1]))
                flip_y = _blocked(f, here, (here[0], here[1] + dy))
                if not flip_x and not flip_y:
                    flip_x = flip_y = True
                dx, dy = (-dx if flip_x else dx), (-dy if flip_y else dy)
            else:
                dx, dy = -dx, -dy
            nxt = (here[0] + dx, here[1] + dy)
            if _blocked(f, here, nxt):
                break  # boxed in: it stays where it is
        here = nxt
        path.append(here)
    return path


def template(f: Field, centre: Pos) -> list[Pos]:
    """The explosion marker: the centre and its eight neighbours on the map, except those on the
    far side of a wall or closed door from the centre (a corner cell is shielded when both of its
    side routes are walled off, RULES.md decision)."""
    out = [centre]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            p = (centre[0] + dx, centre[1] + dy)
            if p == centre or not f.map.inside(p):
                continue
            if dx and dy:
                if corner_open(f, centre, p, lambda _: False):
                    out.append(p)
            elif not f.shut_between(centre, p):
                out.append(p)
    return out


def explode(state: BatallitasState, f: Field, rng: Rng, n: Nose, w: Weapon, centre: Pos, *,
            critical: bool, ev: list[Event], spared: str | None = None) -> None:
    """The blast: the weapon's pupae dice to the centre's nose, one fewer to the others under the
    marker, an automatic pupa to each on a critical; cover does not help (RULES.md decision);
    a lingering weapon leaves its marker until its squad's next activation."""
    cells = template(f, centre)
    ev.append(Event("explosion", {"nose": n.id, "weapon": w.id, "centre": list(centre),
                                  "cells": [list(p) for p in cells], "critical": critical}))
    victims = [(p, state.at(p)) for p in cells]
    for p, victim in victims:
        if victim is None or victim.status != IN_PLAY or victim.id == spared:
            continue
        victim.alert = False
        wound(state, rng, n, w, victim, cover=False, critical=critical, ev=ev,
              bonus=0 if p == centre else -1)
    if w.lingers is not None:
        state.blasts.extend({"pos": list(p), "kind": w.lingers, "squad": n.squad}
                            for p in cells)


def overheat(state: BatallitasState, f: Field, rng: Rng, n: Nose, w: Weapon,
             ev: list[Event]) -> None:
    """The flamethrower's second screw-up: nothing is fired; it blows up on its wielder's cell,
    a normal flamethrower impact except that the wielder takes four pupae outright. The weapon
    is gone (RULES.md decision)."""
    assert n.cell is not None
    n.weapons = [x for x in n.weapons if x != w.id]
    n.ammo.pop(w.id, None)
    n.spares.pop(w.id, None)
    ev.append(Event("flamethrower_exploded", {"nose": n.id, "cell": list(n.cell)}))
    blow_up(state, f, rng, n, w, ev)


def blow_up(state: BatallitasState, f: Field, rng: Rng, n: Nose, w: Weapon,
            ev: list[Event]) -> None:
    """A flamethrower impact on the nose's own cell: the others under it roll as usual, the
    nose takes four pupae outright (also Petardo humano)."""
    assert n.cell is not None
    explode(state, f, rng, n, w, n.cell, critical=False, ev=ev, spared=n.id)
    hurt(state, n, OVERHEAT_PUPAE, ev)


def fire(state: BatallitasState, f: Field, rng: Rng, n: Nose, w: Weapon, target: Pos,
         ev: list[Event], given: Roll | None = None) -> dict[str, Any] | None:
    """Resolve an area shot (already known legal). A hit explodes on the target; a miss rolls
    how far it scatters and returns the decision of its direction, owed to the shooter's side on
    a failure and to the enemy's on a screw-up. Area weapons never jam; the flamethrower counts
    its screw-ups and blows up on the second instead of firing."""
    r, _ = roll_shot(state, f, rng, n, w, target, alert=False, ev=ev, given=given)
    if r.screw_up and w.screw_up == "overheats":
        n.overheats += 1
        ev.append(Event("overheated", {"nose": n.id, "weapon": w.id, "times": n.overheats}))
        if n.overheats >= 2:
            overheat(state, f, rng, n, w, ev)
            return None
    spend(n, w)
    if r.success:
        explode(state, f, rng, n, w, target, critical=r.critical, ev=ev)
        return None
    cells = rng.d6()
    chooser = state.side_of(n)
    if r.screw_up:
        chooser = "rebel" if chooser == "papal" else "papal"
    ev.append(Event("scatter_roll", {"nose": n.id, "cells": cells, "chooser": chooser}))
    return {"kind": "scatter", "seat": state.seat_of(chooser), "nose": n.id, "weapon": w.id,
            "from": list(target), "cells": cells}


def land(state: BatallitasState, f: Field, rng: Rng, prompt: dict[str, Any], direction: str,
         ev: list[Event]) -> None:
    """The scatter's direction is chosen: fly, rebound, explode where it lands."""
    path = scatter_path(f, _start(prompt), direction, prompt["cells"])
    where = path[-1] if path else _start(prompt)
    ev.append(Event("scattered", {"nose": prompt["nose"], "direction": direction,
                                  "path": [list(p) for p in path], "cell": list(where)}))
    n = state.nose(prompt["nose"])
    explode(state, f, rng, n, load().arsenal.weapon(prompt["weapon"]), where, critical=False,
            ev=ev)


def _start(prompt: dict[str, Any]) -> Pos:
    return (prompt["from"][0], prompt["from"][1])


def landing(f: Field, prompt: dict[str, Any], direction: str) -> Pos:
    """Where a pending scatter would land flying in `direction`."""
    return (scatter_path(f, _start(prompt), direction, prompt["cells"]) or [_start(prompt)])[-1]
