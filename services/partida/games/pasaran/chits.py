"""Optional rule 9.4, combat chits: before a combat each side draws chits from its own cup (one,
and one more per point of tactical superiority), secretly; each side then plays those it
wants; played chits change the first round only. The chit mix is reconstructed
(content/tables.json `chits`)."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.pasaran import board as B
from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState

SEAT_SIDE = ("rep", "nat")


def new_cups(content: Content) -> dict[str, dict[str, list[str]]]:
    chits = [f"{kind}{i + 1}" for kind, spec in content.tables.chits.items()
             for i in range(spec["count"])]
    return {s: {"cup": list(chits), "hand": [], "played": []} for s in B.SIDES}


def kind(chit: str) -> str:
    return chit.rstrip("0123456789")


def superiority(content: Content, state: PasaranState, side: str, place: str) -> int:
    """9.4 tactical superiority: one more chit per HQ, for aircraft, for tanks, for the Legion
    Condor (Nationalists) or the International Brigade (Republicans), for a finished trench
    defended (with 9.5); the Nationalists one more when Republican militia and regulars fight
    together."""
    units = B.units_at(state, place, side)
    kinds = [state.units[u]["kind"] for u in units]
    tags = {content.unit(u).tag for u in units}
    n = kinds.count("hq") + ("air" in kinds) + ("tank" in kinds)
    n += ("lc" in tags) if side == "nat" else ("int" in tags)
    if side != state.active and any(t["place"] == place and t["side"] == side and t["done"]
                                    for t in state.trenches):
        n += 1
    if side == "nat":
        enemy = {content.unit(u).tag for u in B.units_at(state, place, "rep")
                 if state.units[u]["kind"] != "air"}
        n += "militia" in enemy and bool(enemy & {"regular", "int"})
    return n


def draw(state: PasaranState, side: str, count: int, rng: Rng, events: list[Event]) -> None:
    """Draw secretly from the side's cup (at random: the chits are mixed in a cup)."""
    cups = state.chits[side]
    drawn = []
    for _ in range(min(count, len(cups["cup"]))):
        drawn.append(cups["cup"].pop(rng.below(len(cups["cup"]), "chit")))
    cups["hand"] += drawn
    events.append(Event("chits_drawn", {"side": side, "chits": drawn},
                        frozenset({SEAT_SIDE.index(side)}), {"side": side, "count": len(drawn)}))


def begin(content: Content, state: PasaranState, rng: Rng, events: list[Event]) -> None:
    """Both sides draw before the first round; both are then asked, active side first."""
    c = state.combat
    assert c is not None
    for side in (state.active, B.ENEMY[state.active]):
        draw(state, side, 1 + superiority(content, state, side, c["place"]), rng, events)
    c["chit_ask"] = [state.active, B.ENEMY[state.active]]
    c["void"] = []


def play(state: PasaranState, side: str, chit: str, events: list[Event]) -> None:
    cups = state.chits[side]
    cups["hand"].remove(chit)
    cups["played"].append(chit)
    if kind(chit) == "cancel":
        void(state, B.ENEMY[side])
    events.append(Event("chit_played", {"side": side, "chit": chit}))


def void(state: PasaranState, side: str) -> None:
    """The side's chits in this combat have no effect (a cancel chit, or the card)."""
    assert state.combat is not None
    if side not in state.combat["void"]:
        state.combat["void"].append(side)


def bonus(content: Content, state: PasaranState, side: str, what: str) -> int:
    """The chits' change to a side's land units or aircraft in the first round."""
    c = state.combat
    if not state.chits or c is None or c["round"] != 1:
        return 0
    total = 0
    for s, key in ((side, f"own_{what}"), (B.ENEMY[side], f"enemy_{what}")):
        if s in c.get("void", ()):
            continue
        total += sum(content.tables.chits[kind(x)].get(key, 0) for x in state.chits[s]["played"])
    return total


def put_back(state: PasaranState) -> None:
    """After the combat every chit drawn goes back into its cup."""
    for cups in state.chits.values():
        cups["cup"] += cups["hand"] + cups["played"]
        cups["hand"], cups["played"] = [], []
