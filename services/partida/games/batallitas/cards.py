"""Event cards: which card a holder may play in a window, what the roll-changing cards do, and
re-rolling one's own attack roll by discarding a card ("Event cards", "Repeating rolls",
"Event Cards": ¡¡Preeet!!, La suerte del enano, ¡¡Cli-cli-clik!!, ¿Hudson? ¿Apone?, Imagen de
Milú, ¡¡Ka-boom!!, Si alguien encuentra mi brazo, Furia sesina, Imagen de Dick, ¡¡Vamos nenes,
por el sargento!!, and through card_effects.py the other twelve).

A card aimed at one nose or squad is listed once per target: `play:<card>:<target>`.

Windows: a card of timing `any_time` may also be played in the `turn_start`, `activation` and
`own_action_phase` windows and in the papal seat's `any_time` window after each rebel action;
`own_action_phase` cards (and `any_time` ones) are listed among the acting seat's squad-phase
actions, Petardo humano among its Lethal Fan's nose actions.

An attack (a shot, an area shot, an alert shot or a blow) waits in `state.pending` while its
windows are open: the enemy's before the dice, the enemy's after them, then the roller's re-roll.
"""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.batallitas import card_effects as E
from partida.games.batallitas.content import EventCard, load
from partida.games.batallitas.dice import Roll, roll
from partida.games.batallitas.state import (
    ATTRIBUTES,
    IN_PLAY,
    RESERVE,
    BatallitasState,
    Nose,
    Squad,
)
from partida.games.batallitas.turn import add_mod, give_pajara, hurt
from partida.games.batallitas.world import field_of

# Rolls that cards impose without dice: a screw-up, and a failure that is not one.
SCREW_UP = Roll((), 1)
FAILURE = Roll((), 2)

# Cards whose effect is written so far, by timing and effect (ids lose deck and copy number).
WRITTEN = {"before_roll": ("whistle",), "after_roll": ("dwarf_luck", "click"),
           "activation": ("hudson", "fury"),
           "turn_start": ("milu", "dick", "for_sarge", "traitor", "incinerators"),
           "on_jam": ("kaboom",), "on_pupae": ("rolex",),
           "any_time": ("rights", "full_fire", "born_leader"),
           "own_action_phase": ("reinforcements", "bombard", "human_bomb"),
           "pre_game": ("booby_trap",)}
# Windows in which an `any_time` card may be played too (never while an attack roll waits).
ANY_TIME_IN = ("turn_start", "activation", "any_time", "own_action_phase")
# `any_time` cards worth a window after each enemy action (RULES.md decision: Líder nato only
# matters in its owner's own phases).
REACTIVE = ("rights", "full_fire")
# Cards played on a target the holder picks: effect -> the window's candidates.
REBELS = ("fan", "lethal_fan")
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


def playable(state: BatallitasState, window: dict[str, Any]) -> list[str]:
    """The cards of the window's seat it may play now (one of each effect), each with its
    target where it takes one (`<card>:<target>`)."""
    out: dict[str, str] = {}
    for cid in state.hands[window["seat"]]:
        fx = effect(cid)
        if fits_window(cid, window["timing"]) and _fits(state, window, fx):
            out.setdefault(fx, cid)
    listed: list[str] = []
    for fx, cid in out.items():
        aims = targets(state, window, fx)
        listed.extend([f"{cid}:{t}" for t in aims] if aims is not None else [cid])
    return sorted(listed)


def fits_window(cid: str, timing: str) -> bool:
    c = card(cid)
    if c.timing == "any_time" and timing in ANY_TIME_IN:
        return effect(cid) in REACTIVE or timing != "any_time"
    return c.timing == timing and effect(cid) in WRITTEN.get(timing, ())


def targets(state: BatallitasState, window: dict[str, Any], fx: str) -> list[str] | None:
    """The targets a card is played on (None: it takes none)."""
    if fx == "fury":  # a Fan or Lethal Fan of the squad just activated
        return [n.id for n in state.members(window["squad"]) if n.status == IN_PLAY]
    if fx == "for_sarge":
        return [str(sq.index) for sq in orphaned(state)]
    if fx in TARGETED:
        return TARGETED[fx](state)
    if fx == "human_bomb":
        return [window["nose"]]
    if fx == "booby_trap":
        return [f"{x},{y}" for x, y in E.trap_cells(state)]
    return None


