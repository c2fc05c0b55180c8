"""What the event cards that change the field do ("Event Cards": ¿Quieres que te lea tus
derechos, escoria?, ¡¡Fuego al máximo!!, Líder nato, Traidor ajuqueroso, ¿Qué dice de los
incineradores?, ¡¡Envíen Refuerzos!!, ¡¡He dicho que bombardeen nuestra posición!!, Petardo
humano, Booby Trap).

Cards that need more than one choice leave a `pick` prompt (`pick:<choice>` or `stop`):
{"kind": "pick", "seat", "card", "what": "pajara" | "bomb" | "edge", "left", "squad"}.
"""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.batallitas import area
from partida.games.batallitas.content import Pos, load
from partida.games.batallitas.geometry import distance, line_of_sight
from partida.games.batallitas.grid import Field
from partida.games.batallitas.setup import DEFAULT_ATROPHY, make_nose
from partida.games.batallitas.shooting import (
    firearms,
    first_targets,
    rate_of_fire,
    usable,
    weapon,
)
from partida.games.batallitas.state import IN_PLAY, RESERVE, BatallitasState, Nose, Squad
from partida.games.batallitas.turn import check_end, give_pajara, hurt, successors
from partida.games.batallitas.world import field_of, state_map

PAPAL_FAMILIES = ("macute", "fanhunter")
BOMBS = 3  # ¡¡He dicho que bombardeen...!!: up to three grenades
PAJARAS = 3  # ¿Qué dice de los incineradores?: up to three pájaras
FRAG = "frag_grenade"


def is_fan(n: Nose) -> bool:
    """A Fan proper, not a Lethal Fan (a Fans squad's leader is a Lethal Fan)."""
    return n.kind.startswith("fans/")


def is_lethal(n: Nose) -> bool:
    return n.kind.startswith("lethal_fans/")


def family(state: BatallitasState, n: Nose) -> str:
    return state.squads[n.squad].family


# --- targets --------------------------------------------------------------------------------

def rights_targets(state: BatallitasState) -> list[str]:
    """Fans in play with a line of sight to the leader of a Fanhunter squad."""
    f = field_of(state)
    leaders = [state.nose(sq.leader) for sq in state.squads
               if sq.family == "fanhunter" and sq.leader is not None]
    cells = [lead.cell for lead in leaders if lead.status == IN_PLAY and lead.cell is not None]
    return [n.id for n in state.in_play() if is_fan(n) and n.cell is not None
            and state.side_of(n) == "rebel"
            and any(line_of_sight(f, n.cell, c) for c in cells)]


def full_fire_targets(state: BatallitasState) -> list[str]:
    """`<nose>:<weapon>:<x>,<y>`: a Fanhunter's short or long firearm and its first shot."""
    f = field_of(state)
    out: list[str] = []
    for n in state.in_play():
        if family(state, n) != "fanhunter" or n.cell is None or n.id == state.active_nose:
            continue
        for wid in firearms(n):
            w = weapon(wid)
            if w.type in ("short", "long") and usable(n, w):
                out.extend(f"{n.id}:{wid}:{p[0]},{p[1]}" for p in first_targets(state, f, n, w))
    return out


def born_leader_targets(state: BatallitasState) -> list[str]:
    """The provisional leader of a Fans squad, still fighting, not yet so promoted."""
    return [sq.leader for sq in state.squads
            if sq.family == "fan" and sq.leader is not None and sq.leader != sq.original_leader
            and state.nose(sq.leader).status in (IN_PLAY, RESERVE)
            and "leadership" not in state.nose(sq.leader).knacks]


def traitor_targets(state: BatallitasState) -> list[str]:
    """`<nose>:<squad>` or `<nose>:new`: a Fan on the board with no heavy weapon, and the
    Fanhunter squad it joins (a squad of its own when none is in play)."""
    hunters = [str(sq.index) for sq in state.squads
               if sq.family == "fanhunter" and state.alive(sq.index)
               and sq.from_turn <= state.turn]
    fans = [n for n in state.in_play() if is_fan(n) and state.side_of(n) == "rebel"
            and not any(weapon(w).type == "heavy" for w in n.weapons)]
    return [f"{n.id}:{sq}" for n in fans for sq in (hunters or ["new"])]


