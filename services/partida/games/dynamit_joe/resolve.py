"""Resolving hits and panic (rulebook 7 Resolving hits), with the joker decisions that fall in
the middle of a resolution (precision, weak spot, luck, resistance, cold-blooded).

Resolution is a queue of tasks in the state. `step` advances the front task by one stage; a
stage that needs a player's decision sets `state.prompt` and returns, and the answer resumes it.
"""

from __future__ import annotations

from typing import Any

from partida.engine import Event, Rng
from partida.games.dynamit_joe import actions as A
from partida.games.dynamit_joe.content import LEVELS, load
from partida.games.dynamit_joe.geometry import geometry
from partida.games.dynamit_joe.state import JoeState

HARMFUL = ("wound1", "wound2", "panic", "panic_wound1")
_CARDS: dict[str, Any] = {}


def marksmen(level: str) -> list[dict[str, str]]:
    if level not in _CARDS:
        _CARDS[level] = load().marksmen_cards(level)
    return _CARDS[level]


def panic_cards() -> list[str]:
    if "panic" not in _CARDS:
        _CARDS["panic"] = load().panic_cards()
    return _CARDS["panic"]


def draw(state: JoeState, pile: str, rng: Rng, ev: list[Event]) -> int:
    """The top card of a pile; an empty pile is refilled from its discards and shuffled."""
    if not state.piles[pile]:
        state.piles[pile], state.discards[pile] = state.discards[pile], []
        rng.shuffle(state.piles[pile])
        ev.append(Event("pile_shuffled", {"pile": pile}))
    card = state.piles[pile].pop(0)
    state.discards[pile].append(card)
    return card


def shuffle_all(state: JoeState, rng: Rng, ev: list[Event]) -> None:
    """The 'shuffle all cards' panic card: every pile takes back its discards."""
    for pile in sorted(state.piles):   # sorted: a restored state may order its keys otherwise
        state.piles[pile] += state.discards[pile]
        state.discards[pile] = []
        rng.shuffle(state.piles[pile])
    ev.append(Event("pile_shuffled", {"pile": "all"}))


def could_hold(state: JoeState, name: str | None, joker: str) -> bool:
    """Whether the table, seeing only public facts, must allow that `name` holds `joker`: he
    is still in play with his joker face down, and the deck's copies of that joker have not all
    been played. Out-of-turn joker decisions are offered on this, not on the card itself, so
    being asked tells the other seats nothing (2.7: jokers stay secret)."""
    if name is None:
        return False
    c = state.chars[name]
    if not c["joker"] or c["dead"] or c["captured"] or c["left"]:
        return False
    played = sum(o["jokers_played"].count(joker) for o in state.chars.values())
    return played < load().decks.jokers.count(joker)


def ask(state: JoeState, name: str, joker: str) -> None:
    state.prompt = {"kind": "joker", "joker": joker, "char": name,
                    "seat": state.chars[name]["seat"]}


def play_joker(state: JoeState, name: str, joker: str, ev: list[Event]) -> None:
    c = state.chars[name]
    c["joker"] = None
    c["jokers_played"].append(joker)
    ev.append(Event("joker_played", {"character": name, "joker": joker, "target": ""}))


def answer(state: JoeState, play: bool, ev: list[Event]) -> None:
    """A joker decision taken: record it in the front task and move it on."""
    prompt = state.prompt
    assert prompt is not None
    state.prompt = None
    task = state.queue[0]
    joker = prompt["joker"]
    task.setdefault("declined", []).append(joker)
    if not play:
        return
    play_joker(state, prompt["char"], joker, ev)
    if joker == "precision":
        task["stage"] = "draw"
    elif joker == "weak_spot":
        task["extra"] += 1
    elif joker == "luck" and task["t"] == "hit":
        task["res"] = "cancelled"
    elif joker == "luck":
        task["card"] = None
        task["stage"] = "done"
    elif joker == "resistance":
        task["extra"] -= 1
    elif joker == "cold_blooded":
        task["stage"] = "done"


def _offer(state: JoeState, task: dict[str, Any], name: str | None, joker: str) -> None:
    """Ask whoever might hold the joker (a bluff window for the others: only "pass")."""
    if could_hold(state, name, joker) and joker not in task.get("declined", []):
        assert name is not None
        ask(state, name, joker)


