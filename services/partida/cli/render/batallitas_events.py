"""Batallitas events as one readable line each.

Events name noses by id ("s2.3") and squads by index; the narrator learns from the views it is
shown the label and name the map uses ("c3 Fan (DJ)") and each squad's letter. Weapons and
event cards are named from the content. The other seats' dealt cards arrive as a count."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.cli.render.batallitas import card_title, humanize, labels, weapon_name
from partida.cli.render.generic import TableNarrator

Data = Mapping[str, Any]
RESULTS = {"critical": "a critical", "success": "a success", "failure": "a failure",
           "screw_up": "a screw-up"}


class Narrator(TableNarrator):
    def __init__(self) -> None:
        self.noses: dict[str, str] = {}
        self.squads: dict[int, str] = {}

    def learn(self, view: Mapping[str, Any]) -> None:
        marks = labels(view)
        for n in view["noses"]:
            self.noses[n["id"]] = f"{marks[n['id']]} {n['name']}"
            self.squads[n["squad"]] = marks[n["id"]][0]
        for sq in view["squads"]:
            if sq["index"] in self.squads:
                self.squads[sq["index"]] = f"squad {self.squads[sq['index']]} ({sq['spec']})"

    def nose(self, nid: Any) -> str:
        return self.noses.get(nid, str(nid))

    def squad(self, index: Any) -> str:
        return self.squads.get(index, f"squad {index}")


def cell(p: Any) -> str:
    return f"{p[0]},{p[1]}"


def _dice(d: Data) -> str:
    faces = d.get("faces") or []
    return f"{d['dice']} dice" + (f" ({', '.join(map(str, faces))})" if faces else "")


def _shot(n: Narrator, d: Data) -> str:
    victim = f" at {n.nose(d['victim'])}" if d.get("victim") else ""
    how = [x for x, on in (("on alert", d.get("alert")), ("infernal", d.get("infernal")),
                           (f"cover {d.get('cover')}", d.get("cover"))) if on]
    return (f"{n.nose(d['nose'])} fires the {weapon_name(d['weapon'])} at {cell(d['target'])}"
            f"{victim}: {_dice(d)}, {RESULTS.get(d['result'], d['result'])}"
            + (f" ({', '.join(how)})" if how else ""))


def _blow(n: Narrator, d: Data) -> str:
    head = f"{n.nose(d['nose'])} strikes {n.nose(d['target'])} with {weapon_name(d['weapon'])}"
    if not d["dice"]:
        return head + ": no dice to roll"
    how = [x for x, on in (("infernal", d.get("infernal")), ("from behind", d.get("surprise")))
           if on]
    return (f"{head}: {_dice(d)}, {RESULTS.get(d['result'], d['result'])}"
            + (f" ({', '.join(how)})" if how else ""))


def _leader(n: Narrator, d: Data) -> str:
    if "nose" in d:
        return f"{n.nose(d['nose'])} leads {n.squad(d['squad'])}"
    return f"{n.squad(d['squad']).capitalize()} takes a leader of type {humanize(d['type'])}"


def _grenades(n: Narrator, d: Data) -> str:
    split = ", ".join(f"{weapon_name(w)} x{k}" for w, k in d.items() if w != "nose")
    return f"{n.nose(d['nose'])} carries {split or 'no grenades'}"


def _dealt(n: Narrator, d: Data) -> str:
    if "cards" in d:
        return f"Seat {d['seat']} is dealt: " + ", ".join(card_title(c) for c in d["cards"])
    return f"Seat {d['seat']} is dealt {d['count']} event cards, face down"


def _goods(goods: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in goods.items() if v) or "nothing"


def _door(n: Narrator, d: Data, verb: str) -> str:
    leaf = f" (leaf {d['leaf']})" if "leaf" in d else ""
    return f"{n.nose(d['nose'])} {verb} door {d['door']}{leaf}"


def _videogame(verb: str) -> Callable[[Narrator, Data], str]:
    words = {"take": "picks up the videogame", "drop": "leaves the videogame on the floor",
             "pass": "passes the videogame"}
    return lambda n, d: (f"{n.nose(d['nose'])} {words[verb]}"
                         + (f" to {n.nose(d['to'])}" if d.get("to") else ""))


def _modifier(n: Narrator, d: Data) -> str:
    changes = [f"{a} {v:+d}" for a, v in d["attrs"].items()] + list(d["flaws"])
    return (f"{card_title(d['card'])} on {n.nose(d['nose'])}: {', '.join(changes) or 'no change'}"
            f" (until {humanize(d['until'])})")


def _nose(text: str) -> Callable[[Narrator, Data], str]:
    """'<nose> <text>', the text formatted with the event's other fields."""
    return lambda n, d: f"{n.nose(d['nose'])} " + text.format(**{k: v for k, v in d.items()
                                                                    if k != "nose"})


