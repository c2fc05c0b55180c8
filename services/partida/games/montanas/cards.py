"""Action cards: what each may target now and what it does ("Cards" in the rulebook)."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.montanas.content import Card, Content
from partida.games.montanas.monsters import damage
from partida.games.montanas.state import Monster, MontanasState

# Bands each card kind reaches, and whether the card's terrain limits the alleys.
_SNIPER_BANDS = ("long", "medium")
_BOMB_BANDS = ("medium", "long")


def zone(m: Monster, content: Content) -> str:
    """'ship' or the band the monster stands in."""
    return "ship" if m.square >= content.alley_squares else content.band_of(m.square)


def monster_targets(state: MontanasState, content: Content, card: Card) -> list[Monster]:
    """The monsters a one-target card may hit now."""
    def ok(m: Monster) -> bool:
        where = zone(m, content)
        if card.kind == "range":
            return where == card.band and content.terrain_of(m.alley) == card.terrain
        if card.kind == "combined":
            return where != "ship" and content.terrain_of(m.alley) == card.terrain
        if card.kind == "sniper":
            return where in _SNIPER_BANDS
        if card.kind == "head_to_head":
            return where in ("ship", "short")
        return False
    return [m for m in state.monsters if ok(m)]


def barricade_spots(state: MontanasState) -> list[tuple[str, int]]:
    """(facing, section) pairs open to a barricade: never two in one section; a side
    barricade only on a destroyed section ("Game Preparation", "Cards")."""
    spots = []
    for i, existing in enumerate(state.barricades):
        if existing is None:
            spots.append(("front", i + 1))
            if state.destroyed[i]:
                spots.append(("side", i + 1))
    return spots


def barricade_tokens_left(state: MontanasState, content: Content) -> int:
    """Tokens off the board. The box has a fixed number and the card rebuilds broken ones,
    so it builds nothing while every token stands (partida's reading, RULES.md)."""
    return content.setup.barricade_tokens - sum(b is not None for b in state.barricades)


def redeploy_moves(state: MontanasState) -> list[tuple[int, int, int]]:
    """(seat, from, to) single-pawn moves between sections that stand; pawns may cross
    destroyed sections but never stop in one."""
    standing = [i + 1 for i, d in enumerate(state.destroyed) if not d]
    moves: list[tuple[int, int, int]] = []
    for src in standing:
        for seat, n in enumerate(state.explorers[src - 1]):
            if n:
                moves.extend((seat, src, dst) for dst in standing if dst != src)
    return moves


def targets(state: MontanasState, content: Content, card: Card) -> list[tuple[str, str]]:
    """(target id, words) for every way `card` can be played now; empty if it cannot."""
    if card.kind in ("range", "combined", "sniper", "head_to_head"):
        return [(f"m{m.id}", f"{content.monster_kind(m.kind).name} #{m.id} "
                 f"({m.life} life, {_where(m, content)})")
                for m in monster_targets(state, content, card)]
    if card.kind == "bombs":
        bands = {zone(m, content) for m in state.monsters}
        return [(b, f"every monster in the {b}-range band") for b in _BOMB_BANDS if b in bands]
    if card.kind == "barricade":
        if barricade_tokens_left(state, content) <= 0:
            return []
        return [(f"{facing}{sec}", f"{facing} barricade on section {sec}")
                for facing, sec in barricade_spots(state)]
    if card.kind == "redeploy":
        return [("", "move explorers between sections")] if redeploy_moves(state) else []
    return []  # the arsenal card is expanded by the caller over the discard pile


def play(state: MontanasState, content: Content, card: Card, target: str, rng: Rng,
         events: list[Event]) -> None:
    """Carry out a card whose target is already known to be legal."""
    if card.kind in ("range", "combined", "head_to_head"):
        damage(state, _monster(state, target), 1, card.name, events)
    elif card.kind == "sniper":
        m = _monster(state, target)
        damage(state, m, m.life, card.name, events)
    elif card.kind == "bombs":
        for m in [m for m in state.monsters if zone(m, content) == target]:
            damage(state, m, 1, card.name, events)
    elif card.kind == "barricade":
        facing, section = target[:-1], int(target[-1])
        state.barricades[section - 1] = facing
        events.append(Event("barricade_built", {"section": section, "facing": facing}))
    elif card.kind == "redeploy":
        state.pending["moves_left"] = state.pawns_total()
    else:  # pragma: no cover - the arsenal card is resolved through the card it fetches
        raise AssertionError(card.kind)


def _monster(state: MontanasState, target: str) -> Monster:
    mid = int(target[1:])
    return next(m for m in state.monsters if m.id == mid)


def _where(m: Monster, content: Content) -> str:
    z = zone(m, content)
    return f"ship section {m.alley}" if z == "ship" else f"alley {m.alley}, {z} range"