# ----- hits ------------------------------------------------------------------------------------

def step_hit(state: JoeState, task: dict[str, Any], rng: Rng, ev: list[Event]) -> bool:
    """Advance a hit by one stage; True when it is finished."""
    stage = task["stage"]
    att, tgt, res = task["att"], task["tgt"], task["res"]
    aimed = task["mode"] in ("shot", "knife", "stab", "blind", "spill")
    if stage == "draw":
        pile = LEVELS[task["level"]]
        task["card"] = draw(state, pile, rng, ev)
        task["res"] = marksmen(pile)[task["card"]][task["weapon"]]
        task.pop("declined", None)
        ev.append(Event("marksmen_card", {"attacker": att, "target": tgt or task["lock"] or "",
                                          "pile": pile, "card": task["card"],
                                          "result": task["res"], "weapon": task["weapon"]}))
        task["stage"] = "precision"
    elif stage == "precision":
        task["stage"] = "weak"
        if aimed and res == "miss":
            _offer(state, task, att, "precision")
        return False
    elif stage == "weak":
        task["stage"] = "luck"
        hurts = res in A.WOUNDS and tgt is not None
        if aimed and hurts:
            _offer(state, task, att, "weak_spot")
        return False
    elif stage == "luck":
        task["stage"] = "resist"
        if res in HARMFUL:
            _offer(state, task, tgt, "luck")
        return False
    elif stage == "resist":
        task["stage"] = "apply"
        hurt = A.WOUNDS.get(res, 0) + task["extra"] > 0 if res in A.WOUNDS else False
        if hurt:
            _offer(state, task, tgt, "resistance")
        return False
    else:
        _apply_hit(state, task, rng, ev)
        return True
    return False


def _apply_hit(state: JoeState, task: dict[str, Any], rng: Rng, ev: list[Event]) -> None:
    res, mode, gun = task["res"], task["mode"], task["gun"]
    if mode == "repair":
        _repair(state, task, ev)
        return
    if mode == "blast" and task["first"] and res == "jam":
        _fizzle(state, task, ev)
        return
    # A gun's card jams it or spends a bullet; the bars' card of a stick (9.7) does neither:
    # that stick has gone off already (only the explosion's first card may fizzle it, 7.2).
    if mode in ("shot", "lock", "blind") and gun is not None and task["weapon"] != "dynamite":
        obj = state.objects[gun]
        if res == "jam":
            obj["jammed"] = True
            ev.append(Event("jammed", {"object": gun, "character": task["att"]}))
        else:
            obj["ammo"] = max(0, obj["ammo"] - 1)
            _fired(state, task)
    if mode == "blast" and task["first"]:
        state.noise = True
        ev.append(Event("explosion", {"zone": task["zone"], "character": task["att"]}))
    if mode == "lock":
        if res in A.WOUNDS:
            open_lock(state, task["lock"], ev)
        return
    tgt = task["tgt"]
    if tgt is None:
        return
    if res == "miss" and mode in ("shot", "knife", "blind"):
        others = [t for t in state.in_zone(task["zone"]) if t != tgt and t != task["att"]]
        if others:
            victim = rng.choice(others)
            ev.append(Event("stray", {"target": victim}))
            state.queue.insert(1, {**task, "tgt": victim, "mode": "spill", "stage": "draw",
                                   "res": None, "card": None, "extra": 0, "declined": []})
    wounds = A.WOUNDS.get(res, 0)
    if wounds:
        wound(state, tgt, max(0, wounds + task["extra"]), ev)
    if res in ("panic", "panic_wound1") and not state.chars[tgt]["dead"]:
        panic = {"t": "panic", "char": tgt, "stage": "cold", "card": None}
        if _volley(task):
            panic["volley"] = _volley(task)
        state.queue.insert(_after_volley(state, task), panic)


def _volley(task: dict[str, Any]) -> str | None:
    """The cards of one double shot (7.4) or one explosion (7.3) are drawn together."""
    return task.get("volley") or task.get("blast")


def _after_volley(state: JoeState, task: dict[str, Any]) -> int:
    """Where a panic of the front task goes: after the cards and panics of its volley still
    queued, so every card of one action is drawn first and its panics keep the order the
    cards were drawn in (7.6)."""
    key, i = _volley(task), 1
    while key and i < len(state.queue) and _volley(state.queue[i]) == key:
        i += 1
    return i


