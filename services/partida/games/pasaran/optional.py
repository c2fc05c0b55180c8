"""Optional rules' choices (9.1 reassembling backs, 9.5 trenches); the other options live with
the rules they change (9.2 `fog`, 9.3 in `rules`, 9.4 `chits`, 10 `movement`)."""

from __future__ import annotations

from typing import Any

from partida.games.pasaran import board as B
from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState


def trench_choices(content: Content, state: PasaranState, side: str) -> list[tuple[str, str]]:
    """9.5: an infantry unit that has not moved starts a trench where it stands (one being
    dug per place, at most two per area and one per city, within the side's counters);
    a friendly trench may be taken up again."""
    mine = [t for t in state.trenches if t["side"] == side]
    out = [(f"fill:{p}", f"Take up the trench in {p}")
           for p in sorted({t["place"] for t in mine})]
    if len(mine) >= content.counters.trenches[side]:
        return out
    for uid in state.on_map(side):
        r = state.units[uid]
        here = [t for t in state.trenches if t["place"] == r["at"]]
        limit = 1 if B.is_city(r["at"]) else 2
        if (r["kind"] == "inf" and not r["moved"] and not r.get("digging")
                and not B.contested(state, r["at"]) and len(here) < limit
                and not any(not t["done"] and t["side"] == side for t in here)):
            out.append((f"dig:{uid}", f"{uid} digs a trench in {r['at']}"))
    return out

def pairs(content: Content, state: PasaranState, side: str) -> list[tuple[str, str]]:
    """9.1: two units of one kind, strength and nation, both on their backs, in one place;
    one pair per kind and place is offered."""
    groups: dict[tuple[Any, ...], list[str]] = {}
    for uid in state.on_map(side):
        r, u = state.units[uid], content.unit(uid)
        if r["face"] == "back" and u.kind != "hq" and u.back is not None:
            groups.setdefault((r["at"], u.kind, u.front, u.back, u.tag), []).append(uid)
    return [(g[0], g[1]) for _, g in sorted(groups.items()) if len(g) >= 2]

def reassembler(content: Content, state: PasaranState) -> str | None:
    if not state.options.get("reassembling_backs"):
        return None
    for side in B.SIDES:
        if side not in state.done and pairs(content, state, side):
            return side
    return None