# --- effects --------------------------------------------------------------------------------

def rights(state: BatallitasState, rng: Rng, n: Nose, ev: list[Event]) -> None:
    """A die: 1-4 a pájara; 5-6 the Fan surrenders and counts as eliminated."""
    face = rng.d6()
    ev.append(Event("rights", {"nose": n.id, "die": face}))
    if face <= 4:
        give_pajara(state, n, ev)
    else:
        hurt(state, n, n.pupae, ev)


def full_fire(state: BatallitasState, target: str) -> dict[str, Any]:
    """Start the free burst (its weapon jams when it ends, `card` marks it); returns the first
    shot to declare."""
    nid, wid, where = target.split(":")
    n = state.nose(nid)
    x, y = (int(v) for v in where.split(","))
    state.burst = {"nose": nid, "weapon": wid, "left": rate_of_fire(n, weapon(wid)),
                   "last": [x, y], "card": True}
    return {"kind": "shot", "nose": nid, "weapon": wid, "target": [x, y]}


def born_leader(n: Nose, ev: list[Event]) -> None:
    """+1 Actions and leadership for good (it shares its points from the squad's next
    activation: RULES.md decision)."""
    n.attrs["actions"] += 1
    n.knacks.append("leadership")
    ev.append(Event("born_leader", {"nose": n.id}))


def traitor(state: BatallitasState, n: Nose, where: str, ev: list[Event]) -> None:
    """The Fan changes sides: into a Fanhunter squad, or a squad of its own with a papal marker
    added to the hat."""
    old = state.squads[n.squad]
    if where == "new":
        sq = Squad(index=len(state.squads), spec="fanhunters", side="papal",
                   family="fanhunter", force=old.force, leader=n.id, original_leader=None,
                   from_turn=state.turn, command=load().rules.command_distance)
        state.squads.append(sq)
        state.bag = sorted([*state.bag, "papal"])
    else:
        sq = state.squads[int(where)]
    n.squad = sq.index
    n.alert = False
    ev.append(Event("traitor", {"nose": n.id, "squad": sq.index}))
    if old.leader == n.id:  # a provisional leader that was a spy: the Fans name another
        old.leader = None
        if successors(state, old):
            state.prompts.append({"kind": "leader", "seat": state.seat_of(old.side),
                                  "squad": old.index})
    check_end(state, ev)


def pick_options(state: BatallitasState, p: dict[str, Any]) -> list[tuple[str, str]]:
    """(choice, description) for a pick prompt."""
    if p["what"] == "pajara":
        return [(n.id, f"{n.name} ({n.id}) takes a pájara") for n in state.in_play()
                if family(state, n) in PAPAL_FAMILIES and not n.pajara]
    if p["what"] == "bomb":
        return [(f"{x},{y}", f"a grenade falls towards {x},{y}") for x, y in bomb_cells(state)]
    return [(side, f"the reinforcements come on from the {side}")
            for side in entry_sides(field_of(state))]


def bomb_cells(state: BatallitasState) -> list[Pos]:
    """Outdoor cells on or next to a rebel nose (RULES.md decision: any other outdoor cell is
    accepted but not listed)."""
    m = state_map(state)
    foes = [n.cell for n in state.in_play() if state.side_of(n) == "rebel" and n.cell]
    return sorted(p for p in m.positions() if not m.cell(p).indoor
                  and any(distance(p, c) <= 1 for c in foes))


def bomb_allowed(state: BatallitasState, cell: Pos) -> bool:
    m = state_map(state)
    return m.inside(cell) and not m.cell(cell).indoor


def entry_sides(f: Field) -> list[str]:
    """Sides of the map with a free cell to come on by."""
    return [side for side in ("north", "east", "south", "west")
            if any(not f.blocks_step(p) and not f.shut(f.map.outer_edge(p, side))
                   for p in f.map.edge_cells(side))]