def _fired(state: JoeState, task: dict[str, Any]) -> None:
    """A gun went off (7.2: a jammed one does not): the shot is heard (9: sleepers woken by
    noise), and a shot into another space shows where the shooter stands (6.2 B)."""
    state.noise = True
    if task["mode"] in ("shot", "blind"):
        geo = geometry()
        att = state.chars[task["att"]]
        if geo.zones[task["zone"]].space != geo.zones[att["zone"]].space:
            att["fired_outside"] = True


def _fizzle(state: JoeState, task: dict[str, Any], ev: list[Event]) -> None:
    """5.5, 7.2: the fuse fizzles; the stick lies jammed in the target zone, nothing explodes."""
    obj = state.objects[task["gun"]]
    obj.update(gone=False, zone=task["zone"], jammed=True)
    state.queue[1:] = [t for t in state.queue[1:] if t.get("blast") != task["blast"]]
    ev.append(Event("fizzled", {"zone": task["zone"], "object": task["gun"]}))


def _repair(state: JoeState, task: dict[str, Any], ev: list[Event]) -> None:
    """Optional rule 8.3: a wound symbol repairs, a jam symbol ruins the weapon."""
    res, o = task["res"], task["gun"]
    if res in A.WOUNDS:
        state.objects[o]["jammed"] = False
        ev.append(Event("unjammed", {"character": task["att"], "object": o}))
    elif res == "jam":
        holder = state.objects[o]["holder"]
        if holder is not None:
            A._release(state, holder, o, None)
        state.objects[o]["gone"] = True
        ev.append(Event("weapon_ruined", {"character": task["att"], "object": o}))
    else:
        ev.append(Event("repair_failed", {"character": task["att"], "object": o}))


def open_lock(state: JoeState, lock: str, ev: list[Event]) -> None:
    state.locks[lock] = False
    ev.append(Event("lock_destroyed", {"lock": lock}))
    for link in load().board.links:
        if link.lock != lock:
            continue
        for z in (link.a, link.b):
            for n in state.in_zone(z):
                if state.chars[n]["locked"]:
                    state.chars[n]["locked"] = False
                    state.pool.append(n)
                    ev.append(Event("freed", {"character": n, "by": ""}))


def wound(state: JoeState, name: str, n: int, ev: list[Event]) -> None:
    """Wound counters (2.5, 7.2): the third one kills; the body keeps its place (7.7)."""
    c = state.chars[name]
    if n <= 0 or c["dead"]:   # a second card of a double shot finds a body
        return
    c["wounds"] = min(3, c["wounds"] + n)
    ev.append(Event("wounded", {"character": name, "wounds": c["wounds"]}))
    if c["wounds"] >= 3:
        c["dead"], c["ambush"] = True, False
        A.drop_all(state, name)
        if name in state.pool:
            state.pool.remove(name)
        ev.append(Event("died", {"character": name, "zone": c["zone"]}))


# ----- panic (7.6 and the panic card list) --------------------------------------------------------

def step_panic(state: JoeState, task: dict[str, Any], rng: Rng, ev: list[Event]) -> bool:
    name = task["char"]
    c = state.chars[name]
    if c["dead"] or c["left"] or c["captured"]:
        return True
    stage = task["stage"]
    if stage == "cold":
        task["stage"] = "draw"
        _offer(state, task, name, "cold_blooded")
        return False
    if stage == "draw":
        task["card"] = draw(state, "panic", rng, ev)
        ev.append(Event("panic_card", {"character": name, "card": task["card"],
                                       "effect": panic_cards()[task["card"]]}))
        task["stage"] = "luck"
        return False
    if stage == "luck":
        task["stage"] = "apply"
        _offer(state, task, name, "luck")
        return False
    if stage == "apply":
        _panic_effect(state, name, panic_cards()[task["card"]], rng, ev)
    return True


