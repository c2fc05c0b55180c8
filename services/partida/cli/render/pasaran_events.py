"""¿Pasarán? events as one readable line each.

Events name units, places and cards by id; the narrator names them from the game's content.
An event the seat may not read in full (the other side's cards and chits, a hidden unit's move
under fog of war) arrives cut down to its public fields, and is told with only those."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.cli.render.generic import describe_event as generic_line
from partida.cli.render.pasaran import card_name, place_name, side_name, unit_text

Data = Mapping[str, Any]

MOVES = {"move": "moves", "rail": "goes by rail", "coast": "sails along the coast",
         "rebase": "rebases", "airlift": "is airlifted", "invade": "lands from the sea",
         "revolt": "rises in revolt"}
BUILDS = {"build": "build", "repair": "repair", "rebuild": "rebuild"}


class Narrator:
    def learn(self, view: Mapping[str, Any]) -> None:
        """Everything the narrator needs is in the content; views add nothing."""

    def line(self, kind: str, data: Data) -> str | None:
        """The sentence for one event; None for the `action` event (the caller names it)."""
        if kind == "action":
            return None
        say = _LINES.get(kind)
        if say is None and kind in MOVES:
            say = _moved
        try:
            return say(kind, data) if say else generic_line(kind, data)
        except (KeyError, TypeError, ValueError, IndexError):   # shaped otherwise: show it raw
            return generic_line(kind, data)


def _unit(d: Data) -> str:
    return unit_text(d["unit"]) if "unit" in d else "A unit"


def _moved(kind: str, d: Data) -> str:
    return f"{_unit(d)} {MOVES[kind]} to {place_name(d['to'])}"


def _round(kind: str, d: Data) -> str:
    hits = sum(int(f[4]) for f in d["fire"])
    shots = "; ".join(f"{unit_text(f[0])} rolls {'/'.join(map(str, f[3]))} at {f[1]} "
                      f"({f[4]} hit{'s' if f[4] != 1 else ''})" for f in d["fire"] if f[3])
    return (f"Round {d['round']} in {place_name(d['place'])}: {hits} hit(s)"
            + (f": {shots}" if shots else ""))


def _retreated(kind: str, d: Data) -> str:
    who = "aircraft of the " if d.get("aircraft_only") else ""
    to = f" to {place_name(d['to'])}" if d.get("to") else ""
    return f"The {who}{side_name(d['side'])} fall back from {place_name(d['place'])}{to}"


def _declared(kind: str, d: Data) -> str:
    air, aa = str(d["declaration"]).split(":")
    return (f"The {side_name(d['side'])} send {air} spare aircraft over the land and put {aa} "
            "spare land units on anti-aircraft")


def _drawn(kind: str, d: Data) -> str:
    what = "cards" if kind == "cards_drawn" else "chits"
    if "cards" in d or "chits" in d:
        names = d.get("cards") or d.get("chits")
        shown = ", ".join(card_name(c) for c in names) if what == "cards" else ", ".join(names)
        return f"The {side_name(d['side'])} draw {what}: {shown}"
    return f"The {side_name(d['side'])} draw {d['count']} {what}, face down"


def _kept(kind: str, d: Data) -> str:
    card = f" {card_name(d['card'])}" if "card" in d else " a card"
    return f"The {side_name(d['side'])} keep{card} for {d['cost']} BP"


def _returned(kind: str, d: Data) -> str:
    card = card_name(d["card"]) if "card" in d else "a card"
    return f"The {side_name(d['side'])} put {card} back under the deck (not theirs to play)"


def _produced(kind: str, d: Data) -> str:
    unit = f" {unit_text(d['unit'])}" if "unit" in d else " a unit"
    return f"The {side_name(d['side'])} {BUILDS[kind]}{unit} ({d['stored']} BP left)"


def _siege(kind: str, d: Data) -> str:
    rolls = ", ".join(f"{unit_text(u)} {r}" for u, r in d["rolls"].items())
    return f"Siege of {place_name(d['area'])}: {rolls or 'no rolls'}"


def _over(kind: str, d: Data) -> str:
    won = f"the {side_name(d['winner'])} hold it" if d.get("winner") else "nobody is left"
    return f"The combat in {place_name(d['place'])} ends: {won}"


def _where(key: str, text: str) -> Callable[[str, Data], str]:
    """A unit event whose public form keeps only the place: '<unit> <text> <place>'."""
    return lambda kind, d: f"{_unit(d)} {text} {place_name(d[key])}"


_LINES: dict[str, Callable[[str, Data], str]] = {
    "turn": lambda k, d: f"Turn {d['turn']} begins: {d['quarter']}",
    "initiative": lambda k, d: (f"Initiative to the {side_name(d['side'])} (rolls: "
                                + ", ".join(f"{side_name(s)} {r}" for s, r in d["rolls"].items())
                                + ")"),
    "weather": lambda k, d: f"The weather is {d['weather']} (rolled {d['roll']})",
    "first": lambda k, d: f"The {side_name(d['side'])} act first",
    "placed": _where("at", "arrives in"),
    "delayed": lambda k, d: f"{unit_text(d['unit'])} cannot arrive yet: delayed a turn",
    "reassembled": lambda k, d: (f"{unit_text(d['unit'])} and {unit_text(d['spare'])} "
                                 "reassemble into one unit on its front"
                                 if "unit" in d else "Two units reassemble into one"),
    "digging": _where("place", "digs a trench in"),
    "trench_removed": lambda k, d: f"The {side_name(d['side'])} fill in their trench in "
                                   f"{place_name(d['place'])}",
    "trench_lost": lambda k, d: f"The {side_name(d['side'])} trench in "
                                f"{place_name(d['place'])} absorbs a hit and is gone",
    "pinned": lambda k, d: (f"{_unit(d)} pins {unit_text(d['target'])}"),
    "reacted": lambda k, d: (f"{_unit(d)} joins the fight in {place_name(d['to'])}"
                             + (f" ({d['how']})" if d.get("how") else "")),
    "taken": lambda k, d: f"The {side_name(d['side'])} take {place_name(d['place'])}",
    "combat": lambda k, d: f"Combat in {place_name(d['place'])}",
    "declared": _declared,
    "round": _round,
    "flipped": lambda k, d: f"{unit_text(d['unit'])} is hit and turns to its back",
    "eliminated": lambda k, d: (f"{unit_text(d['unit'])} is eliminated"
                                + (f" ({d['why']})" if d.get("why") else "")),
    "retreated": _retreated,
    "fights_on": lambda k, d: f"The {side_name(d['side'])} fight on",
    "landed": _where("at", "lands in"),
    "sent_back": _where("to", "is sent back to"),
    "combat_over": _over,
    "siege": _siege,
    "exploitation": lambda k, d: f"The {side_name(d['side'])} exploit their breakthroughs",
    "chits_drawn": _drawn,
    "chit_played": lambda k, d: f"The {side_name(d['side'])} play the chit {d['chit']}",
    "cards_drawn": _drawn,
    "card_kept": _kept,
    "cards_declined": lambda k, d: f"The {side_name(d['side'])} keep none of the cards drawn",
    "card_returned": _returned,
    "card_discarded": lambda k, d: f"{card_name(d['card'])} is discarded ({d['why']})",
    "card_played": lambda k, d: (f"The {side_name(d['side'])} play {card_name(d['card'])}"
                                 + (f" ({', '.join(map(place_name, d['choice']))})"
                                    if d.get("choice") else "")),
    "revolt_over": lambda k, d: f"{card_name(d['card'])} ends: {place_name(d['area'])} "
                                "is calm again",
    "income": lambda k, d: f"The {side_name(d['side'])} collect {d['bp']} BP "
                           f"({d['stored']} stored)",
    "build": _produced, "repair": _produced, "rebuild": _produced,
    "victory": lambda k, d: f"Match over: the {side_name(d['winner'])} win: {d['reason']}",
}

KINDS = frozenset(_LINES) | frozenset(MOVES)
"""Every event kind with its own sentence."""
