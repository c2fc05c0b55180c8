"""The turn: the initiative bag, activating squads, action points and their sharing, the end of
a turn and the scenario's end ("Turn Order", "Initiative", "Actions", "Leaders" rules 1, 2 and
4, knacks "Leadership", flaw "Clumsy" (reconstruction), flaw "Inept", each scenario's
"Objectives and victory conditions" and game length)."""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.batallitas.content import Content, Scenario, load
from partida.games.batallitas.geometry import distance
from partida.games.batallitas.state import (
    CHOOSE,
    DEAD,
    IN_PLAY,
    OVER,
    RESERVE,
    SQUAD,
    STRATEGY,
    TURN_START,
    BatallitasState,
    Nose,
    Squad,
    attr,
    has_flaw,
)

# Which group of the cost table each paid action belongs to (flaw "Clumsy", reconstruction).
GROUP = {"move": "movement", "enter": "movement", "turn": "movement",
         "attack": "brawling", "fire": "brawling", "alert": "brawling",
         "open": "misc", "close": "misc", "unjam": "misc", "reload": "misc", "rally": "misc",
         "take": "misc", "trolley": "misc", "leave": "movement", "arm": "misc",
         "search": "misc", "videogame": "misc", "slider": "misc"}


def scenario_of(state: BatallitasState) -> Scenario:
    return load().scenario(state.scenario)


def turn_limit(state: BatallitasState) -> int | None:
    sc = scenario_of(state)
    return sc.turn_limit or int(state.options.get("turn_limit", sc.turn_limit_option or 0)) or None


# --- action points ------------------------------------------------------------------------

def busy(state: BatallitasState, n: Nose) -> bool:
    """Scenario 1, "For a laugh": the original rebel leader may do nothing paid, nor share its
    points, in the first turns."""
    sc = scenario_of(state)
    sq = state.squads[n.squad]
    deploy = sc.forces[sq.force].deploy
    return (sc.leader_busy_turns is not None and state.turn <= sc.leader_busy_turns
            and deploy.leader is not None and n.id == sq.original_leader)


def pool_left(state: BatallitasState, sq: Squad) -> int:
    """What is left of the leader's shared points (knack "Leadership")."""
    if sq.pool_owner is None or sq.pool_owner != sq.leader:
        return 0
    lead = state.nose(sq.pool_owner)
    if lead.status != IN_PLAY and lead.status != "reserve":
        return 0
    return max(0, attr(lead, "actions") - sq.pool_spent)


def own_left(n: Nose, sq: Squad) -> int:
    return 0 if n.id == sq.pool_owner else max(0, attr(n, "actions") - n.spent)


def available(state: BatallitasState, n: Nose) -> int:
    """Points the nose may still spend: its own, then its leader's shared ones."""
    if busy(state, n):
        return 0
    sq = state.squads[n.squad]
    return own_left(n, sq) + pool_left(state, sq)


def can_pay(state: BatallitasState, n: Nose, cost: int, verb: str) -> bool:
    group = GROUP[verb]
    if has_flaw(n, "clumsy") and n.group not in (None, group):
        return False
    return cost <= available(state, n)


def pay(state: BatallitasState, n: Nose, cost: int, verb: str) -> None:
    """Spend own points first, then the leader's; any paid action ends the nose's alert."""
    sq = state.squads[n.squad]
    own = min(own_left(n, sq), cost)
    n.spent += own
    sq.pool_spent += cost - own
    if has_flaw(n, "clumsy"):
        n.group = GROUP[verb]
    if cost > 0:
        n.alert = False


# --- the turn -----------------------------------------------------------------------------

def start_turn(state: BatallitasState, ev: list[Event]) -> None:
    """Put one marker per squad still fighting (and arrived) in the hat."""
    state.turn += 1
    state.bag = []
    for sq in state.squads:
        sq.activated = False
        if state.alive(sq.index) and sq.from_turn <= state.turn:
            state.bag.append(sq.side)
    state.bag.sort()
    ev.append(Event("turn_started", {"turn": state.turn, "bag": list(state.bag)}))
    for side in ("rebel", "papal"):  # the papal window is answered first (top of the stack)
        offer_cards(state, state.seat_of(side), "turn_start")
    if state.prompts:
        state.phase = TURN_START


def offer_cards(state: BatallitasState, seat: int, timing: str, **context: object) -> None:
    """Open a card window for `seat` if it holds any card (RULES.md decision: the hand's size
    is public, so the window tells nothing about what is in it)."""
    if state.hands[seat]:
        state.prompts.append({"kind": "card", "seat": seat, "timing": timing, **context})


