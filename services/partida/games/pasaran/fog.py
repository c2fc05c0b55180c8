"""Optional rule 9.2, fog of war: of an enemy stack only its top unit (the last to arrive) is
seen, with the stack's size; units in a place being fought over are all seen. Views redact the
rest, events about hidden moves show only where something went, and determinize deals the
hidden units' places out again among units alike in kind and face."""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng, Seat
from partida.games.pasaran import board as B
from partida.games.pasaran.state import PasaranState

SEAT_SIDE = ("rep", "nat")

PUBLIC_FIELDS = {
    "move": ("to",), "rail": ("to",), "coast": ("to",), "rebase": ("to",), "airlift": ("to",),
    "invade": ("to",), "placed": ("at",), "landed": ("at",), "revolt": ("to",),
    "reassembled": (), "digging": ("place",), "pinned": ("target",), "repair": ("side", "stored"),
    "sent_back": ("to",),
    "reacted": ("unit", "to"),          # the unit joins a combat, seen; not the HQ that sent it
}
"""Events naming a unit that fog hides from the other side: what that side still sees."""


def on(state: PasaranState) -> bool:
    return bool(state.options.get("fog_of_war"))


def hidden(state: PasaranState, side: str) -> list[str]:
    """The side's units the enemy cannot see: on the map, not on top of their stack, not in a
    place where both sides stand."""
    out = []
    for uid in state.on_map(side):
        place = state.units[uid]["at"]
        if not B.contested(state, place) and B.top(state, place, side) != uid:
            out.append(uid)
    return out


def redact(state: PasaranState, viewer: str | None, units: dict[str, Any]
           ) -> dict[str, dict[str, int]]:
    """Blank the hidden enemy units in a view's `units`; return the enemy stacks' sizes."""
    stacks: dict[str, dict[str, int]] = {}
    for side in B.SIDES:
        if side == viewer:
            continue
        for uid in hidden(state, side):
            units[uid] = {"side": side, "status": "map", "hidden": True}
        counts: dict[str, int] = {}
        for uid in state.on_map(side):
            place = state.units[uid]["at"]
            counts[place] = counts.get(place, 0) + 1
        stacks[side] = counts
    return stacks


def command_seen(state: PasaranState, viewer: str | None, used: dict[str, int]
                 ) -> dict[str, int]:
    """The HQs' command spent this step, less the enemy HQs the viewer cannot see: which HQ
    sent a reserve is hidden (as in the `reacted` event) while the HQ is."""
    unseen = {u for s in B.SIDES if s != viewer for u in hidden(state, s)}
    return {hq: n for hq, n in used.items() if hq not in unseen}


def event(state: PasaranState, e: Event) -> Event:
    """A public event about a unit's move becomes its owner's, the rest see where it went."""
    keep = PUBLIC_FIELDS.get(e.kind)
    unit = e.data.get("unit")
    if keep is None or e.visible_to is not None or unit not in state.units:
        return e
    owner: Seat = SEAT_SIDE.index(state.units[unit]["side"])
    return Event(e.kind, e.data, frozenset({owner}), {k: e.data[k] for k in keep if k in e.data})


def reshuffle(state: PasaranState, viewer: str | None, rng: Rng) -> None:
    """Deal the hidden units' records (place, face, flags, command spent) out again among the
    same side's hidden units of the same kind and face: nothing the viewer sees changes."""
    for side in B.SIDES:
        if side == viewer:
            continue
        groups: dict[tuple[str, str], list[str]] = {}
        for uid in hidden(state, side):
            r = state.units[uid]
            groups.setdefault((r["kind"], r["face"]), []).append(uid)
        for ids in groups.values():
            records = [(state.units[u], state.command_used.pop(u, None)) for u in ids]
            rng.shuffle(records)
            for uid, (record, used) in zip(ids, records, strict=True):
                state.units[uid] = record
                if used is not None:
                    state.command_used[uid] = used
