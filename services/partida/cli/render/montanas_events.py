"""Las Montañas events as one readable line each.

Events name cards and monsters by id only. Card names are the deck's, known from the game's
content from the start: learnt from views they went missing for a card drawn and played before
the next view was read. Monsters are named from the views the narrator is shown and from
`monster_enters` events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.cli.render.generic import describe_event as generic_line
from partida.cli.render.montanas import card_names, monster_name, terrain_of
from partida.engine import get


class Narrator:
    def __init__(self) -> None:
        deck = get("montanas").content.cards  # type: ignore[attr-defined]  # Montañas' own
        self.cards: dict[int, str] = {card.id: card.name for card in deck}
        self.monsters: dict[int, str] = {}
        self.terrains: dict[int, str] = {}

    def learn(self, view: Mapping[str, Any]) -> None:
        self.cards.update(card_names(view))
        self.terrains.update({a: terrain_of(view, a) for a in range(1, len(view["alleys"]) + 1)})
        self.monsters.update({m["id"]: monster_name(m["kind"]) for m in view["monsters"]})

    def card(self, cid: Any) -> str:
        return self.cards.get(cid, f"card {cid}")

    def terrain(self, alley: Any) -> str:
        return self.terrains.get(alley, "?")

    def monster(self, mid: Any) -> str:
        return f"{self.monsters.get(mid, 'Monster')} #{mid}"

    def line(self, kind: str, data: Mapping[str, Any]) -> str | None:
        """The sentence for one event; None for the `action` event (the caller names it)."""
        if kind == "action":
            return None
        if kind == "monster_enters":
            self.monsters[data["monster"]] = monster_name(data["kind"])
        say = _LINES.get(kind)
        try:
            return say(self, data) if say else generic_line(kind, data)
        except (KeyError, TypeError, ValueError):  # an event shaped otherwise: show it raw
            return generic_line(kind, data)

    def _target(self, target: str) -> str:
        if target[:1] == "m" and target[1:].isdigit():
            return f" on {self.monster(int(target[1:]))}"
        if target.startswith(("front", "side")):
            return f": {target[:-1]} barricade on section {target[-1]}"
        return f" on the {target}-range band" if target else ""


def _card_played(n: Narrator, d: Mapping[str, Any]) -> str:
    if "fetched" in d:
        return f"Seat {d['seat']} plays {n.card(d['card'])}, fetching {n.card(d['fetched'])}"
    return f"Seat {d['seat']} plays {n.card(d['card'])}{n._target(d.get('target', ''))}"


def _exchange(n: Narrator, d: Mapping[str, Any]) -> str:
    give, take = n.card(d["give"]), n.card(d["take"])
    what = {"give": f"offers {give} to", "ask": f"asks for {take} from",
            "swap": f"proposes {give} for {take} with"}[d["kind"]]
    return f"Seat {d['seat']} {what} seat {d['partner']}"


def _monster_moved(n: Narrator, d: Mapping[str, Any]) -> str:
    if "section" in d:
        return f"{n.monster(d['monster'])} moves inside the ship to section {d['section']}"
    return (f"{n.monster(d['monster'])} moves to alley {d['alley']} "
            f"({n.terrain(d['alley'])}), square {d['square']}")


def _damaged(n: Narrator, d: Mapping[str, Any]) -> str:
    return f"{n.monster(d['monster'])} is hit ({d['cause']}): {d['life']} life left"


def _roll_off(n: Narrator, d: Mapping[str, Any]) -> str:
    rolls = ", ".join(f"seat {s} rolls {r}" for s, r in d["rolls"].items())
    return f"Roll-off for the next victim (lowest loses): {rolls}"


_LINES: dict[str, Callable[[Narrator, Mapping[str, Any]], str]] = {
    "turn_started": lambda n, d: f"=== Turn {d['turn']}: seat {d['seat']} ===",
    "explorer_placed": lambda n, d: f"Seat {d['seat']} places an explorer in section "
                                    f"{d['section']}",
    "barricade_built": lambda n, d: f"A {d['facing']} barricade stands on section {d['section']}",
    "card_drawn": lambda n, d: f"Seat {d['seat']} draws {n.card(d['card'])}",
    "deck_reshuffled": lambda n, d: f"The discard pile is shuffled into a new deck "
                                    f"({d['cards']} cards)",
    "cards_discarded": lambda n, d: f"Seat {d['seat']} discards "
                                    + ", ".join(n.card(c) for c in d["cards"]),
    "exchange_proposed": _exchange,
    "exchange_answered": lambda n, d: f"Seat {d['partner']} "
                                      + ("accepts" if d["accepted"] else "refuses"),
    "card_played": _card_played,
    "explorer_moved": lambda n, d: f"Seat {d['seat']}'s explorer moves from section "
                                   f"{d['from']} to {d['to']}",
    "monster_dice": lambda n, d: f"Monster dice: red {d['red']} · blue {d['blue']} · "
                                 f"white {d['white']}",
    "monster_enters": lambda n, d: f"Red die {d['red_die']}: {n.monster(d['monster'])} "
                                   f"({d['life']} life) enters alley {d['alley']} "
                                   f"({n.terrain(d['alley'])})",
    "monster_moved": _monster_moved,
    "monster_in_ship": lambda n, d: f"{n.monster(d['monster'])} breaks into the ship at "
                                    f"section {d['section']}",
    "direction_drawn": lambda n, d: f"{n.monster(d['monster'])} turns towards section "
                                    + ("1" if d["direction"] < 0 else "6") + " (drawn)",
    "barricade_destroyed": lambda n, d: f"The {d['facing']} barricade of section "
                                        f"{d['section']} is smashed",
    "monster_damaged": _damaged,
    "monster_killed": lambda n, d: f"{n.monster(d['monster'])} is killed",
    "explorer_killed": lambda n, d: f"An explorer of seat {d['seat']} dies in section "
                                    f"{d['section']}",
    "player_eliminated": lambda n, d: f"Seat {d['seat']} has no explorers left and is out",
    "section_destroyed": lambda n, d: f"Ship section {d['section']} is wrecked",
    "roll_off": _roll_off,
    "special_revealed": lambda n, d: f"Special tile revealed: {d['name']}",
    "card_lost": lambda n, d: f"Seat {d['seat']} loses {n.card(d['card'])} (sanity loss)",
    "match_over": lambda n, d: ("Match over: the ship holds, " if d["won"]
                                else "Match over: defeat, ") + d["reason"],
}