def orphaned(state: BatallitasState) -> list[Squad]:
    """Fans or Lethal Fans squads still fighting whose original leader is out of the game."""
    return [sq for sq in state.squads if sq.family in REBELS and state.alive(sq.index)
            and sq.original_leader is not None
            and state.nose(sq.original_leader).status not in (IN_PLAY, RESERVE)]


TARGETED = {"rights": E.rights_targets, "full_fire": E.full_fire_targets,
            "born_leader": E.born_leader_targets, "traitor": E.traitor_targets}


def reacts(side: str) -> bool:
    """Whether `side`'s deck holds a card worth a window after each enemy action."""
    return any(effect(c.id) in REACTIVE for c in load().events.deck(side))  # type: ignore[arg-type]


def _fits(state: BatallitasState, window: dict[str, Any], fx: str) -> bool:
    p = state.pending
    if window["timing"] == "own_action_phase" and window.get("nose") is not None \
            and fx != "human_bomb":
        return False  # in a nose's phase only the card played on that nose is listed
    if fx in TARGETED:
        return bool(TARGETED[fx](state))
    if fx == "incinerators":
        return any(state.squads[n.squad].family in E.PAPAL_FAMILIES and not n.pajara
                   for n in state.in_play())
    if fx in ("reinforcements", "bombard"):  # in its own squad phase, between noses
        fam = state.squads[window["squad"]].family
        return window.get("nose") is None and (fam == "fanhunter" or fx == "reinforcements"
                                               and fam == "macute") \
            and (fx == "bombard" or bool(E.entry_sides(field_of(state))))
    if fx == "human_bomb":  # a Lethal Fan in its own action phase
        nid = window.get("nose")
        return nid is not None and E.is_lethal(state.nose(nid)) \
            and state.nose(nid).status == IN_PLAY  # on the board, not waiting to enter
    if fx == "booby_trap":
        return E.trap_usable(state)
    if fx == "kaboom":  # the jammed short or long firearm is still carried
        n = state.nose(window["nose"])
        return n.status == IN_PLAY and window["weapon"] in n.jammed
    if fx == "rolex":  # the window opens only on a Fan's or Lethal Fan's pupae
        return True
    if fx == "fury":
        return bool(window.get("own")) and state.squads[window["squad"]].family in REBELS \
            and any(n.status == IN_PLAY for n in state.members(window["squad"]))
    if fx == "dick":
        return bool(macutes(state))
    if fx == "for_sarge":
        return bool(orphaned(state))
    if fx == "click":
        return p is not None and p["kind"] in SHOTS  # it only answers a shot
    if fx == "dwarf_luck":
        return p is not None and roll_from_dict(p["roll"]).success  # a failure stays one
    if fx == "hudson":
        if window.get("own"):
            return False  # it answers an enemy squad's activation
        sq = state.squads[window["squad"]]
        lead = state.nose(sq.leader) if sq.leader else None
        return lead is not None and lead.status == IN_PLAY
    if fx == "milu":
        return bool(macutes(state))
    return p is not None  # the whistle: a declared attack


def macutes(state: BatallitasState) -> list[Nose]:
    return [n for n in state.in_play() if state.squads[n.squad].family == "macute"]


