"""Monsters: entering the board, the monster phase, the ship, and the special tokens.

Every function mutates the state and appends events; all randomness is drawn from `rng`.
Citations name the rulebook headings ("Damage Points", "Boat", ...).
"""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.montanas.content import Content
from partida.games.montanas.state import Monster, MontanasState

DIE_ORDER = ("red", "blue", "white")  # "Playing Order" step 5


def ship_square(content: Content) -> int:
    return content.alley_squares


def is_lost(state: MontanasState) -> str | None:
    """Why the players have lost ("Object of the Game"), or None."""
    if all(state.destroyed):
        return "the ship Gigamesh is wholly destroyed"
    if state.pawns_total() == 0:
        return "every explorer is dead"
    return None


def place_monster(state: MontanasState, kind: str, content: Content, rng: Rng,
                  events: list[Event]) -> Monster:
    """A monster comes in at the access position shown by the red die."""
    alley = rng.d6()
    m = Monster(state.next_monster_id, kind, content.monster_kind(kind).life, alley, 0)
    state.next_monster_id += 1
    state.monsters.append(m)
    events.append(Event("monster_enters", {"monster": m.id, "kind": kind, "alley": alley,
                                           "red_die": alley, "life": m.life}))
    return m


def damage(state: MontanasState, m: Monster, points: int, cause: str,
           events: list[Event]) -> None:
    """Take life points off a monster; at zero it is removed and counted as killed."""
    m.life = max(0, m.life - points)
    events.append(Event("monster_damaged", {"monster": m.id, "cause": cause, "life": m.life}))
    if m.life == 0:
        state.monsters.remove(m)
        state.killed += 1
        events.append(Event("monster_killed", {"monster": m.id, "kind": m.kind}))


def _movement_order(state: MontanasState, content: Content, die: str) -> list[Monster]:
    # Within one die colour the monster nearest the ship moves first (partida's choice, RULES.md).
    movers = [m for m in state.monsters if content.monster_kind(m.kind).die == die]
    return sorted(movers, key=lambda m: (-m.square, m.alley, m.id))


def monster_phase(state: MontanasState, content: Content, rng: Rng, events: list[Event]) -> None:
    """Roll the three dice together; red, then blue, then white monsters advance."""
    dice = {colour: rng.d6() for colour in DIE_ORDER}
    events.append(Event("monster_dice", dict(dice)))
    frozen = set(state.immobilized)
    state.immobilized = []
    ship = ship_square(content)
    stuck = {m.id for m in state.monsters
             if m.square < ship and content.band_of(m.square) in frozen}
    for colour in DIE_ORDER:
        for m in _movement_order(state, content, colour):
            if m.id in stuck or m not in state.monsters:
                continue
            advance(state, m, dice[colour], content, rng, events)
            if is_lost(state):
                return


def advance(state: MontanasState, m: Monster, squares: int, content: Content, rng: Rng,
            events: list[Event]) -> None:
    """Move a monster `squares` along its alley, into the ship and across it."""
    ship = ship_square(content)
    if m.square < ship:
        target = m.square + squares
        if target < ship:
            m.square = target
            events.append(Event("monster_moved", {"monster": m.id, "alley": m.alley,
                                                  "square": m.square}))
            return
        squares = target - ship
        m.square = ship
        events.append(Event("monster_in_ship", {"monster": m.id, "section": m.alley}))
        if not enter_section(state, m, "front", content, rng, events):
            return
    for _ in range(squares):
        if is_lost(state) or not step_in_ship(state, m, content, rng, events):
            return


def step_in_ship(state: MontanasState, m: Monster, content: Content, rng: Rng,
                 events: list[Event]) -> bool:
    """One square sideways inside the ship, towards the larger group of explorers ("Boat")."""
    here = m.alley - 1
    left = sum(sum(s) for s in state.explorers[:here])
    right = sum(sum(s) for s in state.explorers[here + 1:])
    options = [d for d in (-1, 1) if 0 <= here + d < len(state.destroyed)]
    if len(options) == 2 and left != right:
        direction = -1 if left > right else 1
    elif len(options) == 2:
        direction = options[rng.below(2, "direction")]
        events.append(Event("direction_drawn", {"monster": m.id, "direction": direction}))
    else:
        direction = options[0]
    m.alley += direction
    events.append(Event("monster_moved", {"monster": m.id, "section": m.alley}))
    return enter_section(state, m, "side", content, rng, events)


