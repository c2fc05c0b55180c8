"""Dynamit Joe events as one readable line each.

Events name objects by id ("o7") and zones by id, so the narrator learns what each object is
from the views it is shown (guns, objects and ground markers) and takes zone names from the
board content. Events carry no joker that is still face down, so nothing secret is told."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.cli.render.dynamit_joe import _content, humanize, kind_name
from partida.cli.render.generic import describe_event as generic_line

LEVELS = ("easy", "average", "hard")
RESULTS = {"miss": "a miss", "jam": "a jam", "wound1": "a minor wound",
           "wound2": "a major wound", "panic": "panic", "panic_wound1": "panic and a wound"}


class Narrator:
    def __init__(self) -> None:
        self.objects: dict[str, str] = {}
        self.zones = {z.id: z.name for z in _content().board.zones}

    def learn(self, view: Mapping[str, Any]) -> None:
        for c in view["characters"]:
            for o in [*c["guns"], *c["objects"]]:
                self.objects[o["id"]] = kind_name(o["kind"])
        for o in view["ground"]:
            self.objects[o["id"]] = kind_name(o["kind"])

    def obj(self, oid: Any) -> str:
        known = self.objects.get(oid)
        return f"the {known} ({oid})" if known else f"object {oid}"

    def zone(self, zid: Any) -> str:
        return self.zones.get(zid, str(zid))

    def line(self, kind: str, data: Mapping[str, Any]) -> str | None:
        """The sentence for one event; None for the `action` event (the caller names it)."""
        if kind == "action":
            return None
        if kind in ("picked_up", "bought") and data.get("object"):
            self.objects[data["object"]] = kind_name(str(data["kind"]))
        say = _LINES.get(kind)
        try:
            return say(self, data) if say else generic_line(kind, data)
        except (KeyError, TypeError, ValueError):   # an event shaped otherwise: show it raw
            return generic_line(kind, data)


def _shot(n: Narrator, d: Mapping[str, Any]) -> str:
    guns = " and ".join(n.obj(g) for g in d["guns"])
    return f"{d['character']} fires {guns} at {d['target']} ({LEVELS[d['level']]} shot)"


def _card(n: Narrator, d: Mapping[str, Any]) -> str:
    at = f" at {d['target']}" if d["target"] else ""
    return (f"{humanize(d['pile'])} marksmen card for {d['attacker']}'s {d['weapon']}{at}: "
            f"{RESULTS.get(d['result'], d['result'])}")


def _placed(n: Narrator, d: Mapping[str, Any]) -> str:
    if "character" in d:
        return f"{d['character']} starts in {n.zone(d['zone'])}"
    return f"{n.obj(d['object']).capitalize()} is laid in {n.zone(d['zone'])}"


def _picked(n: Narrator, d: Mapping[str, Any]) -> str:
    worth = f" worth ${d['value']}" if d.get("value") else ""
    turned = " (turned face up)" if d.get("revealed") else ""
    return f"{d['character']} picks up a {kind_name(d['kind'])}{worth}{turned}"


def _freed(n: Narrator, d: Mapping[str, Any]) -> str:
    return f"{d['character']} is free" + (f" (by {d['by']})" if d.get("by") else "")


def _joker(n: Narrator, d: Mapping[str, Any]) -> str:
    target = d.get("target")
    on = f" on {n.obj(target) if target in n.objects else target}" if target else ""
    return f"{d['character']} plays the joker {humanize(d['joker'])}{on}"


def _over(n: Narrator, d: Mapping[str, Any]) -> str:
    return f"Match over: {' and '.join(d['sides']) or 'nobody'} won: {d['reason']}"


_LINES: dict[str, Callable[[Narrator, Mapping[str, Any]], str]] = {
    "round_started": lambda n, d: f"Round {d['round']} begins ({d['chips']} chips in the bag)",
    "chip_drawn": lambda n, d: f"{d['character']}'s chip is drawn",
    "turn_started": lambda n, d: f"{d['character']} (seat {d['seat']}) acts with {d['ap']} "
                                 "action points",
    "turn_ended": lambda n, d: f"{d['character']} ends the turn",
    "passes": lambda n, d: f"{d['character']} passes: {d['why']}",
    "activated": lambda n, d: f"{d['character']} joins in ({d['by']})",
    "moved": lambda n, d: f"{d['character']} moves to {n.zone(d['to'])}",
    "dragged": lambda n, d: f"{d['by']} drags {d['character']} to {n.zone(d['to'])}",
    "fled": lambda n, d: f"{d['character']} flees to {n.zone(d['to'])}",
    "shot": _shot,
    "marksmen_card": _card,
    "stray": lambda n, d: f"The shot goes astray and falls on {d['target']}",
    "wounded": lambda n, d: f"{d['character']} is wounded ({d['wounds']}/3)",
    "died": lambda n, d: f"{d['character']} dies in {n.zone(d['zone'])}",
    "jammed": lambda n, d: f"{n.obj(d['object']).capitalize()} of {d['character']} jams",
    "unjammed": lambda n, d: f"{d['character']} clears the jam of {n.obj(d['object'])}",
    "weapon_ruined": lambda n, d: f"{d['character']} ruins {n.obj(d['object'])}",
    "repair_failed": lambda n, d: f"{d['character']} fails to repair {n.obj(d['object'])}",
    "reloaded": lambda n, d: f"{d['character']} reloads {n.obj(d['object'])} "
                             f"({d['ammo']} loaded)",
    "dynamite_thrown": lambda n, d: f"{d['character']} throws dynamite into {n.zone(d['zone'])}",
    "explosion": lambda n, d: f"The dynamite explodes in {n.zone(d['zone'])}",
    "fizzled": lambda n, d: f"The fuse fizzles out in {n.zone(d['zone'])}",
    "knife_thrown": lambda n, d: f"{d['character']} throws a knife at {d['target']} "
                                 f"({LEVELS[d['level']]})",
    "knife_attack": lambda n, d: f"{d['character']} goes for {d['target']} with a knife "
                                 f"({LEVELS[d['level']]})",
    "panic_card": lambda n, d: f"{d['character']} draws a panic card: {humanize(d['effect'])}",
    "no_effect": lambda n, d: f"No effect on {d['character']}: {d['why']}",
    "picked_up": _picked,
    "handed": lambda n, d: f"{d['from']} hands {n.obj(d['object'])} to {d['to']}",
    "dropped": lambda n, d: f"{d['character']} drops {n.obj(d['object'])}",
    "drank": lambda n, d: f"{d['character']} drinks whisky ({d['wounds']}/3 wounds)",
    "ambush_laid": lambda n, d: f"{d['character']} lies in ambush",
    "ambush_sprung": lambda n, d: f"{d['character']} springs the ambush",
    "stays_in_ambush": lambda n, d: f"{d['character']} stays in ambush",
    "joker_played": _joker,
    "lock_destroyed": lambda n, d: f"The {humanize(d['lock']).lower()} is destroyed",
    "freed": _freed,
    "left_board": lambda n, d: f"{d['character']} leaves the board with ${d['gold']} of gold",
    "surrendered": lambda n, d: f"{d['character']} (seat {d['seat']}) surrenders: arrested",
    "reassigned": lambda n, d: f"{d['character']} now plays for seat {d['seat']} "
                               f"({d['side']}, 8.1)",
    "placed": _placed,
    "bought": lambda n, d: f"{d['character']} gets a {kind_name(d['kind'])} for "
                           f"${d['price']} (${d['money']} left)",
    "pile_shuffled": lambda n, d: f"The {d['pile']} pile is shuffled"
                                  if d["pile"] != "all" else "Every pile is shuffled",
    "match_over": _over,
}