def candidates(state: BatallitasState, side: str) -> list[Squad]:
    return [sq for sq in state.squads if sq.side == side and not sq.activated
            and state.alive(sq.index) and sq.from_turn <= state.turn]


def strategists(state: BatallitasState, side: str) -> list[Squad]:
    """Squads of `side` it may activate by the strategy knack before a draw: not yet activated
    this turn, with a member holding the knack still fighting, and a marker of the side in the
    hat to remove (knack "Strategy")."""
    if side not in state.bag:
        return []
    return [sq for sq in candidates(state, side)
            if any("strategy" in n.knacks and n.status in (IN_PLAY, RESERVE)
                   for n in state.members(sq.index))]


def strategy_order(state: BatallitasState) -> list[str]:
    """Sides that may use strategy now, the one that has waited longest since it last
    activated a squad first (a tie, only before anyone has acted, goes papal first)."""
    sides = [s for s in ("papal", "rebel") if strategists(state, s)]
    return sorted(sides, key=lambda s: state.counters.get(f"{s}_last_activation", 0))


def use_strategy(state: BatallitasState, sq: Squad, ev: list[Event]) -> None:
    """Take one of the side's markers out of the hat and activate the squad at once."""
    state.bag.remove(sq.side)
    ev.append(Event("strategy", {"squad": sq.index, "side": sq.side, "left": len(state.bag)}))
    activate(state, sq, ev)


def draw(state: BatallitasState, rng: Rng, ev: list[Event], *, offered: bool = False) -> None:
    """Draw markers until a squad is activated, a side must choose, or the game ends. Before
    each draw the sides that may use strategy are asked, in priority order (`offered`: they
    have been, for this draw)."""
    state.active_squad = state.active_nose = None
    state.burst = None
    while state.result is None:
        if not state.bag:
            end_turn(state, ev)
            if state.result is not None:
                return
            start_turn(state, ev)
            if state.prompts:
                return  # the turn's card windows come before the first marker
            continue
        order = [] if offered else strategy_order(state)
        if order:
            state.phase = STRATEGY
            state.prompts.append({"kind": "strategy", "seat": state.seat_of(order[0]),
                                  "side": order[0], "then": order[1:]})
            return
        offered = False
        side = state.bag.pop(rng.below(len(state.bag), "initiative"))
        ev.append(Event("initiative_drawn", {"side": side, "left": len(state.bag)}))
        ready = candidates(state, side)
        if len(ready) == 1:
            activate(state, ready[0], ev)
            return
        if ready:
            state.phase, state.drawn = CHOOSE, side
            return
    state.phase = OVER


def activate(state: BatallitasState, sq: Squad, ev: list[Event]) -> None:
    """Squad action phase begins: alerts and lingering blasts of the squad end, points renew,
    noses beyond command distance of the leader get a pájara, and the enemy's activation card
    window opens."""
    state.phase, state.drawn = SQUAD, None
    state.active_squad, state.active_nose = sq.index, None
    sq.activated = True
    sq.pool_spent = 0
    count = state.counters.get("activations", 0) + 1  # who has waited longest (Strategy)
    state.counters["activations"] = count
    state.counters[f"{sq.side}_last_activation"] = count
    state.blasts = [b for b in state.blasts if b["squad"] != sq.index]
    members = state.members(sq.index)
    for n in members:
        n.spent, n.done, n.group, n.alert = 0, False, None, False
        for m in [m for m in n.mods if m["until"] == "activation"]:
            drop_mod(n, m, ev)  # Furia sesina: the fury ends in a pájara
            if n.status == IN_PLAY:
                give_pajara(state, n, ev)
    lead = state.nose(sq.leader) if sq.leader else None
    sq.pool_owner = (lead.id if lead is not None and "leadership" in lead.knacks
                     and not busy(state, lead) else None)
    ev.append(Event("squad_activated", {"squad": sq.index, "side": sq.side, "turn": state.turn}))
    for n in members:
        if lead is not None and lead.cell is not None and n.cell is not None \
                and distance(n.cell, lead.cell) > sq.command:
            ev.append(Event("out_of_command", {"nose": n.id}))
            give_pajara(state, n, ev)
    if state.result is None:  # the enemy's window is answered first, then the owner's
        offer_cards(state, state.seat_of(sq.side), "activation", squad=sq.index, own=True)
        offer_cards(state, 1 - state.seat_of(sq.side), "activation", squad=sq.index)


