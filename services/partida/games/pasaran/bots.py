"""¿Pasarán? bots. They read only the view and the legal actions (and the public content).

The heuristic bot buys and plays the cards it can use, places and rails units to the front,
takes empty enemy areas (richest first), attacks only where the strength it has gathered there
beats the defenders clearly, reacts into the places it holds, retreats from combats it is
losing badly, repairs and then builds the strongest units its BP pay for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partida.engine import Action, Rng
from partida.engine.bots import RandomBot
from partida.games.pasaran.content import Content, load

SIDES = ("rep", "nat")
ODDS = 1.5   # own strength over the defenders' wanted before an attack


class _Board:
    """What the bot reads off a view: who holds what and how strong each side stands where."""

    def __init__(self, content: Content, view: Mapping[str, Any]) -> None:
        self.c = content
        self.view = view
        self.side = SIDES[view["to_act"][0]]
        self.enemy = SIDES[1 - view["to_act"][0]]
        self.units = view["units"]
        self._at: dict[tuple[str, str], int] = {}
        seen: dict[tuple[str, str], int] = {}
        for u, r in self.units.items():
            if r["status"] == "map" and not r.get("hidden"):
                key = (r["at"], r["side"])
                self._at[key] = self._at.get(key, 0) + self.strength(u) + (r["kind"] == "hq")
                seen[key] = seen.get(key, 0) + 1
        for side, stacks in view.get("stacks", {}).items():    # 9.2: guess 2 per unseen unit
            for place, count in stacks.items():
                key = (place, side)
                self._at[key] = self._at.get(key, 0) + 2 * (count - seen.get(key, 0))
        self._pressure: dict[str, int] = {}

    def strength(self, uid: str) -> int:
        u = self.c.unit(uid)
        return u.front if self.units[uid]["face"] == "front" else (u.back or 0)

    def at(self, place: str, side: str) -> int:
        return self._at.get((place, side), 0)

    def holder(self, place: str) -> str | None:
        if place.endswith(".c"):
            return self.view["city_control"].get(place[:-2])
        return self.view["control"].get(place)

    def pressure(self, area: str) -> int:
        """Enemy strength next door: how much a place is front line."""
        if area not in self._pressure:
            self._pressure[area] = self._near_enemy(area)
        return self._pressure[area]

    def _near_enemy(self, area: str) -> int:
        return sum(self.at(b, self.enemy) + self.at(b + ".c", self.enemy)
                   + (1 if self.view["control"].get(b) == self.enemy else 0)
                   for b in self.c.area(area.removesuffix(".c")).adjacent)

    def could_join(self, dest: str, mover: str) -> int:
        """Strength of own land units next to `dest` that have not moved yet."""
        near = set(self.c.area(dest.removesuffix(".c")).adjacent) | {dest.removesuffix(".c")}
        return sum(self.strength(u) for u, r in self.units.items()
                   if u != mover and r["status"] == "map" and r["side"] == self.side
                   and not r.get("hidden")
                   and not r["moved"] and r["kind"] in ("inf", "tank")
                   and r["at"].removesuffix(".c") in near)

    def bp(self, place: str) -> int:
        return self.c.area(place.removesuffix(".c")).bp


class HeuristicBot:
    """Scores each legal action and takes the best; see the module docstring."""

    def __init__(self, content: Content | None = None) -> None:
        self.content = content or load()

    def choose(self, view: Mapping[str, Any], actions: Sequence[Action], rng: Rng) -> str:
        ids = [a.id for a in actions]
        board = _Board(self.content, view)
        scored = [(self._score(board, a), -i, a) for i, a in enumerate(ids)]
        return max(scored)[2]

    def _score(self, b: _Board, aid: str) -> float:
        verb, _, rest = aid.partition(":")
        parts = rest.split(":")
        if verb in ("end", "decline"):
            return 0.0
        if verb == "stay":
            return 0.5
        if verb == "play":
            return 5.0
        if verb == "keep":
            return 3.0 + self.content.card(parts[0]).cost
        if verb == "place":
            return 1.0 + b.pressure(parts[1]) - (0.5 if parts[1].endswith(".c") else 0)
        if verb in ("rail", "coast", "airlift", "rebase"):
            uid, dest = parts[0], parts[1]
            here = b.units[uid]["at"]
            return b.pressure(dest) - b.pressure(here) - 1.0
        if verb in ("move", "invade"):
            return self._move(b, parts[0], parts[1])
        if verb == "dig":                               # 9.5: dig in on the front line only
            return 0.5 if b.pressure(b.units[parts[0]]["at"]) else -1.0
        if verb in ("fill", "pin"):
            return -1.0
        if verb == "reassemble":
            return 2.0
        if verb == "chit":
            return 3.0
        if verb == "react":
            return 2.0 if b.holder(parts[1]) == b.side else -1.0
        if verb == "fight":
            return 2.0
        if verb == "siege":
            return 1.0
        if verb == "loss":                              # 9.5: a trench is the cheapest hit
            return 1.0 if parts[0] == "trench" else -b.strength(parts[0])
        if verb == "retreat":
            place = b.view["combat"]["place"]
            losing = b.at(place, b.side) * 2 < b.at(place, b.enemy)
            return 1.0 if losing else -1.0
        if verb == "air_retreat":
            return -0.5
        if verb == "repair":
            return 4.0
        if verb == "build":
            u = self.content.unit(parts[0])
            return 1.0 + u.front / (u.front * self.content.tables.cost_factor[u.kind])
        return 0.0

    def _move(self, b: _Board, uid: str, dest: str) -> float:
        here = b.units[uid]["at"]
        mine = b.strength(uid)
        enemy_here = b.at(dest, b.enemy) + (0 if dest.endswith(".c") else b.at(dest + ".c",
                                                                              b.enemy))
        leaving = -2.0 if b.pressure(here) and b.at(here, b.side) <= mine else 0.0
        if b.holder(dest) == b.side and not enemy_here:
            if b.units[uid]["kind"] == "air":
                return -1.0
            return 0.3 * (b.pressure(dest) - b.pressure(here)) + leaving
        if not enemy_here:
            return 3.0 + 2 * b.bp(dest) + leaving               # an empty enemy place
        odds = (b.at(dest, b.side) + mine + b.could_join(dest, uid)) / enemy_here
        if b.units[uid]["kind"] == "air":
            return 1.0 if b.at(dest, b.side) else -1.0           # air supports land attacks
        return (2.0 + b.bp(dest) + odds + leaving) if odds >= ODDS else odds - ODDS


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
