"""¿Pasarán? events as one readable line each.

Events name units, places and cards by id; the narrator names them from the game's content.
An event the seat may not read in full (the other side's cards and chits, a hidden unit's move
under fog of war) arrives cut down to its public fields, and is told with only those."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.cli.render.generic import TableNarrator
from partida.cli.render.pasaran import card_name, place_name, side_name, unit_text

Data = Mapping[str, Any]
Say = Callable[["Narrator", Data], str]

MOVES = {"move": "moves", "rail": "goes by rail", "coast": "sails along the coast",
         "rebase": "rebases", "airlift": "is airlifted", "invade": "lands from the sea",
         "revolt": "rises in revolt"}


class Narrator(TableNarrator):
    """Everything the narrator needs is in the content; views add nothing."""


def _unit(d: Data) -> str:
    return unit_text(d["unit"]) if "unit" in d else "A unit"


def _moved(kind: str) -> Say:
    return lambda n, d: f"{_unit(d)} {MOVES[kind]} to {place_name(d['to'])}"


def _round(n: Narrator, d: Data) -> str:
    hits = sum(int(f[4]) for f in d["fire"])
    shots = "; ".join(f"{unit_text(f[0])} rolls {'/'.join(map(str, f[3]))} at {f[1]} "
                      f"({f[4]} hit{'s' if f[4] != 1 else ''})" for f in d["fire"] if f[3])
    return (f"Round {d['round']} in {place_name(d['place'])}: {hits} hit(s)"
            + (f": {shots}" if shots else ""))


def _retreated(n: Narrator, d: Data) -> str:
    who = "aircraft of the " if d.get("aircraft_only") else ""
    to = f" to {place_name(d['to'])}" if d.get("to") else ""
    return f"The {who}{side_name(d['side'])} fall back from {place_name(d['place'])}{to}"


def _declared(n: Narrator, d: Data) -> str:
    air, aa = str(d["declaration"]).split(":")
    return (f"The {side_name(d['side'])} send {air} spare aircraft over the land and put {aa} "
            "spare land units on anti-aircraft")


def _drawn(what: str, name: Callable[[Any], str]) -> Say:
    """Cards or chits drawn: named to their side, counted to the other."""
    def say(n: Narrator, d: Data) -> str:
        if what in d:
            return f"The {side_name(d['side'])} draw {what}: " + ", ".join(map(name, d[what]))
        return f"The {side_name(d['side'])} draw {d['count']} {what}, face down"
    return say


def _kept(n: Narrator, d: Data) -> str:
    card = f" {card_name(d['card'])}" if "card" in d else " a card"
    return f"The {side_name(d['side'])} keep{card} for {d['cost']} BP"


def _returned(n: Narrator, d: Data) -> str:
    card = card_name(d["card"]) if "card" in d else "a card"
    return f"The {side_name(d['side'])} put {card} back under the deck (not theirs to play)"


def _produced(verb: str) -> Say:
    def say(n: Narrator, d: Data) -> str:
        unit = f" {unit_text(d['unit'])}" if "unit" in d else " a unit"
        return f"The {side_name(d['side'])} {verb}{unit} ({d['stored']} BP left)"
    return say


def _siege(n: Narrator, d: Data) -> str:
    rolls = ", ".join(f"{unit_text(u)} {r}" for u, r in d["rolls"].items())
    return f"Siege of {place_name(d['area'])}: {rolls or 'no rolls'}"


def _over(n: Narrator, d: Data) -> str:
    won = f"the {side_name(d['winner'])} hold it" if d.get("winner") else "nobody is left"
    return f"The combat in {place_name(d['place'])} ends: {won}"


def _where(key: str, text: str) -> Say:
    """A unit event whose public form keeps only the place: '<unit> <text> <place>'."""
    return lambda n, d: f"{_unit(d)} {text} {place_name(d[key])}"


_LINES: dict[str, Say] = {
    **{kind: _moved(kind) for kind in MOVES},
    "turn": lambda n, d: f"Turn {d['turn']} begins: {d['quarter']}",
    "initiative": lambda n, d: (f"Initiative to the {side_name(d['side'])} (rolls: "
                                + ", ".join(f"{side_name(s)} {r}" for s, r in d["rolls"].items())
                                + ")"),
    "weather": lambda n, d: f"The weather is {d['weather']} (rolled {d['roll']})",
    "first": lambda n, d: f"The {side_name(d['side'])} act first",
    "placed": _where("at", "arrives in"),
    "delayed": lambda n, d: f"{unit_text(d['unit'])} cannot arrive yet: delayed a turn",
    "reassembled": lambda n, d: (f"{unit_text(d['unit'])} and {unit_text(d['spare'])} "
                                 "reassemble into one unit on its front"
                                 if "unit" in d else "Two units reassemble into one"),
    "digging": _where("place", "digs a trench in"),
    "trench_removed": lambda n, d: f"The {side_name(d['side'])} fill in their trench in "
                                   f"{place_name(d['place'])}",
    "trench_lost": lambda n, d: f"The {side_name(d['side'])} trench in "
                                f"{place_name(d['place'])} absorbs a hit and is gone",
    "pinned": lambda n, d: (f"{_unit(d)} pins {unit_text(d['target'])}"),
    "reacted": lambda n, d: (f"{_unit(d)} joins the fight in {place_name(d['to'])}"
                             + (f" ({d['how']})" if d.get("how") else "")),
    "taken": lambda n, d: f"The {side_name(d['side'])} take {place_name(d['place'])}",
    "combat": lambda n, d: f"Combat in {place_name(d['place'])}",
    "declared": _declared,
    "round": _round,
    "flipped": lambda n, d: f"{unit_text(d['unit'])} is hit and turns to its back",
    "eliminated": lambda n, d: (f"{unit_text(d['unit'])} is eliminated"
                                + (f" ({d['why']})" if d.get("why") else "")),
    "retreated": _retreated,
    "fights_on": lambda n, d: f"The {side_name(d['side'])} fight on",
    "landed": _where("at", "lands in"),
    "sent_back": _where("to", "is sent back to"),
    "combat_over": _over,
    "siege": _siege,
    "exploitation": lambda n, d: f"The {side_name(d['side'])} exploit their breakthroughs",
    "chits_drawn": _drawn("chits", str),
    "chit_played": lambda n, d: f"The {side_name(d['side'])} play the chit {d['chit']}",
    "cards_drawn": _drawn("cards", card_name),
    "card_kept": _kept,
    "cards_declined": lambda n, d: f"The {side_name(d['side'])} keep none of the cards drawn",
    "card_returned": _returned,
    "card_discarded": lambda n, d: f"{card_name(d['card'])} is discarded ({d['why']})",
    "card_played": lambda n, d: (f"The {side_name(d['side'])} play {card_name(d['card'])}"
                                 + (f" ({', '.join(map(place_name, d['choice']))})"
                                    if d.get("choice") else "")),
    "revolt_over": lambda n, d: f"{card_name(d['card'])} ends: {place_name(d['area'])} "
                                "is calm again",
    "income": lambda n, d: f"The {side_name(d['side'])} collect {d['bp']} BP "
                           f"({d['stored']} stored)",
    "build": _produced("build"), "repair": _produced("repair"),
    "rebuild": _produced("rebuild"),
    "victory": lambda n, d: f"Match over: the {side_name(d['winner'])} win: {d['reason']}",
}

Narrator.LINES = _LINES
KINDS = frozenset(_LINES)
"""Every event kind with its own sentence."""