def give_pajara(state: BatallitasState, n: Nose, ev: list[Event]) -> None:
    """At most one pájara; a second one is a pupa instead ("The Pájara")."""
    if n.pajara:
        hurt(state, n, 1, ev)
    else:
        n.pajara = True
        ev.append(Event("pajara", {"nose": n.id}))


def hurt(state: BatallitasState, n: Nose, pupae: int, ev: list[Event]) -> None:
    """Lose pupae; at zero the nose is out, and a dead leader is replaced ("Pupae", "Leaders"
    rule 4)."""
    if pupae <= 0 or n.status != IN_PLAY:
        return
    n.pupae -= pupae
    ev.append(Event("pupae_lost", {"nose": n.id, "pupae": pupae, "left": max(0, n.pupae)}))
    if n.pupae > 0:
        return
    if n.trolley:  # scenario 2: the trolley stays where the nose fell, goods and all
        abandon_trolley(state, n, ev)
    n.goods = {}  # products carried by hand are lost with the nose
    for k in state.markers:  # scenario 5: the videogame stays where its carrier fell
        if k.get("carrier") == n.id:
            k["carrier"], k["pos"] = None, n.pos
    n.status, n.pos, n.alert = DEAD, None, False
    side = state.side_of(n)
    state.counters[f"{side}_lost"] = state.counters.get(f"{side}_lost", 0) + 1
    ev.append(Event("nose_eliminated", {"nose": n.id}))
    if state.active_nose == n.id:
        state.active_nose = None
        n.done = True
    if state.burst is not None and state.burst["nose"] == n.id:  # not a card's burst at it
        state.burst = None
    leader_out(state, n)
    # a leader prompt raised earlier goes once nobody of its squad is left to name (Imagen de
    # Milú may take a whole squad in one go)
    state.prompts = [q for q in state.prompts if q["kind"] != "leader"
                     or successors(state, state.squads[q["squad"]])]
    check_end(state, ev)


def leader_out(state: BatallitasState, n: Nose) -> None:
    """A leader out of the game, eliminated or gone off the board (RULES.md decision): its
    owner names a provisional leader at once ("Leaders" rule 4)."""
    sq = state.squads[n.squad]
    if sq.leader != n.id:
        return
    sq.leader = None
    if successors(state, sq):
        state.prompts.append({"kind": "leader", "seat": state.seat_of(sq.side),
                              "squad": sq.index})


def abandon_trolley(state: BatallitasState, n: Nose, ev: list[Event]) -> None:
    """Scenario 2, "Abandoned trolleys": the trolley and everything in it stay in the nose's
    cell, an obstacle there."""
    assert n.cell is not None
    state.markers.append({"kind": "trolley", "pos": list(n.cell), "goods": dict(n.goods),
                          "face_down": False, "owner": None})
    ev.append(Event("trolley_abandoned", {"nose": n.id, "pos": list(n.cell),
                                          "goods": dict(n.goods)}))
    n.goods, n.trolley = {}, False


def successors(state: BatallitasState, sq: Squad) -> list[Nose]:
    """Candidates for provisional leader: intact members (RULES.md decision: no pupae lost),
    else any survivor."""
    alive = [n for n in state.members(sq.index) if n.status in (IN_PLAY, "reserve")]
    intact = [n for n in alive if n.pupae >= attr(n, "pupae")]
    return intact or alive


def add_mod(n: Nose, card: str, attrs: dict[str, int], until: str, ev: list[Event],
            flaws: tuple[str, ...] = ()) -> None:
    """Give a nose a card's temporary modifier ("Event Cards"). A boost to Pupae adds the
    pupae it may lose at once (RULES.md decision)."""
    n.mods.append({"card": card, "attrs": dict(attrs), "flaws": list(flaws), "until": until})
    n.pupae += attrs.get("pupae", 0)
    ev.append(Event("modifier", {"nose": n.id, "card": card, "attrs": dict(attrs),
                                 "flaws": list(flaws), "until": until}))


def drop_mod(n: Nose, m: dict[str, Any], ev: list[Event]) -> None:
    """End a temporary modifier; the pupae it added go, but never the last one (RULES.md
    decision: the end of a boost kills nobody)."""
    n.mods.remove(m)
    if n.status == IN_PLAY and m["attrs"].get("pupae", 0):
        n.pupae = max(1, n.pupae - m["attrs"]["pupae"])
    ev.append(Event("modifier_ended", {"nose": n.id, "card": m["card"]}))