def play(state: BatallitasState, rng: Rng, window: dict[str, Any], choice: str,
         ev: list[Event]) -> dict[str, Any] | None:
    """Play a card in its window; it leaves the game (RULES.md decision). Returns what is
    left to do: a `pick` prompt, or {"burst": <first shot>} for ¡¡Fuego al máximo!!."""
    seat = window["seat"]
    cid, _, target = choice.partition(":")
    state.hands[seat].remove(cid)
    fx = effect(cid)
    ev.append(Event("card_played", {"seat": seat, "card": cid, "target": target or None}))
    if fx == "hudson":
        _hudson(state, state.squads[window["squad"]], ev)
    elif fx == "milu":
        _milu(state, rng, ev)
    elif fx == "kaboom":
        _kaboom(state, rng, state.nose(window["nose"]), window["weapon"], ev)
    elif fx == "rolex":
        ev.append(Event("pupae_ignored", {"nose": window["nose"], "pupae": window["pupae"]}))
    elif fx == "fury":
        add_mod(state.nose(target), cid, {a: 2 for a in ATTRIBUTES}, "activation", ev)
    elif fx == "dick":
        for n in macutes(state):
            add_mod(n, cid, {a: 1 for a in ATTRIBUTES}, "turn_end", ev)
    elif fx == "for_sarge":
        for n in state.members(int(target)):
            if n.status in (IN_PLAY, RESERVE):
                add_mod(n, cid, {"actions": 3}, "turn_end", ev, flaws=("clumsy",))
    elif fx in LATER:
        return LATER[fx](state, rng, window, target, cid, ev)
    else:
        _on_roll(state, fx)
    return None


def _pick(what: str, left: int):
    def start(state: BatallitasState, rng: Rng, window: dict[str, Any], target: str, cid: str,
              ev: list[Event]) -> dict[str, Any]:
        seat = window["seat"] if what != "edge" else 1 - window["seat"]  # the foe picks it
        return {"kind": "pick", "seat": seat, "card": cid, "what": what, "left": left,
                "squad": window.get("squad")}
    return start


LATER = {
    "rights": lambda s, rng, w, t, c, ev: E.rights(s, rng, s.nose(t), ev),
    "full_fire": lambda s, rng, w, t, c, ev: {"burst": E.full_fire(s, t)},
    "born_leader": lambda s, rng, w, t, c, ev: E.born_leader(s.nose(t), ev),
    "traitor": lambda s, rng, w, t, c, ev: E.traitor(s, s.nose(t.split(":")[0]),
                                                     t.split(":")[1], ev),
    "human_bomb": lambda s, rng, w, t, c, ev: E.human_bomb(s, rng, s.nose(t), ev),
    "booby_trap": lambda s, rng, w, t, c, ev: E.set_trap(
        s, (int(t.split(",")[0]), int(t.split(",")[1])), ev),
    "incinerators": _pick("pajara", E.PAJARAS),
    "bombard": _pick("bomb", E.BOMBS),
    "reinforcements": _pick("edge", 1),
}


def _kaboom(state: BatallitasState, rng: Rng, n: Nose, wid: str, ev: list[Event]) -> None:
    """¡¡Ka-boom!!: the jammed firearm blows up in its wielder's hands: the weapon's own pupae
    dice (RULES.md decision: no armour or cover against them), and the weapon is gone."""
    k = load().arsenal.weapon(wid).pupae.dice
    r = roll(rng, k)
    hits = r.successes if r else 0
    n.weapons.remove(wid)
    n.jammed.remove(wid)
    n.ammo.pop(wid, None)
    ev.append(Event("kaboom", {"nose": n.id, "weapon": wid, "dice": k,
                               "faces": list(r.dice) if r else [], "pupae": hits}))
    hurt(state, n, hits, ev)


def _hudson(state: BatallitasState, sq: Squad, ev: list[Event]) -> None:
    """¿Hudson? ¿Apone?: the activated squad's leader takes a pájara and cannot share its points
    this turn."""
    lead = state.nose(sq.leader or "")
    give_pajara(state, lead, ev)
    if sq.pool_owner == lead.id:
        sq.pool_owner = None
        ev.append(Event("leadership_lost", {"squad": sq.index, "nose": lead.id}))


def _milu(state: BatallitasState, rng: Rng, ev: list[Event]) -> None:
    """Imagen de Milú: a die per Tintín Macute in play: 1-3 a pájara, 4-5 a pupa, 6 out of the
    game (RULES.md decision: as eliminated)."""
    for n in macutes(state):
        face = rng.d6()
        ev.append(Event("milu", {"nose": n.id, "die": face}))
        if face <= 3:
            give_pajara(state, n, ev)
        elif face <= 5:
            hurt(state, n, 1, ev)
        else:
            hurt(state, n, n.pupae, ev)


def _on_roll(state: BatallitasState, fx: str) -> None:
    p = state.pending
    assert p is not None
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
