"""Dynamit Joe as an engine: set-up (3), rounds of activation chips (4.1), the action phase
(4.2, 5), interrupts (ambush 5.7, out-of-turn jokers), scenarios and victory (9).

Cites the rulebook by section number. Hits and panic are resolved in `resolve`, the actions
themselves in `actions`, lines of sight in `geometry`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from partida.engine import (
    Action,
    BadSetup,
    Event,
    Game,
    GameInfo,
    IllegalAction,
    Json,
    Outcome,
    Rng,
    Scenario,
    Seat,
    copy_plain,
)
from partida.games.dynamit_joe import actions as A
from partida.games.dynamit_joe import resolve as R
from partida.games.dynamit_joe.content import Content, ScenarioSpec, load
from partida.games.dynamit_joe.geometry import geometry
from partida.games.dynamit_joe.state import JoeState

OPTIONS = {
    "reassign_characters": "8.1: a player left without characters gets one from a teammate",
    "windows_cost_two": "8.2: climbing through a window costs an extra action point",
    "jam_repair_by_card": "8.3: removing a jam draws a marksmen card",
    "wounds_reduce_ap": "8.4: one action point less per wound",
    "round_limit": "rounds before the match is called (default: the scenario's)",
    "price_list_budget": "8.5: dollars per character (50-100) to buy the starting equipment "
                         "from the price list instead of the character cards' (default: off)",
}
_FLAGS = ("reassign_characters", "windows_cost_two", "jam_repair_by_card", "wounds_reduce_ap")
PUBLIC_PROMPTS = ("window", "chip_ambush", "clumsy", "continue", "buy", "place", "hand")


def _info(content: Content) -> GameInfo:
    return GameInfo(
        id="dynamit_joe", title="Dynamit Joe",
        scenarios=tuple(
            Scenario(s.id, s.title, s.min_seats, s.max_seats, tuple(x.id for x in s.sides),
                     f"Rulebook {s.section}: " + "; ".join(
                         f"{x.id}: {', '.join(x.characters)}" for x in s.sides))
            for s in content.scenarios.scenarios),
        hidden_information=True, options=OPTIONS,
        rules_revision=2)   # the editions are listed at the end of RULES.md


INFO = _info(load())


def seat_plan(sc: ScenarioSpec, seats: int) -> dict[str, int]:
    """Which seat plays which character: every side gets a seat, extra seats go to the side
    with most characters per seat; seats are numbered side by side in turn, characters dealt
    round the side's seats (captives last, so nobody starts with only a captive)."""
    per_side = [1] * len(sc.sides)
    for _ in range(seats - len(sc.sides)):
        i = max(range(len(sc.sides)),
                key=lambda k: (len(sc.sides[k].characters) / per_side[k], -k))
        per_side[i] += 1
    owned: list[list[int]] = [[] for _ in sc.sides]
    seat, k = 0, 0
    while seat < seats:
        if len(owned[k]) < per_side[k]:
            owned[k].append(seat)
            seat += 1
        k = (k + 1) % len(sc.sides)
    plan = {}
    captives = set(sc.tied) | set(sc.locked_up)
    for side, mine in zip(sc.sides, owned, strict=True):
        names = [c for c in side.characters if c not in captives]
        names += [c for c in side.characters if c in captives]
        for i, name in enumerate(names):
            plan[name] = mine[i % len(mine)]
    return plan


