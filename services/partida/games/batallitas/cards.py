"""Event cards: which card a holder may play in a window, what the roll-changing cards do, and
re-rolling one's own attack roll by discarding a card ("Event cards", "Repeating rolls",
"Event Cards": ¡¡Preeet!!, La suerte del enano, ¡¡Cli-cli-clik!!).

An attack (a shot, an area shot, an alert shot or a blow) waits in `state.pending` while its
windows are open: the enemy's before the dice, the enemy's after them, then the roller's re-roll.
"""

from __future__ import annotations

from typing import Any

from partida.engine import Event
from partida.games.batallitas.content import EventCard, load
from partida.games.batallitas.dice import Roll
from partida.games.batallitas.state import BatallitasState

# Rolls that cards impose without dice: a screw-up, and a failure that is not one.
SCREW_UP = Roll((), 1)
FAILURE = Roll((), 2)

# Cards whose effect is written so far, by effect (card ids lose their deck and copy number).
ROLL_CARDS = {"before_roll": ("whistle",), "after_roll": ("dwarf_luck", "click")}
SHOTS = ("shot", "area", "alert")


def card(cid: str) -> EventCard:
    return next(c for c in load().events.cards if c.id == cid)


def effect(cid: str) -> str:
    """"papal_click_2" -> "click": the card's effect, whatever its deck and copy."""
    core = cid.split("_", 1)[1]
    return core[:-2] if core[-2:] in ("_1", "_2") else core


def roll_to_dict(r: Roll) -> dict[str, Any]:
    return {"dice": list(r.dice), "infernal": r.infernal}


def roll_from_dict(d: dict[str, Any]) -> Roll:
    return Roll(tuple(d["dice"]), d["infernal"])


def playable(state: BatallitasState, seat: int, timing: str) -> list[str]:
    """The cards of `seat`'s hand it may play now on the pending attack (one of each effect)."""
    p = state.pending
    if p is None:
        return []
    out: dict[str, str] = {}
    for cid in state.hands[seat]:
        fx = effect(cid)
        if card(cid).timing != timing or fx not in ROLL_CARDS.get(timing, ()):
            continue
        if fx == "click" and p["kind"] not in SHOTS:
            continue  # it only answers a shot
        if fx == "dwarf_luck" and not roll_from_dict(p["roll"]).success:
            continue  # the roll has failed already
        out.setdefault(fx, cid)
    return sorted(out.values())


def play(state: BatallitasState, seat: int, cid: str, ev: list[Event]) -> None:
    """Play a roll card on the pending attack; the card leaves the game (RULES.md decision)."""
    p = state.pending
    assert p is not None
    state.hands[seat].remove(cid)
    fx = effect(cid)
    ev.append(Event("card_played", {"seat": seat, "card": cid, "nose": p["nose"]}))
    p["roll"] = roll_to_dict(SCREW_UP if fx == "whistle" else FAILURE)
    p["forced"] = fx
    p["jam"] = fx == "click"


def reroll(state: BatallitasState, seat: int, cid: str, ev: list[Event]) -> None:
    """Discard a card to roll again: the first result, and any card played on it, are void."""
    p = state.pending
    assert p is not None
    state.hands[seat].remove(cid)
    ev.append(Event("reroll", {"seat": seat, "card": cid, "nose": p["nose"],
                               "void": p["roll"]}))
    p.update(stage="roll", roll=None, rerolled=True, jam=False, forced=None)
