"""Set-up: squads and noses from the scenario's forces, event cards dealt, and the set-up choices
the owners make before turn 1 ("Event cards", "Squads", flaw "Atrophy", "Grenades", each
scenario's "Forces" and "Deployment")."""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.batallitas.content import Content, NoseSpec, Scenario
from partida.games.batallitas.state import ATTRIBUTES, BatallitasState, Nose, Squad

SIDES = ("papal", "rebel")  # seat 0 commands the papal forces, seat 1 the rebels
DEFAULT_ATROPHY = "combat"  # RULES.md decision: the timed-out choice costs the gunners least


def build_squads(c: Content, sc: Scenario) -> tuple[list[Squad], list[Nose]]:
    squads: list[Squad] = []
    noses: list[Nose] = []
    for fi, force in enumerate(sc.forces):
        spec = c.squads[force.squad]
        for _ in range(force.count):
            i = len(squads)
            sq = Squad(index=i, spec=spec.id, side=spec.side, family=spec.family, force=fi,
                       from_turn=force.from_turn,
                       command=force.command_distance or c.rules.command_distance)
            members: list[Nose] = []
            if spec.leader_from:  # a leader borrowed from another squad: its first type for now
                lead = c.squads[spec.leader_from]
                members.append(make_nose(c, f"s{i}.0", i, lead.id, lead.noses[0]))
            for ns in spec.noses:
                for _ in range(ns.count):
                    members.append(make_nose(c, f"s{i}.{len(members)}", i, spec.id, ns))
            lead_nose = next((n for n, ns in zip(members, _specs(c, members), strict=True)
                              if ns.leader), members[0])
            sq.leader = sq.original_leader = lead_nose.id
            squads.append(sq)
            noses.extend(members)
    return squads, noses


def _specs(c: Content, members: list[Nose]) -> list[NoseSpec]:
    return [nose_spec(c, n.kind) for n in members]


def nose_spec(c: Content, kind: str) -> NoseSpec:
    squad, _, nid = kind.partition("/")
    return next(ns for ns in c.squads[squad].noses if ns.id == nid)


def make_nose(c: Content, nid: str, squad: int, squad_spec: str, ns: NoseSpec) -> Nose:
    n = Nose(id=nid, squad=squad, kind=f"{squad_spec}/{ns.id}", name=ns.name, attrs={},
             pupae=ns.pupae, knacks=[], flaws=[], hates=None, weapons=[], armour=None)
    equip(c, n, ns)
    return n


def equip(c: Content, n: Nose, ns: NoseSpec) -> None:
    """Attributes, knacks, flaws and kit of a nose type (also used when a type is chosen)."""
    n.name = ns.name
    n.attrs = {a: getattr(ns, a) for a in ATTRIBUTES}
    n.pupae = ns.pupae
    n.knacks, n.flaws, n.hates = list(ns.knacks), list(ns.flaws), ns.hates
    n.weapons = ["hand", *ns.weapons]
    n.armour = ns.armour
    n.grenades = {"frag_grenade": ns.grenades} if ns.grenades else {}
    n.ammo, n.spares = {}, {}
    for wid in ns.weapons:
        w = c.arsenal.weapon(wid)
        if w.magazine:
            n.ammo[wid], n.spares[wid] = w.magazine, w.spare_magazines


def deal(c: Content, state: BatallitasState, rng: Rng, ev: list[Event]) -> None:
    """Two cards per squad from the side's own deck; one fewer for an inept leader, three for a
    painted squad (option)."""
    painted = bool(state.options.get("painted_squads", False))
    for seat, side in enumerate(state.sides):
        deck = [card.id for card in c.events.deck(side)]  # type: ignore[arg-type]
        rng.shuffle(deck)
        n = 0
        for sq in state.squads:
            if sq.side != side:
                continue
            inept = "inept" in state.nose(sq.original_leader or "").flaws
            n += 3 if painted else c.rules.cards_per_squad - (1 if inept else 0)
        state.hands.append(deck[:n])
        state.decks.append(deck[n:])
        ev.append(Event("cards_dealt", {"seat": seat, "cards": list(deck[:n])},
                        visible_to=frozenset({seat}), public={"seat": seat, "count": n}))


def choices(c: Content, sc: Scenario, state: BatallitasState) -> list[dict[str, Any]]:
    """The set-up decisions in order: the boards (scenario 6), leader types and leaders,
    atrophy, grenades, deployment, hidden markers (scenarios 4 and 6), the videogame's carrier
    (scenario 5)."""
    out: list[dict[str, Any]] = []
    if sc.placement is not None:
        first = state.seat_of(sc.placement.first)
        out.extend({"seat": first if i % 2 == 0 else 1 - first, "kind": "board"}
                   for i in range(sc.placement.boards))
    for sq in state.squads:
        spec = c.squads[sq.spec]
        seat = state.seat_of(sq.side)
        if spec.leader_from:
            out.append({"seat": seat, "kind": "leader_type", "squad": sq.index})
        if spec.leader_chosen:
            out.append({"seat": seat, "kind": "leader", "squad": sq.index})
    for n in state.noses:
        seat = state.seat_of(state.side_of(n))
        if "atrophy" in n.flaws:
            out.append({"seat": seat, "kind": "atrophy", "nose": n.id})
    out.extend(grenade_choices(state, state.noses))
    for n in state.noses:
        kind = sc.forces[state.squads[n.squad].force].deploy.kind
        if kind == "cells" or kind == "roles" and n.role is not None:
            out.append({"seat": state.seat_of(state.side_of(n)), "kind": "deploy", "nose": n.id})
    if sc.hidden_markers is not None:
        out.extend({"seat": state.seat_of(sc.hidden_markers.owner), "kind": "hide"}
                   for _ in sc.hidden_markers.markers)
    if "videogame" in sc.special_rules:
        out.append({"seat": state.seat_of("rebel"), "kind": "carrier"})
    return out


def grenade_choices(state: BatallitasState, noses: list[Nose]) -> list[dict[str, Any]]:
    return [{"seat": state.seat_of(state.side_of(n)), "kind": "grenades", "nose": n.id}
            for n in noses if sum(n.grenades.values()) > 0]
