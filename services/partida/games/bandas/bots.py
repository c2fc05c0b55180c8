"""Bandas bots. They read only the view and the legal actions (there is nothing hidden).

The heuristic bot activates the unit nearest the enemy, stands up, repairs, takes the shot or
blow with the best chance to hit (a downed enemy in contact first), moves shooters towards a
good range near cover and fighters into contact, picks up crates and runs them away from the
enemy, drives its convoy truck to the exit and other vehicles at the enemy, and ends only when
nothing scores better.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shapely.geometry import Point, Polygon

from partida.engine import Action, Rng
from partida.engine.bots import RandomBot
from partida.games.bandas.content import load

PTS = load().points
_ODDS = {d: sum(1 for a in range(1, 7) for b in range(1, 7) if a + d > b) / 36
         for d in range(-12, 13)}


def hit_chance(ws: int, pericia: int) -> float:
    """P(d6 + ws > d6 + pericia)."""
    return _ODDS[max(-12, min(12, ws - pericia))]


def _xy(view: Mapping[str, Any], mid: str) -> tuple[float, float]:
    m = view["models"][mid]
    if m["vehicle"]:
        v = view["vehicles"][m["vehicle"]]
        return (v["x"], v["y"])
    return (m["x"], m["y"])


def _point(aid: str) -> tuple[float, float]:
    x, y = aid.split(":", 1)[1].split(",")
    return (float(x), float(y))


class HeuristicBot:
    """Scores each legal action and takes the best; see the module docstring."""

    def choose(self, view: Mapping[str, Any], actions: Sequence[Action], rng: Rng) -> str:
        ids = [a.id for a in actions]
        if ids == ["continue"]:
            return ids[0]
        seat = view["to_act"][0]
        enemies = [mid for mid, m in view["models"].items() if m["seat"] != seat
                   and m["status"] != "out" and m["seat"] not in view["routed"]]
        if view["active"] is None:
            return min(ids, key=lambda a: self._unit_distance(view, a.split(":", 1)[1], enemies))
        unit = view["active"]["unit"]
        scored = [(self._score(view, seat, unit, enemies, a), -i, a) for i, a in enumerate(ids)]
        return max(scored)[2]

    def _unit_distance(self, view: Mapping[str, Any], unit: str, enemies: list[str]) -> float:
        at = (view["vehicles"][unit]["x"], view["vehicles"][unit]["y"]) \
            if unit in view["vehicles"] else _xy(view, unit)
        return min((math.dist(at, _xy(view, e)) for e in enemies), default=0.0)

    def _score(self, view: Mapping[str, Any], seat: int, unit: str, enemies: list[str],
               aid: str) -> float:
        verb = aid.split(":", 1)[0]
        if verb in ("stand", "repair"):
            return 50.0
        if verb == "shoot" or verb == "fight":
            return self._attack(view, unit, aid)
        if verb == "move":
            return self._move(view, unit, enemies, _point(aid))
        if verb == "drive":
            return self._drive(view, seat, unit, enemies, _point(aid))
        if verb == "board":
            return -5.0
        if verb == "drugs":
            return 1.0 if aid.endswith(":ws") else -1.0
        return 0.5      # end: better than a move that gains nothing

    def _attack(self, view: Mapping[str, Any], unit: str, aid: str) -> float:
        verb, target, weapon = aid.split(":")
        me = view["models"][unit]
        ws = PTS.grades[me["grade"]].ws
        spec = PTS.weapons.get(weapon)
        ws += (spec.ws_bonus if spec else 0) - (view["active"]["shots"] if verb == "shoot"
                                               else view["active"]["blows"])
        if target in view["vehicles"]:
            return 5 + 10 * hit_chance(ws, 3)
        t = view["models"][target]
        if t["status"] in ("down", "stunned") and verb == "fight":
            return 40.0
        return 10 + 20 * hit_chance(ws, PTS.grades[t["grade"]].pericia) + \
            (3 if t["loot"] else 0)

    def _move(self, view: Mapping[str, Any], unit: str, enemies: list[str],
              p: tuple[float, float]) -> float:
        me = view["models"][unit]
        crates = [tuple(c) for c in view["loot"]]
        if crates and any(math.dist(p, c) <= 2 for c in crates):
            return 30.0
        def gap(q: tuple[float, float]) -> float:
            return min((math.dist(q, _xy(view, e)) for e in enemies), default=0.0)

        here = _xy(view, unit)
        if me["loot"]:
            return gap(p) - gap(here)
        ranged = [PTS.weapons[w].range or 0 for w in me["weapons"]
                  if PTS.weapons[w].kind == "ranged"]
        ideal = 0.7 * max(ranged) if ranged else 0.0
        score = abs(gap(here) - ideal) - abs(gap(p) - ideal)
        if crates:
            score += (min(math.dist(here, c) for c in crates)
                      - min(math.dist(p, c) for c in crates)) / 2
        if ideal and _in_cover(view["table"], p):
            score += 2
        return score

    def _drive(self, view: Mapping[str, Any], seat: int, vid: str, enemies: list[str],
               p: tuple[float, float]) -> float:
        obj = load().table(view["table"]).objective
        if obj.kind == "convoy_exit" and vid == obj.vehicle:
            return 10 + p[0] / 10
        v = view["vehicles"][vid]
        here = (v["x"], v["y"])
        return min((math.dist(here, _xy(view, e)) for e in enemies), default=0.0) - \
            min((math.dist(p, _xy(view, e)) for e in enemies), default=0.0)


def _in_cover(table: str, p: tuple[float, float]) -> bool:
    """Within 3 cm of a wall, solid piece or building (light scenery is no cover)."""
    return any(Polygon(piece.polygon).distance(Point(p)) <= 3
               for piece in load().table(table).pieces if piece.kind != "light")


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