def _with_squad(text: str) -> Callable[[Narrator, Data], str]:
    """A line naming a nose and a squad."""
    return lambda n, d: text.format(nose=n.nose(d["nose"]), squad=n.squad(d["squad"]))


_LINES: dict[str, Callable[[Narrator, Data], str]] = {
    "leader_chosen": _leader,
    "atrophy": lambda n, d: f"{n.nose(d['nose'])} loses a point of {d['attribute']} (atrophy)",
    "grenades": _grenades,
    "deployed": lambda n, d: f"{n.nose(d['nose'])} is deployed at {cell(d['cell'])} facing "
                             f"{d['facing']}",
    "cards_dealt": _dealt,
    "board_placed": lambda n, d: f"Board {d['board']} is laid ({len(d['boards'])} on the table)",
    "turn_started": lambda n, d: f"Turn {d['turn']} begins: initiative markers "
                                 + ", ".join(f"{s} {list(d['bag']).count(s)}"
                                             for s in sorted(set(d["bag"]))),
    "turn_ended": lambda n, d: f"Turn {d['turn']} ends",
    "initiative_drawn": lambda n, d: f"A {d['side']} initiative marker is drawn "
                                     f"({d['left']} left)",
    "strategy": lambda n, d: f"The {d['side']} side activates {n.squad(d['squad'])} by "
                             f"strategy ({d['left']} markers left)",
    "squad_activated": lambda n, d: f"{n.squad(d['squad']).capitalize()} is activated",
    "squad_done": lambda n, d: f"{n.squad(d['squad']).capitalize()} is done",
    "nose_done": _nose("is done"),
    "out_of_command": _nose("is out of command"),
    "pajara": _nose("has a pájara"),
    "pajara_removed": _nose("shakes off the pájara"),
    "entered": lambda n, d: f"{n.nose(d['nose'])} enters at {cell(d['cell'])} from the "
                            f"{d['edge']} edge ({d['cost']} points)",
    "moved": lambda n, d: f"{n.nose(d['nose'])} moves to {cell(d['to'])} ({d['cost']} points)",
    "turned": _nose("turns to face {facing} ({cost} points)"),
    "turned_round": _nose("turns round to face {facing}"),
    "on_alert": _nose("goes on alert"),
    "jammed": lambda n, d: f"{n.nose(d['nose'])}'s {weapon_name(d['weapon'])} jams",
    "unjammed": lambda n, d: f"{n.nose(d['nose'])} clears the {weapon_name(d['weapon'])}",
    "reloaded": lambda n, d: f"{n.nose(d['nose'])} reloads the {weapon_name(d['weapon'])} "
                             f"({d['spares']} spare magazines left)",
    "shot": _shot,
    "blow": _blow,
    "sweep": lambda n, d: f"{n.nose(d['nose'])} sweeps {len(d['cells'])} cells with the "
                          f"{weapon_name(d['weapon'])}",
    "sweep_ended": _nose("ends the sweep"),
    "pupae_roll": lambda n, d: f"Pupae for {n.nose(d['target'])} from {n.nose(d['nose'])}: "
                               f"{_dice(d)}, {d['pupae']} pupae"
                               + (" (critical)" if d.get("critical") else ""),
    "pupae_lost": _nose("loses {pupae} pupae ({left} left)"),
    "pupae_ignored": _nose("ignores {pupae} pupae"),
    "nose_eliminated": _nose("is OUT"),
    "explosion": lambda n, d: f"{n.nose(d['nose'])}'s {weapon_name(d['weapon'])} explodes at "
                              f"{cell(d['centre'])}, over {len(d['cells'])} cells"
                              + (" (critical)" if d.get("critical") else ""),
    "flamethrower_exploded": lambda n, d: f"{n.nose(d['nose'])}'s flamethrower blows up at "
                                          f"{cell(d['cell'])}",
    "overheated": lambda n, d: f"{n.nose(d['nose'])}'s {weapon_name(d['weapon'])} overheats "
                               f"({d['times']} times)",
    "scatter_roll": lambda n, d: f"{n.nose(d['nose'])}'s throw goes {d['cells']} cells "
                                 f"astray; the {d['chooser']} side picks the way",
    "scattered": lambda n, d: f"{n.nose(d['nose'])}'s throw scatters {d['direction']} to "
                              f"{cell(d['cell'])}",
    "kaboom": lambda n, d: f"¡Kaboom! {n.nose(d['nose'])}'s {weapon_name(d['weapon'])} "
                           f"hurts its holder: {_dice(d)}, {d['pupae']} pupae",
    "card_played": lambda n, d: f"Seat {d['seat']} plays {card_title(d['card'])}"
                                + (f" ({d['target']})" if d.get("target") else ""),
    "reroll": lambda n, d: f"Seat {d['seat']} plays {card_title(d['card'])}: "
                           f"{n.nose(d['nose'])}'s roll is void",
    "modifier": _modifier,
    "modifier_ended": lambda n, d: f"{card_title(d['card'])} on {n.nose(d['nose'])} ends",
    "rights": _nose("rolls {die} for the rights"),
    "born_leader": _nose("is a born leader"),
    "traitor": _with_squad("{nose} turns traitor and joins {squad}"),
    "reinforcements": lambda n, d: f"{len(d['noses'])} reinforcements join "
                                   f"{n.squad(d['squad'])} from the {d['edge']} edge",
    "bomb": lambda n, d: f"A bomb falls at {cell(d['cell'])} (rolled {d['die']})",
    "human_bomb": _nose("is a human bomb"),
    "booby_trap_set": lambda n, d: f"A booby trap is set at {cell(d['cell'])}",
    "booby_trap_roll": _nose("trips the booby trap: rolled {die}"),
    "milu": _nose("rolls {die} (Milú)"),
    "leadership_lost": _with_squad("{nose} no longer leads {squad}"),
    "provisional_leader": _with_squad("{nose} leads {squad} for now"),
    "door_opened": lambda n, d: _door(n, d, "opens"),
    "door_closed": lambda n, d: _door(n, d, "closes"),
    "flap_opened": lambda n, d: f"{n.nose(d['nose'])} opens the flap at {cell(d['cell'])}",
    "flap_closed": lambda n, d: f"{n.nose(d['nose'])} closes the flap at {cell(d['cell'])}",
    "marker_hidden": lambda n, d: f"A face-down marker lies at {cell(d['cell'])}",
    "marker_revealed": lambda n, d: f"The marker at {cell(d['cell'])} is turned: "
                                    f"{humanize(d['kind'])}",
    "passage_crossed": _nose("goes through the secret passage"),
    "left_board": lambda n, d: f"{n.nose(d['nose'])} leaves the board ({d['side']}, carrying "
                               f"{_goods(d['goods'])})",
    "armed": lambda n, d: f"{n.nose(d['nose'])} takes up "
                          + ", ".join(weapon_name(w) for w in d["weapons"]),
    "product_taken": lambda n, d: f"{n.nose(d['nose'])} takes {humanize(d['product'])} "
                                  f"(carrying {_goods(d['goods'])})",
    "trolley_taken": _nose("takes a shopping trolley"),
    "trolley_grabbed": lambda n, d: f"{n.nose(d['nose'])} grabs an abandoned trolley "
                                    f"({_goods(d['goods'])})",
    "trolley_abandoned": lambda n, d: f"{n.nose(d['nose'])}'s trolley is left at "
                                      f"{cell(d['pos'])} ({_goods(d['goods'])})",
    "videogame_carried": _nose("carries the videogame"),
    "videogame_take": _videogame("take"),
    "videogame_drop": _videogame("drop"),
    "videogame_pass": _videogame("pass"),
    "slider_gone": lambda n, d: ", ".join(n.nose(x) for x in d["noses"]) + " drive off in "
                                "the slider" + (" with the videogame" if d["videogame"] else ""),
    "match_over": lambda n, d: f"Match over: {d.get('side') or 'nobody'} won: {d['reason']}",
}

Narrator.LINES = _LINES
KINDS = frozenset(_LINES)
"""Every event kind with its own sentence."""