def enter_section(state: MontanasState, m: Monster, side: str, content: Content, rng: Rng,
                  events: list[Event]) -> bool:
    """Resolve a monster entering a section ("Damage Points", steps 1-3); True if it lives on.

    `side` is "front" when it comes from its alley and "side" when it moves inside the ship:
    a barricade stops it only when it faces that way.
    """
    i = m.alley - 1
    if state.barricades[i] == side:
        state.barricades[i] = None
        events.append(Event("barricade_destroyed", {"section": m.alley, "facing": side}))
        damage(state, m, 1, "barricade", events)
        if m.life == 0:
            return False
    kill_explorers(state, m, rng, events)
    if m.life == 0:
        return False
    if not state.destroyed[i]:
        state.destroyed[i] = True
        events.append(Event("section_destroyed", {"section": m.alley}))
        damage(state, m, 1, "section", events)
    return m.life > 0


def kill_explorers(state: MontanasState, m: Monster, rng: Rng, events: list[Event]) -> None:
    """One pawn dies per life point the monster spends; with too many pawns of several
    players, each kill goes to the lowest of a die roll-off ("Damage Points")."""
    section = state.explorers[m.alley - 1]
    while sum(section) and m.life:
        owners = [s for s, n in enumerate(section) if n]
        victim = owners[0] if len(owners) == 1 or sum(section) <= m.life else roll_off(owners, rng,
                                                                                       events)
        section[victim] -= 1
        events.append(Event("explorer_killed", {"section": m.alley, "seat": victim}))
        if state.pawns_of(victim) == 0:
            eliminate(state, victim, events)
        damage(state, m, 1, "explorer", events)


def roll_off(owners: list[int], rng: Rng, events: list[Event]) -> int:
    """Each owner rolls a die; the lowest loses the pawn; a tie for lowest rolls again."""
    while True:
        rolls = {seat: rng.d6() for seat in owners}
        events.append(Event("roll_off", {"rolls": {str(s): r for s, r in rolls.items()}}))
        low = min(rolls.values())
        owners = [s for s, r in rolls.items() if r == low]
        if len(owners) == 1:
            return owners[0]


def eliminate(state: MontanasState, seat: int, events: list[Event]) -> None:
    """A player with no pawns left is out; their cards go to the discard pile ("Playing Order")."""
    state.discard.extend(state.hands[seat])
    state.hands[seat] = []
    events.append(Event("player_eliminated", {"seat": seat}))


def new_tiles(state: MontanasState, content: Content, rng: Rng, events: list[Event]) -> None:
    """Flip up to three face-down tiles, one at a time ("Monsters and Special Tokens...")."""
    for _ in range(content.setup.new_tiles_per_turn):
        if not state.pool or is_lost(state):
            return
        tile = state.pool.pop(0)
        special = content.special(tile)
        if special is None:
            place_monster(state, tile, content, rng, events)
        else:
            events.append(Event("special_revealed", {"special": tile, "name": special.name}))
            apply_special(state, tile, content, rng, events)
            state.removed_specials.append(tile)


def apply_special(state: MontanasState, tile: str, content: Content, rng: Rng,
                  events: list[Event]) -> None:
    """The special tokens ("Special Tokens"); they act at once and leave the game."""
    sp = content.special(tile)
    assert sp is not None
    ship = ship_square(content)
    on_terrain = [m for m in state.monsters
                  if m.square < ship and content.terrain_of(m.alley) == sp.terrain]
    if sp.effect == "advance":
        for m in sorted(on_terrain, key=lambda m: (-m.square, m.alley, m.id)):
            if m in state.monsters and not is_lost(state):
                advance(state, m, sp.squares, content, rng, events)
    elif sp.effect == "lateral":
        for m in on_terrain:
            m.alley += sp.shift
            events.append(Event("monster_moved", {"monster": m.id, "alley": m.alley,
                                                  "square": m.square}))
    elif sp.effect == "immobilize":
        assert sp.band is not None
        if sp.band not in state.immobilized:
            state.immobilized.append(sp.band)
    elif sp.effect == "sanity_loss":
        for seat in range(state.seats):
            hand = state.hands[seat]
            if hand:
                card = hand.pop(rng.below(len(hand), "sanity_loss"))
                state.discard.append(card)
                events.append(Event("card_lost", {"seat": seat, "card": card}))