def reinforce(state: BatallitasState, sq: Squad, side: str, ev: list[Event]) -> None:
    """Two noses of the squad's first type that is neither a sergeant nor carries a heavy
    weapon join it, waiting to come on from `side` (RULES.md decisions: atrophy as the
    timed-out default; they may act in this very phase)."""
    c = load()
    spec = c.squads[sq.spec]
    ns = next(x for x in spec.noses if not x.leader
              and not any(c.arsenal.weapon(w).type == "heavy" for w in x.weapons))
    taken = {n.id for n in state.noses}
    made: list[Nose] = []
    k = 0
    while len(made) < 2:
        nid = f"s{sq.index}.{k}"
        k += 1
        if nid in taken:
            continue
        n = make_nose(c, nid, sq.index, spec.id, ns)
        if "atrophy" in n.flaws:
            n.attrs[DEFAULT_ATROPHY] -= 1
        n.edge = side
        made.append(n)
    state.noses.extend(made)
    ev.append(Event("reinforcements", {"squad": sq.index, "noses": [n.id for n in made],
                                       "edge": side}))


def bomb(state: BatallitasState, rng: Rng, p: dict[str, Any], cell: Pos,
         ev: list[Event]) -> dict[str, Any] | None:
    """One grenade of the bombing: d6 1-3 on the cell, 4-5 a miss (the papal side picks the
    scatter), 6 a screw-up (the rebels pick it). Returns the scatter prompt, if any."""
    src = source(state, p["squad"])
    face = rng.d6()
    ev.append(Event("bomb", {"cell": list(cell), "die": face}))
    w = weapon(FRAG)
    if face <= 3:
        area.explode(state, field_of(state), rng, src, w, cell, critical=False, ev=ev)
        return None
    chooser = "papal" if face <= 5 else "rebel"
    cells = rng.d6()
    ev.append(Event("scatter_roll", {"nose": src.id, "cells": cells, "chooser": chooser}))
    return {"kind": "scatter", "seat": state.seat_of(chooser), "nose": src.id, "weapon": FRAG,
            "from": list(cell), "cells": cells, "card": True}


def source(state: BatallitasState, squad: int) -> Nose:
    """The nose a card's explosion is booked to: the squad's leader, else its first member."""
    sq = state.squads[squad]
    return state.nose(sq.leader) if sq.leader else state.members(squad)[0]


def human_bomb(state: BatallitasState, rng: Rng, n: Nose, ev: list[Event]) -> None:
    """Petardo humano: the flamethrower's overheating on the Lethal Fan's cell (RULES.md
    decision: the second screw-up's explosion, the only one a screw-up centres on its
    wielder)."""
    ev.append(Event("human_bomb", {"nose": n.id}))
    area.blow_up(state, field_of(state), rng, n, weapon("flamethrower"), ev)


# --- Booby Trap -----------------------------------------------------------------------------

def trap_cells(state: BatallitasState) -> list[Pos]:
    """Empty cells with no obstruction."""
    f = field_of(state)
    return [p for p in f.map.positions() if f.terrain(p) in ("clear", "obstacle")
            and p not in f.noses]


def trap_usable(state: BatallitasState) -> bool:
    """The teddy bear marker is free: not the scenario's own videogame or hidden marker."""
    sc = load().scenario(state.scenario)
    hidden = sc.hidden_markers.markers if sc.hidden_markers else ()
    return "videogame" not in sc.special_rules and "teddy_bear" not in hidden


def set_trap(state: BatallitasState, cell: Pos, ev: list[Event]) -> None:
    state.markers.append({"kind": "teddy_bear", "pos": list(cell), "face_down": False,
                          "owner": "rebel", "trap": True})
    ev.append(Event("booby_trap_set", {"cell": list(cell)}))


def spring_trap(state: BatallitasState, rng: Rng, n: Nose, ev: list[Event]) -> None:
    """A papal nose that comes into the teddy bear's cell or next to it rolls a die: on 5-6 it
    grabs the bear, which goes off as a fragmentation grenade on the bear's cell."""
    if n.cell is None or state.side_of(n) != "papal":
        return
    for m in [m for m in state.markers if m.get("trap")]:
        pos = (m["pos"][0], m["pos"][1])
        if distance(pos, n.cell) > 1:
            continue
        face = rng.d6()
        ev.append(Event("booby_trap_roll", {"nose": n.id, "die": face}))
        if face >= 5:
            state.markers.remove(m)
            area.explode(state, field_of(state), rng, n, weapon(FRAG), pos, critical=False,
                         ev=ev)