class DynamitJoe(Game[JoeState]):
    info = INFO

    def __init__(self, content: Content | None = None) -> None:
        self.content = content or load()

    # ----- set-up (3 Setting up the game, chapter 9) --------------------------------------------
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> JoeState:
        try:
            sc = self.content.scenario(scenario)
        except KeyError:
            raise BadSetup(f"unknown dynamit_joe scenario {scenario!r}") from None
        if type(seats) is not int or not sc.min_seats <= seats <= sc.max_seats:
            raise BadSetup(f"{sc.title} takes {sc.min_seats}-{sc.max_seats} players, not {seats}")
        opts = _options(options)
        plan = seat_plan(sc, seats)
        state = JoeState(scenario=scenario, seats=seats, options=opts, chars={}, objects={},
                         order=sc.characters, locks={lock: True for lock in sc.locks},
                         piles={}, discards={}, jokers_left=[])
        buying = "price_list_budget" in opts
        for side in sc.sides:
            for name in side.characters:
                self._place_character(state, sc, name, side.id, plan[name], not buying)
        for placed in sc.objects:
            self._new_object(state, placed.kind, zone=placed.zone, value=placed.value)
        if sc.face_down is not None:
            # 9.8: the keepers lay the markers (decisions below). Made in a shuffled order, so
            # an object id tells nothing about what lies face down.
            markers = list(sc.face_down.markers)
            rng.shuffle(markers)
            for marker in markers:
                oid = self._new_object(state, marker.kind, zone=None, value=marker.value)
                state.objects[oid].update(face_down=True, placing=oid)
        for level in ("easy", "average", "hard"):
            state.piles[level] = list(range(len(R.marksmen(level))))
        state.piles["panic"] = list(range(len(R.panic_cards())))
        for pile in state.piles.values():
            rng.shuffle(pile)
        state.discards = {p: [] for p in state.piles}
        jokers = list(self.content.decks.jokers)
        rng.shuffle(jokers)
        for name in state.order:
            state.chars[name]["joker"] = jokers.pop()
        state.jokers_left = sorted(jokers)
        if buying:
            self._buying(state, sc, 0)
        else:
            self._place_next(state, sc)
        self._advance(state, rng, [])
        return state

    # ----- optional rule 8.5: buying the starting equipment -------------------------------------
    def _buying(self, state: JoeState, sc: ScenarioSpec, index: int) -> None:
        """8.5: the sides buy in scenario order, each from a purse of the budget times its
        characters, decided by the side's lowest seat; no more buying once every side is done."""
        if index >= len(sc.sides):
            for obj in state.objects.values():
                obj.pop("owner", None)
            self._place_next(state, sc)
            return
        side = sc.sides[index]
        state.prompt = {"kind": "buy", "side": side.id, "index": index,
                        "seat": min(state.chars[n]["seat"] for n in side.characters),
                        "money": state.options["price_list_budget"] * len(side.characters)}

    def _buy_options(self, state: JoeState) -> list[tuple[str, str]]:
        p = state.prompt
        assert p is not None
        sc = self.content.scenario(state.scenario)
        side = sc.sides[p["index"]]
        out = []
        for name in side.characters:
            guns, objects = self._bought(state, name)
            for k in self.content.objects.objects:
                if k.price is None or k.price > p["money"]:
                    continue
                if (guns if k.gun else objects) >= (self.content.objects.max_guns if k.gun
                                                    else self.content.objects.max_objects):
                    continue
                out.append((f"buy:{k.kind}:{name}", f"Buy a {k.name} for {name} (${k.price})"))
        return [*out, ("done", f"{side.id} has finished buying (${p['money']} left)")]

    # ----- starting zones of choice (9.6, 9.7, 9.8) ---------------------------------------------
    def _place_next(self, state: JoeState, sc: ScenarioSpec) -> None:
        """The next set-up decision of a starting zone: characters of the scenario's choices
        (each by his own seat), then gear or markers (by the lowest seat of the side that lays
        them); none left: the set-up is over."""
        for choice in sc.choose:
            for n in choice.characters:
                if state.chars[n]["zone"] is None:
                    state.prompt = {"kind": "place", "char": n, "seat": state.chars[n]["seat"]}
                    return
        for oid in sorted((o for o, obj in state.objects.items() if obj.get("placing")),
                          key=lambda o: int(o[1:])):
            if not state.objects[oid].get("placing"):   # laid with its group just now
                continue
            side = self._layer(state, sc, oid)
            seats = [state.chars[n]["seat"] for n in state.order
                     if state.chars[n]["side"] == side and not state.chars[n]["captured"]]
            if seats:
                state.prompt = {"kind": "place", "object": oid, "seat": min(seats)}
                return
            self._lay(state, oid, self._object_zones(state, sc, oid)[0], [])
        state.prompt = None

    def _layer(self, state: JoeState, sc: ScenarioSpec, oid: str) -> str:
        group = state.objects[oid]["placing"]
        if group.startswith("gear:"):
            return sc.ground_choice[group[5:]].by
        assert sc.face_down is not None
        return sc.face_down.known_to

    def _object_zones(self, state: JoeState, sc: ScenarioSpec, oid: str) -> list[str]:
        group = state.objects[oid]["placing"]
        if group.startswith("gear:"):
            return list(sc.ground_choice[group[5:]].zones)
        assert sc.face_down is not None
        return list(sc.face_down.zones)

    def _place_options(self, state: JoeState) -> list[tuple[str, str]]:
        p = state.prompt
        assert p is not None
        sc = self.content.scenario(state.scenario)
        if "object" in p:
            what = "the face-down marker" if state.objects[p["object"]]["face_down"] \
                else f"the {state.objects[p['object']]['kind']}"
            return [(f"zone:{z}", f"Lay {what} {p['object']} in {z}")
                    for z in self._object_zones(state, sc, p["object"])]
        name = p["char"]
        choice = next(ch for ch in sc.choose if name in ch.characters)
        zones = list(choice.zones)
        if choice.out_of_sight:   # 9.7: out of every opponent's sight (else the least seen)
            seen = {z: self._seen_in(state, name, z) for z in zones}
            zones = [z for z in zones if seen[z] == min(seen.values())]
        return [(f"zone:{z}", f"{name} starts in {z}") for z in zones]

    def _seen_in(self, state: JoeState, name: str, zone: str) -> int:
        """How many opponents on the board would see `name` standing in `zone`."""
        c = state.chars[name]
        c["zone"] = zone
        try:
            return sum(1 for e in state.order if state.enemies(name, e)
                       and state.chars[e]["zone"] is not None and state.standing(e)
                       and A.sees(state, e, name).visible)
        finally:
            c["zone"] = None

    def _place(self, state: JoeState, aid: str, ev: list[Event]) -> None:
        p = state.prompt
        assert p is not None
        zone = aid.split(":", 1)[1]
        if "object" in p:
            self._lay(state, p["object"], zone, ev)
        else:
            state.chars[p["char"]]["zone"] = zone
            ev.append(Event("placed", {"character": p["char"], "zone": zone}))
        self._place_next(state, self.content.scenario(state.scenario))

    def _lay(self, state: JoeState, oid: str, zone: str, ev: list[Event]) -> None:
        """Lay an object and the rest of its group (9.6: Jake's knives lie together)."""
        group = state.objects[oid]["placing"]
        for o, obj in sorted(state.objects.items()):
            if obj.get("placing") == group:
                obj["zone"] = zone
                del obj["placing"]
                ev.append(Event("placed", {"object": o, "zone": zone}))

    def _bought(self, state: JoeState, name: str) -> tuple[int, int]:
        """Guns and other objects a character has been bought: held, or laid where the
        scenario lays a captive's own gear."""
        mine = [o for o in state.objects.values()
                if o["holder"] == name or o.get("owner") == name]
        guns = sum(1 for o in mine if A.spec(o["kind"]).gun)
        return guns, len(mine) - guns

    def _buy(self, state: JoeState, aid: str, ev: list[Event]) -> None:
        p = state.prompt
        assert p is not None
        sc = self.content.scenario(state.scenario)
        if aid == "done":
            self._buying(state, sc, p["index"] + 1)
            return
        _, k, name = aid.split(":")
        price = self.content.objects.kind(k).price
        assert price is not None
        p["money"] -= price
        ground = sc.equipment_on_ground.get(name)
        chosen = sc.ground_choice.get(name)
        if chosen and k in chosen.kinds:   # laid where the captors choose (9.6), later
            zone = None
            oid = self._new_object(state, k, zone=None)
            state.objects[oid].update(owner=name, placing=f"gear:{name}")
        elif ground:
            zone = ground.get(k, next(iter(ground.values())))
            oid = self._new_object(state, k, zone=zone)
            state.objects[oid]["owner"] = name
        else:
            zone = None
            A._take(state, name, oid := self._new_object(state, k, zone=None))
        ev.append(Event("bought", {"character": name, "object": oid, "kind": k, "price": price,
                                   "money": p["money"], "zone": zone}))

    def _place_character(self, state: JoeState, sc: ScenarioSpec, name: str, side: str,
                         seat: int, equip: bool = True) -> None:
        card = self.content.character(name)
        chosen = any(name in ch.characters for ch in sc.choose)   # placed by a decision
        state.chars[name] = {
            "name": name, "side": side, "seat": seat,
            "zone": None if chosen else sc.positions[name], "wounds": 0,
            "dead": False, "captured": False, "left": False, "ambush": name in sc.ambush,
            "tied": name in sc.tied, "locked": name in sc.locked_up,
            "dormant": sc.dormant.get(name, ""), "guns": [], "objects": [], "joker": None,
            "jokers_played": [], "fired_outside": False, "luck": 0, "sharp": False,
            "speed": False, "ap_mod": 0, "skip": False, "turn_over": False,
        }
        ground = sc.equipment_on_ground.get(name, {})
        laid = sc.ground_choice.get(name)
        for k in (card.gun, *card.objects) if equip else ():
            if laid and k in laid.kinds:
                oid = self._new_object(state, k, zone=None)
                state.objects[oid]["placing"] = f"gear:{name}"
            elif k in ground:
                self._new_object(state, k, zone=ground[k])
            else:
                A._take(state, name, self._new_object(state, k, zone=None))

    def _new_object(self, state: JoeState, kind: str, zone: str | None, value: int = 0) -> str:
        oid = f"o{len(state.objects) + 1}"
        state.objects[oid] = {"id": oid, "kind": kind, "zone": zone, "holder": None,
                              "ammo": A.spec(kind).capacity, "jammed": False, "value": value,
                              "face_down": False, "gone": False}
        return oid

    # ----- who decides --------------------------------------------------------------------------
    def to_act(self, state: JoeState) -> tuple[Seat, ...]:
        if state.result is not None:
            return ()
        if state.prompt is not None:
            return (state.prompt["seat"],)
        if state.active is not None:
            return (state.chars[state.active]["seat"],)
        return ()

    def legal_actions(self, state: JoeState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Action(i, d) for i, d in self._choices(state)]

    def _choices(self, state: JoeState) -> list[tuple[str, str]]:
        p = state.prompt
        if p is None:
            assert state.active is not None
            return A.options(state, state.active, A.TURN, state.ap)
        name = p.get("char", "")
        kind = p["kind"]
        if kind in ("joker", "initiative"):
            # Asked whoever might hold it (R.could_hold); only the holder may play it. "pass"
            # reads the same either way: a bot's choice is printed for everyone to read.
            words = p.get("joker", "initiative").replace("_", " ")
            decline = ("pass", f"{' or '.join(p.get('among', [name]))} does not play {words} now")
            holder = _holder(state, p)
            if holder is None:
                return [decline]
            play = "play" if kind == "joker" else "initiative"
            return [(play, f"{holder} plays the {words} joker"), decline]
        if kind == "chip_ambush":
            return [("stay", f"{name} stays in ambush"), ("act", f"{name} takes the turn")]
        if kind == "clumsy":
            return [(f"drop:{o}", f"{name} drops the {A.kind(state, o)}")
                    for o in state.held(name)]
        if kind == "continue":
            return [("continue", "carry on after a surrender")]
        if kind == "buy":
            return self._buy_options(state)
        if kind == "place":
            return self._place_options(state)
        if kind == "hand":
            return self._hand_options(state)
        return [("pass", f"{name} lets it go"),
                *_window_options(state, name, p["actor"],
                                 lambda j: state.chars[name]["joker"] == j)]

    def default_action(self, state: JoeState, seat: Seat) -> str:
        p = state.prompt
        if p is None:
            return "end"
        return {"chip_ambush": "stay", "continue": "continue", "buy": "done"}.get(
            p["kind"], self._choices(state)[0][0] if p["kind"] in ("clumsy", "place", "hand")
            else "pass")

    # ----- applying -----------------------------------------------------------------------------
    def _apply(self, state: JoeState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        ev: list[Event] = [Event("action", {"seat": seat, "action": action_id})]
        if state.prompt is not None:
            self._answer(state, action_id, rng, ev)
        else:
            name = state.active
            assert name is not None
            state.ap -= A.cost(state, name, action_id)
            self._act(state, name, action_id, rng, ev)
            if state.active is not None and action_id.split(":")[0] not in ("drop", "joker"):
                state.queue.append({"t": "react", "actor": name})
        self._advance(state, rng, ev)
        return ev

    def _act(self, state: JoeState, name: str, aid: str, rng: Rng, ev: list[Event]) -> None:
        """Perform an action with its hits resolved before anything already queued."""
        rest, state.queue = state.queue, []
        A.perform(state, name, aid, rng, ev)
        state.queue += rest

    def _answer(self, state: JoeState, aid: str, rng: Rng, ev: list[Event]) -> None:
        p = state.prompt
        assert p is not None
        kind, name = p["kind"], p.get("char", "")
        if kind == "joker":
            R.answer(state, aid == "play", ev)
            return
        if kind == "buy":
            self._buy(state, aid, ev)
            return
        if kind == "place":
            self._place(state, aid, ev)
            return
        state.prompt = None
        if kind == "hand":
            self._hand(state, p, aid, ev)
        if kind == "clumsy":
            o = aid.split(":", 1)[1]
            A._release(state, name, o, state.chars[name]["zone"])
            ev.append(Event("dropped", {"character": name, "object": o}))
        elif kind == "chip_ambush":
            if aid == "act":
                self._start_turn(state, name, ev)
            else:
                ev.append(Event("stays_in_ambush", {"character": name}))
        elif kind == "initiative":
            holder = _holder(state, p)
            if aid == "initiative" and holder is not None:
                R.play_joker(state, holder, "initiative", ev)
                state.pool.remove(holder)
                state.asked = []
                self._start_turn(state, holder, ev)
        elif kind == "window" and aid != "pass":
            how, _, inner = aid.partition(":")
            if how == "amb":
                state.chars[name]["ambush"] = False
                ev.append(Event("ambush_sprung", {"character": name}))
            else:
                R.play_joker(state, name, "instinctive_shot" if how == "inst" else "adrenaline",
                             ev)
            self._act(state, name, inner, rng, ev)

    # ----- the flow of play ---------------------------------------------------------------------
    def _advance(self, state: JoeState, rng: Rng, ev: list[Event]) -> None:
        """Resolve queued tasks and draw chips until someone has a decision or the match ends."""
        while state.result is None and state.prompt is None:
            if self._check_end(state, ev):
                return
            if state.queue:
                self._step(state, rng, ev)
                continue
            self._wake(state, ev)
            a = state.active
            if a is not None and state.standing(a) and not state.chars[a]["turn_over"]:
                return
            if a is not None:
                state.active, state.ap = None, 0
                ev.append(Event("turn_ended", {"character": a}))
            self._next_chip(state, rng, ev)

    def _step(self, state: JoeState, rng: Rng, ev: list[Event]) -> None:
        task = state.queue[0]
        t = task["t"]
        if t == "react":
            state.queue.pop(0)
            self._wake(state, ev)
            actor = task["actor"]
            windows = [{"t": "window", "char": n, "actor": actor} for n in state.order
                       if n != actor and state.standing(n) and not state.chars[n]["dormant"]
                       and state.enemies(n, actor) and state.standing(actor)]
            state.queue[0:0] = windows
        elif t == "window":
            state.queue.pop(0)
            name, actor = task["char"], task["actor"]
            # Open to whoever might have an interrupt on public facts (an ambush is public, a
            # joker is only "might hold"), so the window shows nothing of the hidden card.
            if _window_options(state, name, actor, lambda j: R.could_hold(state, name, j)):
                state.prompt = {"kind": "window", "char": name, "actor": actor,
                                "seat": state.chars[name]["seat"]}
        elif t == "hit":
            if R.step_hit(state, task, rng, ev) and state.queue and state.queue[0] is task:
                state.queue.pop(0)
        elif t == "panic" and R.step_panic(state, task, rng, ev) and state.queue[0] is task:
            state.queue.pop(0)

    def _wake(self, state: JoeState, ev: list[Event]) -> None:
        """Scenario activation: a sleeper wakes at the first shot or explosion ('noise'), or when
        an opponent comes into sight or into the named building ('sight:<space>')."""
        geo = geometry()
        for n in state.order:
            c = state.chars[n]
            trig = c["dormant"]
            if not trig or not state.standing(n):
                continue
            if trig == "noise":
                woke = state.noise
            else:
                space = trig.split(":", 1)[1]
                foes = [e for e in state.order if state.enemies(n, e) and state.standing(e)]
                woke = any(geo.zones[state.chars[e]["zone"]].space == space
                           or A.sees(state, n, e).visible for e in foes)
            if woke:
                c["dormant"] = ""
                ev.append(Event("activated", {"character": n, "by": trig.split(":")[0]}))

    def _next_chip(self, state: JoeState, rng: Rng, ev: list[Event]) -> None:
        """4.1: draw a chip at random; sleepers pass, a character in ambush may stay there."""
        if not state.pool:
            self._new_round(state, ev)
            if state.result is not None:
                return
        # Initiative (joker list) before each draw: one decision per seat for all its characters
        # in the bag that might hold the joker (2.7: held or not, the same decision).
        waiting = [n for n in state.pool if n not in state.asked and state.standing(n)
                   and R.could_hold(state, n, "initiative") and not state.chars[n]["dormant"]]
        if waiting:
            seat = state.chars[waiting[0]]["seat"]
            among = [n for n in waiting if state.chars[n]["seat"] == seat]
            state.asked += among
            state.prompt = {"kind": "initiative", "char": among[0], "among": among, "seat": seat}
            return
        state.asked = []
        name = state.pool.pop(rng.below(len(state.pool), "chip"))
        c = state.chars[name]
        ev.append(Event("chip_drawn", {"character": name}))
        if not state.standing(name):
            return
        if c["dormant"]:
            ev.append(Event("passes", {"character": name, "why": "not yet activated"}))
        elif c["skip"]:
            c["skip"] = False
            ev.append(Event("passes", {"character": name, "why": "total panic"}))
        elif c["ambush"]:
            state.prompt = {"kind": "chip_ambush", "char": name, "seat": c["seat"]}
        else:
            self._start_turn(state, name, ev)

    def _new_round(self, state: JoeState, ev: list[Event]) -> None:
        sc = self.content.scenario(state.scenario)
        state.round += 1
        limit = state.options.get("round_limit") or sc.round_limit
        if state.round > limit:
            self._finish_by_time(state, ev)
            return
        first = state.round == 1 and sc.first_round_only
        state.pool = [n for n in state.order if state.standing(n)
                      and (not first or n in sc.first_round_only)]
        ev.append(Event("round_started", {"round": state.round, "chips": len(state.pool)}))

    def _start_turn(self, state: JoeState, name: str, ev: list[Event]) -> None:
        """4.2: four action points (optional rule 8.4: one fewer per wound), panic cards'
        changes applied; the last action phase's shooting outside is forgotten (6.2). Taking
        the action phase ends an ambush (4.1: it is that or staying in ambush), whether the
        chip was drawn or the Initiative joker played."""
        c = state.chars[name]
        ap = 4 + c["ap_mod"]
        if state.options.get("wounds_reduce_ap"):
            ap -= c["wounds"]
        state.active, state.ap = name, max(0, ap)
        c.update(ap_mod=0, fired_outside=False, speed=False, turn_over=False, ambush=False)
        ev.append(Event("turn_started", {"character": name, "seat": c["seat"], "ap": state.ap}))

    # ----- the end (chapter 9) ------------------------------------------------------------------
    def _check_end(self, state: JoeState, ev: list[Event]) -> bool:
        if state.options.get("reassign_characters"):
            self._reassign(state, ev)
        sc = self.content.scenario(state.scenario)
        gold_sides = [s for s in sc.sides if s.aim.kind == "gold"]
        if gold_sides:
            if any(state.standing(n) for s in gold_sides for n in s.characters):
                return False
            self._finish_gold(state, ev, "every robber has left the board or fallen")
            return True
        alive = [s for s in sc.sides if any(state.standing(n) for n in s.characters)]
        won = [s.id for s in alive if self._aim_met(state, sc, s.id)]
        if won:
            self._finish(state, won, "aim achieved: " + ", ".join(won), ev)
        elif len(alive) <= 1:
            self._finish(state, [s.id for s in alive], "the last side standing", ev)
        return state.result is not None

    def _aim_met(self, state: JoeState, sc: ScenarioSpec, side_id: str) -> bool:
        side = next(s for s in sc.sides if s.id == side_id)
        aim = side.aim
        if aim.free and (state.chars[aim.free]["dead"] or state.chars[aim.free]["tied"]
                         or state.chars[aim.free]["locked"]):
            return False
        names = [n for n in state.order if state.chars[n]["side"] != side_id] \
            if "opponents" in aim.targets else list(aim.targets)
        return all(not state.standing(n) for n in names)

    def _finish_gold(self, state: JoeState, ev: list[Event], why: str) -> None:
        """9.4, 9.8: the gold carried off decides; below the scenario's bar the guards win."""
        sc = self.content.scenario(state.scenario)
        gold = {s.id: state.gold_off.get(s.id, 0) for s in sc.sides if s.aim.kind == "gold"}
        best = max(gold.values())
        won = [s.id for s in sc.sides if s.aim.kind == "gold" and gold[s.id] == best
               and best >= s.aim.gold_to_win]
        if not won:
            won = [s.id for s in sc.sides if s.aim.kind != "gold"
                   and any(state.standing(n) for n in s.characters)]
        self._finish(state, won, f"{why}; gold carried off: {gold}", ev)

    def _finish_by_time(self, state: JoeState, ev: list[Event]) -> None:
        sc = self.content.scenario(state.scenario)
        if any(s.aim.kind == "gold" for s in sc.sides):
            self._finish_gold(state, ev, "the round limit is reached")
        else:
            self._finish(state, [], "the round limit is reached with no aim achieved", ev)

    def _finish(self, state: JoeState, sides: list[str], why: str, ev: list[Event]) -> None:
        state.result = {"sides": sorted(sides), "reason": why}
        state.prompt, state.active, state.queue = None, None, []
        ev.append(Event("match_over", copy_plain(state.result)))

    def _reassign(self, state: JoeState, ev: list[Event]) -> None:
        """Optional rule 8.1: a seat with no character left gets one from another seat that has
        two or more standing: a teammate's if one can, else any other side's (the seat then
        plays for that side: a change of allegiance). The giving seat chooses which (a `hand`
        decision; its active character is not offered)."""
        if state.prompt is not None:
            return
        for seat in range(state.seats):
            mine = [n for n in state.order if state.chars[n]["seat"] == seat]
            if not mine or any(state.standing(n) for n in mine):
                continue
            side = self.allegiance(state, seat)
            givers = []
            for other in range(state.seats):
                theirs = [n for n in state.order if state.chars[n]["seat"] == other
                          and state.standing(n)]
                if other != seat and len(theirs) >= 2 and \
                        [n for n in theirs if n != state.active]:
                    givers.append((self.allegiance(state, other) != side, -len(theirs), other))
            if givers:
                giver = min(givers)[2]
                state.prompt = {"kind": "hand", "seat": giver, "to": seat}
                return

    def _hand_options(self, state: JoeState) -> list[tuple[str, str]]:
        p = state.prompt
        assert p is not None
        return [(f"hand:{n}", f"Give {n} to seat {p['to']} (8.1)") for n in state.order
                if state.chars[n]["seat"] == p["seat"] and state.standing(n)
                and n != state.active]

    def _hand(self, state: JoeState, p: dict[str, Any], aid: str, ev: list[Event]) -> None:
        name, seat = aid.split(":", 1)[1], p["to"]
        state.chars[name]["seat"] = seat
        side = state.chars[name]["side"]
        state.allegiance[str(seat)] = side
        ev.append(Event("reassigned", {"character": name, "seat": seat, "side": side}))

    def seat_side(self, state: JoeState, seat: Seat) -> str:
        return self.allegiance(state, seat)

    def allegiance(self, state: JoeState, seat: int) -> str:
        """The side a seat plays for: the side it was dealt, or the side of the character 8.1
        last gave it."""
        if str(seat) in state.allegiance:
            return state.allegiance[str(seat)]
        plan = seat_plan(self.content.scenario(state.scenario), state.seats)
        return next(state.chars[n]["side"] for n, s in plan.items() if s == seat)

    def resign(self, state: JoeState, seat: Seat) -> list[Event]:
        """Voluntary surrender (chapter 9): the seat's characters are arrested."""
        if state.result is not None:
            raise IllegalAction("the match is over")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalAction(f"no seat {seat!r}")
        ev: list[Event] = []
        sc = self.content.scenario(state.scenario)
        for n in state.order:   # set-up: a surrendering seat's characters not yet placed
            if state.chars[n]["seat"] == seat and state.chars[n]["zone"] is None:
                state.chars[n]["zone"] = sc.positions[n]
        for n in state.order:
            c = state.chars[n]
            if c["seat"] == seat and not c["dead"] and not c["left"] and not c["captured"]:
                c.update(captured=True, ambush=False)
                A.drop_all(state, n)
                ev.append(Event("surrendered", {"character": n, "seat": seat}))
        state.pool = [n for n in state.pool if state.standing(n)]
        if state.prompt is not None and state.prompt["seat"] == seat:
            if state.prompt["kind"] == "place":   # the next decision of set-up, if any
                self._place_next(state, sc)
            elif state.prompt["kind"] == "buy":   # 8.5: the next side buys
                self._buying(state, sc, state.prompt["index"] + 1)
            else:
                state.prompt = None
        if state.active is not None and not state.standing(state.active):
            state.active, state.ap = None, 0
        if not self._check_end(state, ev) and not self.to_act(state):
            seat_left = min(state.chars[n]["seat"] for n in state.order if state.standing(n))
            state.prompt = {"kind": "continue", "seat": seat_left}
        return ev

    # ----- knowledge ----------------------------------------------------------------------------
    def view(self, state: JoeState, seat: Seat | None) -> dict[str, Json]:
        """Everything on the table; jokers only to their holder's seat, pile order never,
        face-down markers only to the side that laid them."""
        sc = self.content.scenario(state.scenario)
        knows_markers = sc.face_down is not None and seat is not None and any(
            c["seat"] == seat and c["side"] == sc.face_down.known_to for c in state.chars.values())
        p = state.prompt
        prompt = None
        if p is not None:
            prompt = {k: v for k, v in p.items()
                      if k in ("kind", "char", "seat", "actor", "side", "money", "object", "to")}
            if "object" in p:   # what is laid: a marker's face only to the side laying it
                prompt["item"] = self._object_view(state, p["object"], knows_markers)
            if p["kind"] not in PUBLIC_PROMPTS and p["seat"] != seat:
                prompt["kind"] = "reaction"
            elif p["kind"] == "joker":
                prompt["joker"] = p["joker"]
        return {
            "game": INFO.id, "scenario": state.scenario, "round": state.round,
            "round_limit": state.options.get("round_limit") or sc.round_limit,
            "active": state.active, "ap": state.ap, "to_act": list(self.to_act(state)),
            "prompt": prompt, "pool": sorted(state.pool), "noise": state.noise,
            "characters": [self._char_view(state, n, seat) for n in state.order],
            "ground": [self._object_view(state, o, knows_markers)
                       for o, obj in sorted(state.objects.items())
                       if obj["zone"] is not None and obj["holder"] is None],
            "locks": dict(state.locks),
            "piles": {k: len(v) for k, v in state.piles.items()},
            "discards": {k: list(v) for k, v in state.discards.items()},
            "gold_off": dict(state.gold_off),
            "options": dict(state.options),
            "result": copy_plain(state.result),
        }

    def _char_view(self, state: JoeState, n: str, seat: Seat | None) -> dict[str, Json]:
        c = state.chars[n]
        out = {k: copy_plain(v) for k, v in c.items() if k not in ("joker", "guns", "objects")}
        out["guns"] = [self._object_view(state, g, True) for g in c["guns"]]
        out["objects"] = [self._object_view(state, o, True) for o in c["objects"]]
        mine = seat is not None and c["seat"] == seat
        out["joker"] = c["joker"] if mine else ("hidden" if c["joker"] else None)
        return out

    def _object_view(self, state: JoeState, o: str, known: bool) -> dict[str, Json]:
        obj = state.objects[o]
        if obj["face_down"] and not known:
            return {"id": o, "kind": "face_down", "zone": obj["zone"], "face_down": True,
                    "ammo": 0, "jammed": False, "value": 0}
        return {k: obj[k] for k in ("id", "kind", "zone", "face_down", "ammo", "jammed", "value")}

    def determinize(self, state: JoeState, seat: Seat | None, rng: Rng) -> JoeState:
        out = state.clone()
        for name in sorted(out.piles):
            rng.shuffle(out.piles[name])
        # Every face-down joker but the seat's own is dealt again: a pending joker decision
        # says nothing of the card (it is offered to whoever might hold it).
        hidden = [n for n in out.order if out.chars[n]["joker"]
                  and (seat is None or out.chars[n]["seat"] != seat)]
        jokers = [out.chars[n]["joker"] for n in hidden] + out.jokers_left
        rng.shuffle(jokers)
        for n in hidden:
            out.chars[n]["joker"] = jokers.pop()
        out.jokers_left = sorted(jokers)
        sc = self.content.scenario(state.scenario)
        if sc.face_down is not None and not any(
                c["seat"] == seat and c["side"] == sc.face_down.known_to
                for c in out.chars.values()):
            down = sorted(o for o, obj in out.objects.items() if obj["face_down"])
            faces = [(out.objects[o]["kind"], out.objects[o]["value"]) for o in down]
            rng.shuffle(faces)
            for o, (k, v) in zip(down, faces, strict=True):
                out.objects[o].update(kind=k, value=v, ammo=A.spec(k).capacity)
        return out

    def outcome(self, state: JoeState) -> Outcome | None:
        if state.result is None:
            return None
        sides = set(state.result["sides"])
        # A seat wins with the side it plays for at the end (8.1 may have changed it).
        side_of = {s: self.allegiance(state, s) for s in range(state.seats)}
        winners = tuple(s for s in range(state.seats) if side_of[s] in sides)
        scores = {s: float(state.gold_off.get(side_of[s], 0)) for s in range(state.seats)}
        return Outcome(winners, state.result["reason"], draw=not winners, scores=scores)

    def state_from_dict(self, data: Mapping[str, Json]) -> JoeState:
        return JoeState.from_dict(data)


def _mutual(state: JoeState, a: str, b: str) -> bool:
    return A.sees(state, a, b).visible or A.sees(state, b, a).visible


def _holder(state: JoeState, p: Mapping[str, Any]) -> str | None:
    """Who, of the characters a joker decision asks, holds that joker (None: nobody does)."""
    joker = p.get("joker", "initiative")
    return next((n for n in p.get("among", [p["char"]]) if state.chars[n]["joker"] == joker),
                None)


_WINDOW_JOKERS = (("inst", "instinctive_shot", A.INSTINCT, "Instinctive shot"),
                  ("adr", "adrenaline", A.ADRENALINE, "Adrenaline"))


def _window_options(state: JoeState, name: str, actor: str,
                    holding: Callable[[str], bool]) -> list[tuple[str, str]]:
    """An interrupt after an opponent's action: one action of a character in ambush (5.7), an
    instinctive shot or an adrenaline move (jokers) for whom `holding(joker)` says so."""
    out: list[tuple[str, str]] = []
    c = state.chars[name]
    if not state.standing(actor) or not state.standing(name):
        return out
    if c["ambush"] and A.sees(state, name, actor).visible:
        out += [(f"amb:{i}", f"Ambush: {d}") for i, d in A.options(state, name, A.AMBUSH)]
    for prefix, joker, mode, title in _WINDOW_JOKERS:
        if holding(joker) and (joker != "adrenaline" or _mutual(state, name, actor)):
            out += [(f"{prefix}:{i}", f"{title}: {d}") for i, d in A.options(state, name, mode)]
    return out


def _options(options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise BadSetup(f"unknown options: {sorted(unknown)}")
    out: dict[str, Any] = {}
    for k in _FLAGS:
        v = options.get(k, False)
        if type(v) is not bool:
            raise BadSetup(f"option {k} is true or false")
        if v:
            out[k] = True
    limit = options.get("round_limit")
    if limit is not None:
        if type(limit) is not int or not 1 <= limit <= 100:
            raise BadSetup("round_limit is a whole number from 1 to 100")
        out["round_limit"] = limit
    budget = options.get("price_list_budget")
    if budget is not None:
        if type(budget) is not int or not 50 <= budget <= 100:
            raise BadSetup("price_list_budget (8.5) is a whole number of dollars from 50 to 100")
        out["price_list_budget"] = budget
    return out