def end_turn(state: BatallitasState, ev: list[Event]) -> None:
    ev.append(Event("turn_ended", {"turn": state.turn}))
    state.blasts = [b for b in state.blasts if not orphan_blast(state, b)]
    for n in state.noses:
        for m in [m for m in n.mods if m["until"] == "turn_end"]:
            drop_mod(n, m, ev)
    limit = turn_limit(state)
    if limit is not None and state.turn >= limit:
        check_end(state, ev, turn_over=True)


def orphan_blast(state: BatallitasState, blast: dict[str, Any]) -> bool:
    """A lingering template goes at its squad's next activation; a squad no longer fighting
    gets no marker for the next turn, so its templates go as this one ends (RULES.md decision,
    "Flamethrower")."""
    return not state.alive(blast["squad"])


# --- the end ------------------------------------------------------------------------------

def wiped_out(state: BatallitasState, side: str) -> bool:
    """Every squad of `side` annihilated (noses still to enter, and squads still to arrive,
    count as fighting)."""
    return not any(state.alive(sq.index) for sq in state.squads if sq.side == side)


def check_end(state: BatallitasState, ev: list[Event], *, turn_over: bool = False) -> bool:
    """Apply the scenario's victory conditions that this code knows (RULES.md lists them)."""
    if state.result is not None:
        return True
    sc = scenario_of(state)
    for v in sc.victory:
        met = False
        if v.when == "enemy_wiped_out" and v.side is not None:
            met = wiped_out(state, "rebel" if v.side == "papal" else "papal")
        elif v.when == "turn_limit":
            met = turn_over
        elif v.when == "goods_off_board":
            met = goods_out(state)
        elif v.when == "goal_impossible":
            met = turn_over or no_rebels(state)
        elif v.when == "exit":
            met = state.counters.get(f"{v.side}_left", 0) >= (v.count or 1)
        elif v.when == "exit_impossible":
            met = turn_over or exit_hopeless(state, "rebel" if v.side == "papal" else "papal")
        elif v.when in ("band_escaped", "band_escaped_at_most"):
            met = band_result(state, v.when, v.count or 0, turn_over)
        elif v.when in ("slider_escape", "slider_escape_without_game"):
            key = "slider_with_game" if v.when == "slider_escape" else "slider_without_game"
            met = bool(state.counters.get(key))
        elif v.when == "passage_found":
            met = bool(state.counters.get("passage_found"))
        if met:
            finish(state, v.side, v.text, ev)
            return True
    if turn_over:  # a limit that came from the option with no condition of its own
        finish(state, None, "the turn limit ran out", ev)
        return True
    return False


def band_result(state: BatallitasState, when: str, count: int, turn_over: bool) -> bool:
    """Scenario 4: the whole band through wins at once; otherwise the count through decides once
    no band member is left to try (dead or through) or the turn limit option ends the game."""
    out = state.counters.get("band_out", 0)
    band = [n for n in state.noses if n.role == "band"]
    if when == "band_escaped" and count >= len(band):
        return out >= count
    settled = turn_over or not any(n.status in (IN_PLAY, RESERVE) for n in band)
    if not settled:
        return False
    return out >= count if when == "band_escaped" else out <= count


def goods_out(state: BatallitasState) -> bool:
    """Scenario 2: the goal's products have left the board with Fans."""
    goal = scenario_of(state).goal or {}
    return all(state.counters.get(f"{g}_out", 0) >= k for g, k in goal.items())


def no_rebels(state: BatallitasState) -> bool:
    """No rebel nose left on the board or still to enter (scenario 2: the shelves never run
    out, so any Fan still playing can still make the goal)."""
    return not any(n.status in (IN_PLAY, RESERVE) for n in state.noses
                   if state.side_of(n) == "rebel")


def exit_hopeless(state: BatallitasState, side: str) -> bool:
    """Scenario 3: too few of `side`'s noses left (gone out, on the board or to enter) to make
    the exit goal."""
    goal = next((v.count or 1 for v in scenario_of(state).victory if v.when == "exit"), 1)
    able = sum(1 for n in state.noses if state.side_of(n) == side
               and n.status in (IN_PLAY, RESERVE))
    return state.counters.get(f"{side}_left", 0) + able < goal


def finish(state: BatallitasState, side: str | None, why: str, ev: list[Event]) -> None:
    state.result = {"side": side, "reason": why}
    state.phase, state.prompts, state.burst, state.pending = OVER, [], None, None
    state.active_squad = state.active_nose = None
    ev.append(Event("match_over", dict(state.result)))


def content() -> Content:
    return load()
