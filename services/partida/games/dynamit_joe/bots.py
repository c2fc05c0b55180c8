"""Dynamit Joe bots. They read only the view and the legal actions.

The heuristic bot plays every joker it is asked about and holds (a bluff window, where it
does not hold the card, has only "pass"), springs ambushes and instinctive shots, shoots at
the best chance to hit, throws dynamite where it hurts more enemies than friends, reloads
when it has no shot, takes cover in ambush when nobody is in sight, and walks towards its
scenario's objective: loose gold and then the board edge for robbers, the captive for
rescuers, the nearest enemy for everyone else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partida.engine import Action, Rng
from partida.engine.bots import RandomBot
from partida.games.dynamit_joe.content import load
from partida.games.dynamit_joe.geometry import geometry

_LOOT = ("nugget", "face_down")


class HeuristicBot:
    """Scores each legal action and takes the best; see the module docstring."""

    def choose(self, view: Mapping[str, Any], actions: Sequence[Action], rng: Rng) -> str:
        ids = [a.id for a in actions]
        prompt = view["prompt"]
        if prompt is not None:
            if prompt["kind"] == "place":   # a starting zone of choice: any of those offered
                return ids[rng.below(len(ids))]
            return self._prompt(view, prompt, ids)
        chars = {c["name"]: c for c in view["characters"]}
        me = chars[view["active"]]
        scored = [(self._score(view, chars, me, a), -i, a) for i, a in enumerate(ids)]
        return max(scored)[2]

    def _prompt(self, view: Mapping[str, Any], prompt: Mapping[str, Any], ids: list[str]) -> str:
        kind = prompt["kind"]
        if kind in ("joker", "initiative", "chip_ambush"):
            # A joker decision may be a bluff window with only "pass" (not holding the card).
            best = {"joker": "play", "initiative": "initiative", "chip_ambush": "act"}[kind]
            return best if best in ids else "pass"
        if kind == "window":
            shots = [a for a in ids if ":shoot:" in a or ":double:" in a]
            return shots[0] if shots else "pass"
        if kind == "buy":
            return _purchase(view, ids)
        if kind == "clumsy":
            chars = {c["name"]: c for c in view["characters"]}
            held = {o["id"]: o["kind"] for c in chars.values()
                    for o in [*c["guns"], *c["objects"]]}
            order = ("rock", "whisky", "knife", "dynamite", "colt", "shotgun", "hunting_rifle",
                     "rifle", "nugget")
            return min(ids, key=lambda a: order.index(held.get(a.split(":")[1], "rock")))
        return ids[0]

    def _score(self, view: Mapping[str, Any], chars: dict[str, Any], me: Mapping[str, Any],
               aid: str) -> float:
        geo = geometry()
        verb, _, rest = aid.partition(":")
        dist = geo.distance[me["zone"]]
        enemies = [c for c in chars.values() if c["side"] != me["side"] and _up(c)]
        held = [*me["guns"], *me["objects"]]
        if verb in ("shoot", "double"):
            target = chars[rest.split(":")[1]]
            far = dist[target["zone"]] > 1
            level = min(2, int(far) + int(me["wounds"] > 0))
            return 10 - 3 * level + (1 if verb == "double" else 0) + target["wounds"]
        if verb == "stab":
            return 7 - 3 * int(me["wounds"] > 0)
        if verb == "knife":
            return 3
        if verb == "dyn":
            zone = rest.split(":")[1]
            hit = [zone, *geo.blast_zones(zone)]
            foes = sum(1 for c in enemies if c["zone"] in hit)
            friends = sum(1 for c in chars.values() if c["side"] == me["side"]
                          and not c["dead"] and c["zone"] in hit)
            bars = 6 if zone in ("alley", "cellule") and view["locks"].get("cell_bars") else 0
            return 4 * foes - 5 * friends + bars if foes or bars else -1
        if verb in ("lock", "free"):
            return 9
        if verb == "reload":
            return 4 if not _can_shoot(held) else 1
        if verb == "unjam":
            return 5
        if verb == "drink":
            return 6 if me["wounds"] else -1
        if verb in ("pick", "take"):
            o = rest.split(":")[0]
            kind = next((x["kind"] for x in view["ground"] if x["id"] == o), "")
            return 8 if kind in _LOOT else (3 if not _can_shoot(held) else 0.2)
        if verb == "leave":
            return 12 if any(o["kind"] == "nugget" for o in me["objects"]) else -5
        if verb == "joker":
            return 2.5 if rest.split(":")[0] in ("energy", "rapid_loading", "weaponsmith") else 0
        if verb in ("move", "drag"):
            return self._move_score(view, chars, me, rest)
        if verb == "ambush":
            seen = any(dist[c["zone"]] <= 4 for c in enemies)
            return 2.5 if not seen else 0.5
        return 0.3 if verb == "end" else 0.0

    def _move_score(self, view: Mapping[str, Any], chars: dict[str, Any],
                    me: Mapping[str, Any], zone: str) -> float:
        goals = _goals(view, chars, me)
        if not goals:
            return 0.1
        geo = geometry()
        now = min(geo.distance[me["zone"]][g] for g in goals)
        then = min(geo.distance[zone][g] for g in goals)
        return 2.0 + 1.5 * (now - then)


_GUN_ORDER = ("rifle", "colt", "shotgun", "hunting_rifle")


def _purchase(view: Mapping[str, Any], ids: list[str]) -> str:
    """8.5: the best gun the purse allows for each free character with none, then more for the
    least equipped, captives last; "done" when nothing is left to buy."""
    chars = {c["name"]: c for c in view["characters"]}
    buys = [a.split(":")[1:] for a in ids if a.startswith("buy:")]
    if not buys:
        return "done"

    def key(buy: list[str]) -> tuple[bool, bool, int, bool, int]:
        k, name = buy
        c = chars[name]
        gun = k in _GUN_ORDER
        return (c["tied"] or c["locked"], bool(c["guns"]), len(c["guns"]) + len(c["objects"]),
                not gun, _GUN_ORDER.index(k) if gun else 0)
    k, name = min(buys, key=key)
    return f"buy:{k}:{name}"


def _up(c: Mapping[str, Any]) -> bool:
    return not (c["dead"] or c["left"] or c["captured"] or c["tied"] or c["locked"])


def _can_shoot(held: list[Mapping[str, Any]]) -> bool:
    return any(o["ammo"] > 0 and not o["jammed"] for o in held
               if o["kind"] in ("colt", "shotgun", "rifle", "hunting_rifle"))


def _goals(view: Mapping[str, Any], chars: dict[str, Any], me: Mapping[str, Any]) -> list[str]:
    """Where this character wants to go, by its side's aim in the scenario."""
    sc = load().scenario(view["scenario"])
    side = next(s for s in sc.sides if s.id == me["side"])
    if side.aim.kind == "gold":
        if any(o["kind"] == "nugget" for o in me["objects"]):
            return [z.id for z in load().board.zones if z.edge]
        loot = [o["zone"] for o in view["ground"] if o["kind"] in _LOOT]
        if view["locks"].get("vault_lock"):
            return ["bank_counter"]
        return loot or ["coffre"]
    captive = side.aim.free
    if captive and (chars[captive]["tied"] or chars[captive]["locked"]):
        if chars[captive]["locked"]:
            return ["sheriff_office", "alley"]
        return [chars[captive]["zone"]]
    return [c["zone"] for c in chars.values() if c["side"] != me["side"] and _up(c)]


BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
