"""Bandas events as one readable line each.

Events name models and vehicles by id; the narrator learns their names from the views it is
shown (a unit it has not met is named by its id). Distances are in centimetres."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.cli.render.bandas import STATES, gang_name, humanize
from partida.cli.render.generic import TableNarrator

Data = Mapping[str, Any]


class Narrator(TableNarrator):
    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.gangs: dict[int, str] = {}

    def learn(self, view: Mapping[str, Any]) -> None:
        for uid, unit in [*view["models"].items(), *view["vehicles"].items()]:
            self.names[uid] = unit["name"]
        for seat in range(len(view["sides"])):
            self.gangs[seat] = gang_name(view, seat)

    def who(self, uid: Any) -> str:
        return self.names.get(uid, str(uid))

    def gang(self, seat: Any) -> str:
        return self.gangs.get(int(seat), f"seat {seat}")


def at(p: Any) -> str:
    return f"{p[0]:.0f},{p[1]:.0f}"


def _passed(ok: Any) -> str:
    return "passed" if ok else "failed"


def _initiative(n: Narrator, d: Data) -> str:
    rolls = "; then ".join(", ".join(f"{n.gang(s)} {f}" for s, f in r.items())
                           for r in d["rolls"])
    return (f"Turn {d['turn']}: initiative rolls {rolls}; order "
            + " then ".join(n.gang(s) for s in d["order"]))


def _attack(n: Narrator, d: Data) -> str:
    return (f"{n.who(d['attacker'])} attacks {n.who(d['target'])}: rolled {d['roll']} against "
            f"{d['defence_roll']} ({'a hit' if d['hit'] else 'no hit'})")


def _pushed(n: Narrator, d: Data) -> str:
    cause = d.get("by") or (f"scatter {d['scatter']}" if "scatter" in d else "")
    return (f"{n.who(d['model'])} is pushed {d['cm']:.0f} cm to {at(d['to'])}"
            + (f" ({humanize(cause)})" if cause else ""))


def _wound(n: Narrator, d: Data) -> str:
    result = d["result"]
    told = {"none": "no effect", "amulet": "the amulet takes it"}.get(result)
    return f"Wound roll {d['roll']} on {n.who(d['model'])}: {told or STATES.get(result, result)}"


def _routed(n: Narrator, d: Data) -> str:
    return f"{n.gang(d['seat'])} is routed ({d['out']} of {d['models']} models out)"


def _over(n: Narrator, d: Data) -> str:
    if not d["winners"]:
        return f"Match over, a draw: {d['reason']}"
    return f"Match over: {' and '.join(n.gang(s) for s in d['winners'])} won: {d['reason']}"


def _model(text: str) -> Callable[[Narrator, Data], str]:
    """'<model> <text>', the text formatted with the event's fields (names for ids)."""
    def say(n: Narrator, d: Data) -> str:
        fields = {k: n.who(v) if k in ("vehicle", "target", "at", "burns") and
                  isinstance(v, str) else v for k, v in d.items()}
        return f"{n.who(d['model'])} " + text.format(**fields)
    return say


def _vehicle(text: str) -> Callable[[Narrator, Data], str]:
    return lambda n, d: f"{n.who(d['vehicle'])} " + text.format(**d)


_LINES: dict[str, Callable[[Narrator, Data], str]] = {
    "initiative": _initiative,
    "activated": lambda n, d: f"{n.who(d['unit'])} is activated",
    "activation_over": lambda n, d: f"{n.who(d['unit'])} ends its activation",
    "moved": lambda n, d: f"{n.who(d['model'])} moves to {at(d['to'])}"
                          + (f" (on {d['roof']})" if d.get("roof") else ""),
    "stood_up": _model("stands up"),
    "loot_taken": lambda n, d: f"{n.who(d['model'])} takes the crate at {at(d['at'])}",
    "loot_dropped": lambda n, d: f"{n.who(d['model'])} drops {d['crates']} crate(s) at "
                                 f"{at(d['at'])}",
    "took_the_wheel": _model("takes the wheel of {vehicle}"),
    "ammo_check": lambda n, d: f"{n.who(d['model'])}'s ammunition check ({humanize(d['why'])}):"
                               f" rolled {d['roll']}, {_passed(d['passed'])}",
    "shot": lambda n, d: f"{n.who(d['model'])} fires the {humanize(d['weapon'])} at "
                         f"{n.who(d['target'])} (shot {d['shot']})",
    "must_reload": lambda n, d: f"{n.who(d['model'])} must reload the {humanize(d['weapon'])}",
    "harpooned": _model("harpoons {vehicle}"),
    "spear_strikes_first": _model("strikes first with the spear at {at}"),
    "blow": lambda n, d: f"{n.who(d['model'])} strikes {n.who(d['target'])} with the "
                         f"{humanize(d['weapon'])} (blow {d['blow']})",
    "netted": _model("is caught in a net"),
    "drugs_knocked_down": _model("is knocked down by the drugs"),
    "parry": lambda n, d: f"{n.who(d['model'])} tries to parry: rolled {d['roll']}, "
                          + ("parried" if d["parried"] else "not parried"),
    "acid_blood": _model("bleeds acid on {burns}"),
    "pericia_check": lambda n, d: f"{n.who(d['model'])}'s skill check "
                                  f"({humanize(d['why'])}): rolled {d['roll']} against "
                                  f"{d['pericia']}, {_passed(d['passed'])}",
    "attack_roll": _attack,
    "save": lambda n, d: f"{n.who(d['model'])}'s armour save: rolled {d['roll']}, needed "
                         f"{d['needed']}, " + ("saved" if d["saved"] else "not saved"),
    "wound": _wound,
    "out_of_action": _model("is out of action"),
    "charged_while_down": lambda n, d: f"{n.who(d['model'])} is charged while down: now "
                                       f"{STATES.get(d['now'], d['now'])}",
    "pushed": _pushed,
    "fell": _model("falls {height:.0f} cm"),
    "recovered": lambda n, d: f"{n.who(d['model'])} recovers: now "
                              f"{STATES.get(d['now'], d['now'])}",
    "routed": _routed,
    "resigned": lambda n, d: f"{n.gang(d['seat'])} gives up",
    "drove": lambda n, d: f"{n.who(d['vehicle'])} drives to {at(d['to'])}, heading "
                          f"{d['heading']:.0f}°",
    "drifted": lambda n, d: f"{n.who(d['vehicle'])} drifts {d['cm']:.0f} cm to {at(d['to'])}"
                            + (" and crashes" if d["crashed"] else ""),
    "vehicle_save": lambda n, d: f"{n.who(d['vehicle'])}'s armour save: rolled {d['roll']}, "
                                 f"needed {d['needed']}, "
                                 + ("saved" if d["saved"] else "not saved"),
    "vehicle_hit": _vehicle("is hit (location roll {roll})"),
    "exploded": _vehicle("explodes"),
    "engine_roll": _vehicle("engine roll {roll} (needs {needed})"),
    "boarded": _model("boards {vehicle}"),
    "boarding_failed": _model("fails to board {vehicle}"),
    "repaired": _model("repairs {vehicle}"),
    "crew_hit": lambda n, d: f"The hit on {n.who(d['vehicle'])} falls on its crew: "
                             f"{n.who(d['model']) if d.get('model') else 'nobody'}",
    "cargo_hit": lambda n, d: f"The hit on {n.who(d['vehicle'])} falls on its cargo: "
                              f"{n.who(d['model']) if d.get('model') else 'nobody'}",
    "match_over": _over,
}

Narrator.LINES = _LINES
KINDS = frozenset(_LINES)
"""Every event kind with its own sentence."""
