"""Las Montañas bots. They read only the view (hands are open, tile and deck order hidden).

The heuristic bot ranks card plays by how much threat they remove: a life point taken
from a monster is worth more the closer that monster is to the ship.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partida.engine import Action, Rng
from partida.engine.bots import RandomBot

IN_SHIP_URGENCY = 30.0


class HeuristicBot:
    """Threat nearest the ship first, cards by area and range, useful exchanges."""

    def choose(self, view: Mapping[str, Any], actions: Sequence[Action], rng: Rng) -> str:
        ids = [a.id for a in actions]
        phase = view["phase"]
        if phase == "deploy":
            return _least_crowded_section(view, ids)
        if phase == "barricade":
            return max(ids, key=lambda a: _barricade_value(view, a.split(":")[1]))
        if phase == "discard":
            return _discard(view, ids)
        if phase == "exchange":
            return _exchange(view, ids)
        if phase == "reply":
            return "reply:accept"  # a teammate's request is meant to help the defence
        if phase == "redeploy":
            return "move:done"
        return _best_play(view, ids)


def _least_crowded_section(view: Mapping[str, Any], ids: list[str]) -> str:
    counts = {s["section"]: sum(s["explorers"]) for s in view["ship"]}
    return min(ids, key=lambda a: (counts[int(a.split(":")[1])], a))


def _urgency(view: Mapping[str, Any], m: Mapping[str, Any]) -> float:
    left = view["alley_squares"] - m["square"]
    return IN_SHIP_URGENCY if left <= 0 else 1.0 + (view["alley_squares"] - left) ** 1.5 / 4


def _monsters(view: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {m["id"]: m for m in view["monsters"]}


def _target_value(view: Mapping[str, Any], kind: str, target: str) -> float:
    """Threat removed by playing a card of `kind` on `target` (0 when worth keeping)."""
    monsters = _monsters(view)
    if target[:1] == "m" and target[1:].isdigit():
        m = monsters[int(target[1:])]
        if kind == "sniper":
            return m["life"] * _urgency(view, m) if m["life"] >= 3 else 0.0
        return _urgency(view, m) * (1.5 if m["life"] == 1 else 1.0)
    if target in ("long", "medium"):
        hit = [m for m in monsters.values() if m["zone"] == target]
        return sum(_urgency(view, m) for m in hit) if len(hit) >= 2 else 0.0
    if target.startswith(("front", "side")):
        return _barricade_value(view, target)
    return 0.0


def _barricade_value(view: Mapping[str, Any], spot: str) -> float:
    facing, section = spot[:-1], int(spot[-1])
    if facing == "front":
        near = [_urgency(view, m) for m in view["monsters"]
                if m["alley"] == section and m["zone"] != "ship"]
        return max(near, default=0.5) * 0.9 + sum(view["ship"][section - 1]["explorers"]) * 0.1
    inside = [m for m in view["monsters"] if m["zone"] == "ship"
              and abs(m["alley"] - section) == 1]
    return IN_SHIP_URGENCY * 0.8 if inside else 0.0


def _card_kinds(view: Mapping[str, Any]) -> dict[int, str]:
    cards = [c for hand in view["hands"] for c in hand] + list(view["discard"])
    return {c["id"]: c["kind"] for c in cards}


def _play_value(view: Mapping[str, Any], action: str, kinds: dict[int, str]) -> float:
    parts = action.split(":")
    if parts[0] == "play":
        cid, target = int(parts[1]), (parts[2] if len(parts) > 2 else "")
        return _target_value(view, kinds[cid], target)
    if parts[0] == "arsenal":
        fid, target = int(parts[2]), (parts[3] if len(parts) > 3 else "")
        return _target_value(view, kinds[fid], target) - 0.5
    return 0.0


def _best_play(view: Mapping[str, Any], ids: list[str]) -> str:
    kinds = _card_kinds(view)
    best = max(ids, key=lambda a: (_play_value(view, a, kinds), a == "end"))
    return best if _play_value(view, best, kinds) > 0 else "end"


def _useful(view: Mapping[str, Any], card: Mapping[str, Any]) -> bool:
    """Whether a card has a worthwhile use now or is flexible enough to keep."""
    if card["kind"] in ("sniper", "bombs", "barricade", "arsenal", "head_to_head", "redeploy"):
        return True
    for m in view["monsters"]:
        terrain = _terrain(view, m["alley"])
        if card["terrain"] == terrain and m["zone"] != "ship" and (
                card["kind"] == "combined" or card["band"] == m["zone"]):
            return True
    return False


def _terrain(view: Mapping[str, Any], alley: int) -> str:
    return str(view["alleys"][alley - 1]["terrain"])


def _discard(view: Mapping[str, Any], ids: list[str]) -> str:
    hand = view["hands"][view["active"]]
    useless = sorted(c["id"] for c in hand if not _useful(view, c))[:2]
    choice = "discard:" + ",".join(str(c) for c in useless) if useless else "discard:keep"
    return choice if choice in ids else "discard:keep"


def _exchange(view: Mapping[str, Any], ids: list[str]) -> str:
    """Swap a card with no use now for a partner's card that hits the most urgent threat."""
    cards = {c["id"]: c for hand in view["hands"] for c in hand}
    best, best_value = "exchange:done", 0.0
    for a in ids:
        parts = a.split(":")
        if parts[0] != "swap" or _useful(view, cards[int(parts[1])]):
            continue
        theirs = cards[int(parts[3])]
        if theirs["kind"] in ("range", "combined") and _useful(view, theirs):
            value = max((_urgency(view, m) for m in view["monsters"]
                         if _terrain(view, m["alley"]) == theirs["terrain"]), default=0.0)
            if value > best_value:
                best, best_value = a, value
    return best


BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