def _panic_effect(state: JoeState, name: str, effect: str, rng: Rng, ev: list[Event]) -> None:
    c = state.chars[name]
    active = state.active == name
    if effect == "shuffle_all":
        shuffle_all(state, rng, ev)
    elif effect in ("courage", "ap_minus_1", "ap_minus_2"):
        delta = {"courage": 1, "ap_minus_1": -1, "ap_minus_2": -2}[effect]
        if active:
            state.ap = max(0, state.ap + delta)
        else:
            c["ap_mod"] += delta
    elif effect in ("luck_minus", "luck_plus"):
        c["luck"] += 1 if effect == "luck_plus" else -1
    elif effect.startswith("flight_"):
        flee(state, name, int(effect[-1]), ev)
    elif effect == "total_panic":
        if active:
            state.ap = 0
            c["turn_over"] = True
        else:
            c["skip"] = True
    elif effect == "blind_panic":
        _blind(state, name, ev)
    elif effect == "clumsiness":
        held = state.held(name)
        if len(held) == 1:
            A._release(state, name, held[0], c["zone"])
            ev.append(Event("dropped", {"character": name, "object": held[0]}))
        elif held:
            state.prompt = {"kind": "clumsy", "char": name, "seat": c["seat"]}


def _blind(state: JoeState, name: str, ev: list[Event]) -> None:
    """Blind panic: a hard shot at the nearest character in sight and range, an enemy first."""
    c = state.chars[name]
    dist = geometry().distance[c["zone"]]
    for g in c["guns"]:
        obj = state.objects[g]
        if obj["ammo"] <= 0 or obj["jammed"]:
            continue
        reach = A.spec(obj["kind"]).range
        seen = [t for t in state.order if t != name and not state.chars[t]["dead"]
                and not state.chars[t]["left"] and not state.chars[t]["captured"]
                and dist[state.chars[t]["zone"]] <= reach and A.sees(state, name, t).visible]
        if not seen:
            continue
        t = min(seen, key=lambda x: (dist[state.chars[x]["zone"]], not state.enemies(name, x),
                                     state.order.index(x)))
        ev.append(Event("shot", {"character": name, "target": t, "guns": [g], "level": 2}))
        state.queue.insert(1, {"t": "hit", "stage": "draw", "card": None, "res": None,
                               "extra": 0, "att": name, "tgt": t, "weapon": obj["kind"],
                               "gun": g, "level": 2, "mode": "blind",
                               "zone": state.chars[t]["zone"], "lock": None, "blast": None,
                               "first": False})
        return
    ev.append(Event("no_effect", {"character": name, "why": "no loaded gun or no one in sight"}))


def flee(state: JoeState, name: str, steps: int, ev: list[Event]) -> None:
    """Flight (7.6): walk up to `steps` zones away from the enemy, stopping once out of every
    enemy's sight; never into a zone with an enemy; through windows only with optional rule
    8.2 (two zones each). Away means never nearer the nearest enemy; with no hiding place,
    the zone farthest from him, and none farther than here: he stays."""
    c = state.chars[name]
    geo = geometry()
    enemies = [e for e in state.order if state.enemies(name, e) and state.standing(e)]
    bad = {state.chars[e]["zone"] for e in enemies}
    windows = bool(state.options.get("windows_cost_two"))
    locks = A.open_locks(state)
    best: dict[str, int] = {c["zone"]: 0}
    frontier = [c["zone"]]
    while frontier:
        nxt = []
        for z in frontier:
            for o, link in geo.moves(z, locks):
                if link.kind == "window" and not windows:
                    continue
                d = best[z] + (2 if link.kind == "window" else 1)
                if d <= steps and o not in bad and d < best.get(o, 99):
                    best[o] = d
                    nxt.append(o)
        frontier = nxt

    def hidden(z: str) -> bool:
        occ = state.occupied() - {c["zone"]}
        return not any(geo.sight(state.chars[e]["zone"], z, occ).visible for e in enemies)

    def far(z: str) -> int:
        return min((geo.distance[state.chars[e]["zone"]][z] for e in enemies), default=0)

    here = far(c["zone"])
    safe = [z for z in best if hidden(z) and far(z) >= here]
    if safe:
        dest = min(safe, key=lambda z: (best[z], -far(z), z))
    else:
        dest = max(best, key=lambda z: (far(z), best[z], z))
    if dest != c["zone"]:
        ev.append(Event("fled", {"character": name, "from": c["zone"], "to": dest}))
        c["zone"] = dest
    else:
        ev.append(Event("no_effect", {"character": name, "why": "nowhere to flee"}))
