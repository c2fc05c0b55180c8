"""¿Pasarán? as an engine: the turn (3.0, 5, 6, 7), decisions, views and determinize, victory
(8.5). Movement is in `movement`, combat in `combat`, cards in `cards`, the map in `board`."""

from __future__ import annotations

from collections.abc import Mapping
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
from partida.games.pasaran import board as B
from partida.games.pasaran import cards as K
from partida.games.pasaran import chits as H
from partida.games.pasaran import combat as C
from partida.games.pasaran import fog as F
from partida.games.pasaran import movement as M
from partida.games.pasaran import optional as O
from partida.games.pasaran import production as P
from partida.games.pasaran.content import Content, load
from partida.games.pasaran.state import PasaranState

SIDE_OF_SEAT = ("rep", "nat")
MOVE_VERBS = ("rail", "coast", "rebase", "airlift", "move", "invade")
NAMES = {"rep": "Republicans", "nat": "Nationalists"}

INFO = GameInfo(
    id="pasaran", title="¿Pasarán? The Spanish Civil War",
    scenarios=(Scenario("campaign", "July 1936 to June 1939", 2, 2, ("republicans", "nationalists"),
                        "The whole war from Q3 1936 to Q2 1939 (rulebook 3.0); seat 0 plays the "
                        "Republicans, seat 1 the Nationalists; a player alone faces a bot."),),
    hidden_information=True, options={
        "reassembling_backs": "9.1: two identical units on their backs in one area become one "
                              "on its front in the reinforcement phase (true/false)",
        "alternating_initiative": "9.3: the winner of the initiative roll chooses which side "
                                  "acts first (true/false)",
        "trenches": "9.5: infantry dig trenches that absorb a hit (true/false)",
        "combat_chits": "9.4: chits drawn before each combat change its first round "
                        "(true/false)",
        "pinning": "10: units pin enemy reserves and aircraft so they cannot react "
                   "(true/false)",
        "fog_of_war": "9.2: only the top unit of an enemy stack is seen; stacks of 10 at most "
                      "(true/false)",
    }, rules_revision=2)    # the editions are listed at the end of RULES.md


def seat_of(side: str) -> Seat:
    return SIDE_OF_SEAT.index(side)


class Pasaran(Game[PasaranState]):
    info = INFO

    def __init__(self, content: Content | None = None) -> None:
        self.content = content or load()

    # ----- set-up (4.1) ----------------------------------------------------------------------
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> PasaranState:
        if scenario != "campaign":
            raise BadSetup(f"unknown pasaran scenario {scenario!r}")
        if type(seats) is not int or seats != 2:
            raise BadSetup("¿Pasarán? takes two seats (a player alone faces a bot)")
        unknown = set(options) - set(INFO.options)
        if unknown:
            raise BadSetup(f"unknown options: {sorted(unknown)}")
        if any(type(v) is not bool for v in options.values()):
            raise BadSetup("pasaran options are true or false")
        c = self.content
        units = {}
        for order, u in enumerate(c.counters.units):
            status = ("map" if u.start else "queue" if u.arrive else
                      "locked" if u.star else "pool")
            at = None if u.start is None else (B.city_of(u.start) if u.in_city else u.start)
            units[u.id] = {"side": u.side, "kind": u.kind, "at": at, "face": "front",
                           "status": status, "arrive": u.arrive, "moved": False,
                           "reacted": False, "rebased": False, "order": order}
        in_hand = {s: list(c.cards.start_in_hand.get(s, ())) for s in B.SIDES}
        deck = [k.id for k in c.cards.cards if k.id not in K.LEFT_OUT
                and not any(k.id in h for h in in_hand.values())]
        rng.shuffle(deck)                     # once, at set-up: the order stays secret (4.1)
        state = PasaranState(
            seats=seats, options={k: v for k, v in options.items() if v}, units=units,
            control={a.id: a.control for a in c.map.areas if a.control is not None},
            city_control={a.id: a.city_control for a in c.map.areas
                          if a.city_control is not None},
            deck=deck, hands={s: [{"card": k, "turn": 0} for k in in_hand[s]] for s in B.SIDES})
        if state.options.get("combat_chits"):
            state.chits = H.new_cups(c)
        self._advance(state, rng, [])
        return state

    def seat_side(self, state: PasaranState, seat: Seat) -> str:
        return INFO.scenarios[0].sides[seat]  # seat 0 the Republic, seat 1 the Nationalists

    def state_from_dict(self, data: Mapping[str, Json]) -> PasaranState:
        return PasaranState.from_dict(data)

    # ----- whose decision -----------------------------------------------------------------
    def _decider(self, state: PasaranState) -> str | None:
        if state.result is not None:
            return None
        if state.phase == "reinforce":
            pending = self._arrivals(state)
            if pending:
                return state.units[pending[0]]["side"]
            return O.reassembler(self.content, state)
        if state.phase == "initiative":
            return state.initiative
        if state.phase == "cards":
            return state.offer["side"] if state.offer else None
        if state.phase == "production":
            return self._order(state)[len(state.done)]
        if state.combat is not None:
            side = C.auto_losses_side(self.content, state)
            if side is not None:
                return side
            cb = state.combat
            if cb.get("splitting"):
                return cb["splitting"]
            if cb["stage"] == "declare":
                return cb["declare_ask"][0]
            return cb["chit_ask"][0] if cb["stage"] == "chits" else cb["ask"][0]
        return B.ENEMY[state.active] if state.step == "react" else state.active

    def to_act(self, state: PasaranState) -> tuple[Seat, ...]:
        side = self._decider(state)
        return () if side is None else (seat_of(side),)

    def legal_actions(self, state: PasaranState, seat: Seat) -> list[Action]:
        side = self._decider(state)
        if side is None or seat != seat_of(side):
            return []
        with B.snapshot(state):
            return [Action(i, d) for i, d in self._choices(state, side)]

    def default_action(self, state: PasaranState, seat: Seat) -> str:
        with B.snapshot(state):
            choices = self._choices(state, SIDE_OF_SEAT[seat])
        ids = [i for i, _ in choices]
        for quiet in ("end", "stay", "decline"):
            if quiet in ids:
                return quiet
        return ids[0]

    def validate(self, state: PasaranState, seat: Seat, action_id: str) -> None:
        """As the engine's, but a move is checked against its own unit's moves only (listing
        every unit's destinations is the slow part of the game)."""
        verb, _, rest = action_id.partition(":") if isinstance(action_id, str) else ("", "", "")
        uid = rest.split(":", 1)[0]
        if verb not in MOVE_VERBS or uid not in state.units or type(seat) is not int:
            return super().validate(state, seat, action_id)
        side = self._decider(state)
        if state.result is not None or side is None or seat != seat_of(side):
            raise IllegalAction(f"seat {seat} has no decision to take now")
        with B.snapshot(state):
            if action_id not in {i for i, _ in self._choices(state, side, only=uid)}:
                raise IllegalAction(f"{action_id!r} is not a legal action for seat {seat} now")
        return None

    def _choices(self, state: PasaranState, side: str, only: str | None = None
                 ) -> list[tuple[str, str]]:
        c = self.content
        if state.phase == "reinforce":
            pending = self._arrivals(state)
            if not pending:
                return [*((f"reassemble:{a}:{b}", f"Join {a} and {b} into one full unit")
                          for a, b in O.pairs(self.content, state, side)),
                        ("end", "Done reassembling")]
            return [(f"place:{pending[0]}:{p}", f"Place {pending[0]} in {p}")
                    for p in B.reinforcement_places(c, state, side)]
        if state.phase == "initiative":
            return [(f"first:{s}", f"{NAMES[s]} act first") for s in (side, B.ENEMY[side])]
        if state.phase == "cards":
            return K.offer_actions(c, state)
        if state.phase == "production":
            return P.choices(self.content, state, side)
        if state.combat is not None:
            return self._combat_choices(state, side)
        out: list[tuple[str, str]] = []
        if state.step == "rail":
            out += self._moves(state, side, "rail", M.rail_moves, state.rail_left > 0, only)
            out += self._moves(state, side, "coast", M.coast_moves, state.coast_left > 0, only)
            out += self._moves(state, side, "rebase", M.rebase_moves, True, only)
            out += self._moves(state, side, "airlift", M.airlift_moves, state.airlift_left > 0,
                               only)
            out += K.plays(c, state, side)
        elif state.step in ("move", "exploit"):
            mover = M.exploit_moves if state.exploiting else self._normal_move
            out += self._moves(state, side, "move", mover, True, only, unmoved=True)
            out += self._moves(state, side, "invade", M.invasion_moves,
                               state.sea_left > 0 and not state.exploiting, only, unmoved=True)
            if state.options.get("trenches") and not state.exploiting:
                out += O.trench_choices(self.content, state, side)
            if state.options.get("pinning"):
                for uid in state.on_map(side) if only is None else []:
                    out += [(f"pin:{uid}:{e}", f"{uid} pins {e}")
                            for e in M.pins(self.content, state, uid)]
        elif state.step == "react":
            out += [(f"react:{u}:{p}", f"{u} reacts into {p} ({how})")
                    for (u, p), how in sorted(M.reactions(c, state, side).items())]
            out += K.plays(c, state, side, "react")
        elif state.step == "combat":
            out += [(f"fight:{p}", f"Resolve the combat in {p}") for p in state.attacks]
            out += [(f"siege:{a}", f"Besiege the city in {a}")
                    for a in C.siege_targets(c, state, side)]
            if state.attacks:
                return out
        return [*out, ("end", "End this step")]

    def _normal_move(self, content: Content, state: PasaranState, uid: str) -> M.Moves:
        if state.units[uid]["kind"] == "air":
            return M.air_moves(content, state, uid)
        return M.land_moves(content, state, uid)

    def _moves(self, state: PasaranState, side: str, verb: str, finder, allowed: bool,
               only: str | None, unmoved: bool = False) -> list[tuple[str, str]]:
        if not allowed:
            return []
        out = []
        for uid in sorted(state.on_map(side)) if only is None else [only]:
            if state.units[uid]["status"] != "map" or state.units[uid]["side"] != side:
                continue
            if unmoved and state.units[uid]["moved"]:
                continue
            for dest in finder(self.content, state, uid):
                if B.room(self.content, state, dest, side):        # 9.2: stacks of 10 at most
                    out.append((f"{verb}:{uid}:{dest}", f"{verb} {uid} to {dest}"))
        return out

    def _combat_choices(self, state: PasaranState, side: str) -> list[tuple[str, str]]:
        c = self.content
        cb = state.combat
        assert cb is not None
        if C.auto_losses_side(c, state) == side:
            pool = C.pending_pool(state, side)
            return [(f"loss:{u}", f"{u} takes a hit")
                    for u in C.candidates(c, state, side, pool)]
        if cb["stage"] == "declare":
            extra_air, extra_land = C.surplus(state, cb["place"], side)
            return [(f"declare:{a}:{n}", f"{a} surplus aircraft over the land, {n} land units "
                     "on anti-aircraft")
                    for a in range(extra_air, -1, -1) for n in range(extra_land, -1, -1)]
        if cb["stage"] == "chits":
            return [*((f"chit:{x}", f"Play the chit {x}") for x in state.chits[side]["hand"]),
                    *K.plays(c, state, side, "chits"), ("end", "No more chits")]
        if cb.get("splitting") == side:
            dests = C.retreat_places(c, state, side, 1)
            return [(f"send:{u}:{p}", f"{u} retreats to {p}")
                    for u in B.land_at(state, cb["place"], side) for p in dests]
        out = [(f"retreat:{p}", f"Retreat to {p}") for p in C.retreat_places(c, state, side)]
        if (len(B.land_at(state, cb["place"], side)) > 1
                and len(C.retreat_places(c, state, side, 1)) > 1):
            out.append(("split", "Retreat, each land unit to a place of its own"))
        if cb["must"] is None:
            if C._has_air_and_land(state, cb["place"], side):
                out.append(("air_retreat", "Only the aircraft leave the combat"))
            out.append(("stay", "Fight another round"))
        return out

    # ----- applying -------------------------------------------------------------------------
    def _apply(self, state: PasaranState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        side = SIDE_OF_SEAT[seat]
        events: list[Event] = []
        verb, _, rest = action_id.partition(":")
        c = self.content
        if verb == "place":
            uid, place = rest.split(":", 1)
            state.units[uid].update(status="map", arrive=None)
            B.move_to(state, uid, place)
            events.append(Event("placed", {"unit": uid, "at": place}))
        elif verb in MOVE_VERBS:
            self._apply_move(state, verb, rest, events)
        elif verb == "react":
            uid, place = rest.split(":", 1)
            how = M.reactions(c, state, side)[(uid, place)]
            if how.startswith("reserve:"):
                hq = how.split(":", 1)[1]
                if hq != uid:
                    state.command_used[hq] = state.command_used.get(hq, 0) + 1
                    state.units[uid]["from"] = state.units[uid]["at"]   # its HQ may follow
            state.units[uid]["reacted"] = True
            B.move_to(state, uid, place)
            events.append(Event("reacted", {"unit": uid, "to": place, "how": how}))
        elif verb == "play":
            K.play(c, state, side, action_id, events, rng)
        elif verb == "declare":
            assert state.combat is not None
            state.combat["declared"][side] = [int(x) for x in rest.split(":")]
            state.combat["declare_ask"].remove(side)
            events.append(Event("declared", {"side": side, "declaration": rest}))
        elif verb == "chit":
            H.play(state, side, rest, events)
        elif verb == "fight":
            C.start(state, rest, events)
        elif verb == "siege":
            C.siege(c, state, rest, rng, events)
        elif verb == "loss":
            assert state.combat is not None
            state.combat["hits"][side][C.pending_pool(state, side)] -= 1
            C.take_hit(c, state, rest, events)
        elif verb in ("retreat", "air_retreat", "stay", "split", "send"):
            self._apply_retreat(state, side, verb, rest, events)
        elif verb in ("keep", "decline"):
            K.keep(c, state, rest or None, events)
            self._next_offer(state, events)
        elif verb == "reassemble":
            keep, spare = rest.split(":")
            state.units[keep]["face"] = "front"
            state.units[spare].update(status="pool", at=None, face="front")
            events.append(Event("reassembled", {"unit": keep, "spare": spare}))
        elif verb == "dig":
            r = state.units[rest]
            state.trenches.append({"side": side, "place": r["at"], "turn": state.turn,
                                   "done": False})
            r.update(moved=True, digging=True)
            events.append(Event("digging", {"unit": rest, "place": r["at"]}))
        elif verb == "pin":
            uid, enemy = rest.split(":")
            state.units[uid]["moved"] = True
            state.units[enemy]["pinned"] = True
            events.append(Event("pinned", {"unit": uid, "target": enemy}))
        elif verb == "fill":
            state.trenches.remove(next(t for t in state.trenches
                                       if t["place"] == rest and t["side"] == side))
            events.append(Event("trench_removed", {"place": rest, "side": side}))
        elif verb == "first":
            state.initiative, state.phase, state.segment = rest, "segment", 0
            events.append(Event("first", {"side": rest}))
            self._start_segment(state, rest)
        elif verb in ("build", "repair", "rebuild"):
            P.produce(self.content, state, side, verb, rest, events)
        elif verb == "end":
            self._end_step(state, side, events)
        else:  # pragma: no cover - validate has refused it
            raise IllegalAction(f"unknown action {action_id!r}")
        self._advance(state, rng, events)
        if F.on(state):
            return [F.event(state, e) for e in events]
        return events

    def _apply_move(self, state: PasaranState, verb: str, rest: str, events: list[Event]) -> None:
        c = self.content
        uid, dest = rest.split(":", 1)
        finder = {"rail": M.rail_moves, "coast": M.coast_moves, "rebase": M.rebase_moves,
                  "airlift": M.airlift_moves, "invade": M.invasion_moves}.get(verb)
        if finder is None:
            finder = M.exploit_moves if state.exploiting else self._normal_move
        with B.snapshot(state):  # the search moves nothing
            path = finder(c, state, uid)[dest]
        if verb == "move" and state.exploiting and state.units[uid]["kind"] == "inf":
            hq = M.leader(c, state, uid)
            assert hq is not None
            state.command_used[hq] = state.command_used.get(hq, 0) + 1
        M.carry_out(c, state, uid, path, events, verb)
        r = state.units[uid]
        if verb == "invade":
            r.update(moved=True, invading=True)
            state.sea_left -= 1
        elif verb == "move":
            r["moved"] = True
        elif verb == "rebase":
            r["rebased"] = True
        else:
            key = {"rail": "rail_left", "coast": "coast_left", "airlift": "airlift_left"}[verb]
            setattr(state, key, getattr(state, key) - 1)

    def _apply_retreat(self, state: PasaranState, side: str, verb: str, rest: str,
                       events: list[Event]) -> None:
        cb = state.combat
        assert cb is not None
        if verb == "stay":
            cb["ask"].remove(side)
            events.append(Event("fights_on", {"side": side}))
        elif verb == "split":
            cb["splitting"] = side
        elif verb == "send":
            uid, dest = rest.split(":", 1)
            if C.send_back(self.content, state, side, uid, dest, events):
                cb.update(ask=[], must=None, stage="after", splitting=None)
        elif verb == "air_retreat":
            C.retreat(self.content, state, side, None, events, aircraft_only=True)
            cb["ask"].remove(side)
        else:
            C.retreat(self.content, state, side, rest, events)
            cb.update(ask=[], must=None, stage="after")

    def _end_step(self, state: PasaranState, side: str, events: list[Event]) -> None:
        if state.combat is not None:                 # 9.4: done playing chits
            state.combat["chit_ask"].remove(side)
            return
        if state.phase in ("production", "reinforce"):
            state.done.append(side)
            return
        nxt = {"rail": "move", "move": "react", "exploit": "react", "react": "combat"}
        if state.step == "combat":
            self._after_combat_step(state, events)
        else:
            state.step = nxt[state.step]
            if state.step == "react":
                for r in state.units.values():
                    r["reacted"] = False
                state.command_used = {}

    def _after_combat_step(self, state: PasaranState, events: list[Event]) -> None:
        if not state.exploiting and state.weather == "good":       # 6.5, 5.3
            state.exploiting, state.step, state.command_used = True, "exploit", {}
            for r in state.units.values():
                r["moved"] = False
            events.append(Event("exploitation", {"side": state.active}))
            return
        self._end_segment(state, events)

    # ----- the automatic parts of the turn ---------------------------------------------------
    def _advance(self, state: PasaranState, rng: Rng, events: list[Event]) -> None:
        """Carry the match forward to the next decision (or its end)."""
        c = self.content
        while state.result is None:
            if state.phase == "reinforce":
                pending = self._arrivals(state)
                side = state.units[pending[0]]["side"] if pending else "rep"
                if pending and not B.reinforcement_places(c, state, side):
                    state.units[pending[0]]["arrive"] = state.turn + 1   # nowhere to go: waits
                    events.append(Event("delayed", {"unit": pending[0]}))
                    continue
                if pending or O.reassembler(self.content, state):
                    return
                self._initiative_and_weather(state, rng, events)
                continue
            if state.phase == "initiative":
                return
            if state.phase == "segment":
                if state.combat is not None:
                    if C.advance(c, state, rng, events):
                        return
                    continue
                inactive = B.ENEMY[state.active]
                if state.step == "react" and not M.reactions(c, state, inactive) and not (
                        K.cancel_window(c, state, inactive)):
                    state.step = "combat"
                    continue
                if state.step == "combat" and not state.attacks and not C.siege_targets(
                        c, state, state.active):
                    self._after_combat_step(state, events)
                    continue
                return
            if state.phase == "cards":
                if state.offer is None:
                    self._next_offer(state, events)
                    if state.offer is None:
                        continue
                return
            if state.phase == "production":
                if len(state.done) < 2:
                    return
                self._next_turn(state, events)
                continue
            return

    def _arrivals(self, state: PasaranState) -> list[str]:
        """Units due this turn, Republicans first, in id order (5.1)."""
        due = [u for u, r in state.units.items()
               if r["status"] == "queue" and r["arrive"] is not None and r["arrive"] <= state.turn]
        return sorted(due, key=lambda u: (state.units[u]["side"] != "rep", u))

    def _initiative_and_weather(self, state: PasaranState, rng: Rng, events: list[Event]) -> None:
        """5.2: the higher die wins, a tie goes to the side without it last turn (the
        Nationalists on the first turn, see RULES.md); 5.3: the quarter's weather."""
        rolls = {s: rng.d6() for s in B.SIDES}
        if rolls["rep"] != rolls["nat"]:
            winner = max(B.SIDES, key=lambda s: rolls[s])
        elif state.last_initiative is None:
            winner = "nat"
        else:
            winner = B.ENEMY[state.last_initiative]
        quarter = (state.turn + 1) % 4 + 1
        roll = rng.d6()
        bad = roll <= self.content.tables.weather_bad_up_to[str(quarter)]
        state.initiative, state.weather = winner, "bad" if bad else "good"
        events.append(Event("initiative", {"rolls": rolls, "side": winner}))
        events.append(Event("weather", {"roll": roll, "quarter": quarter,
                                        "weather": state.weather}))
        if state.options.get("alternating_initiative"):
            state.phase = "initiative"          # 9.3: the winner says who acts first
            return
        state.phase, state.segment = "segment", 0
        self._start_segment(state, winner)

    def _start_segment(self, state: PasaranState, side: str) -> None:
        state.active, state.step, state.exploiting = side, "rail", False
        state.rail_left = self.content.counters.rail_moves[side]
        state.coast_left = self.content.counters.coastal_moves[side]
        state.airlift_left, state.attacks, state.sieged, state.command_used = 0, [], [], {}
        state.sea_left = 0
        for r in state.units.values():
            r["moved"] = r["reacted"] = False
            r.pop("from", None)
            r.pop("invading", None)
            r.pop("pinned", None)
        for t in state.trenches:             # 9.5: finished at the next friendly movement
            if t["side"] == side and t["turn"] < state.turn:
                t["done"] = True

    def _end_segment(self, state: PasaranState, events: list[Event]) -> None:
        for uid in state.on_map():
            r = state.units[uid]
            if r["kind"] == "air" and (B.is_city(r["at"]) or not B.friendly_area(
                    self.content, state, r["at"], r["side"])):
                C.send_home(self.content, state, uid, events)
        if state.segment == 0:
            state.segment = 1
            self._start_segment(state, B.ENEMY[state.active])
            return
        self._end_of_turn(state, events)

    def _order(self, state: PasaranState) -> list[str]:
        assert state.initiative is not None
        return [state.initiative, B.ENEMY[state.initiative]]

    def _end_of_turn(self, state: PasaranState, events: list[Event]) -> None:
        """7.1 income, 8.5 victory, then 7.2 cards and 7.3 production."""
        c = self.content
        state.active, state.step = "", ""
        K.lift_revolts(c, state, events)
        for s in B.SIDES:
            gain = B.income(c, state, s)
            state.bp[s] += gain
            events.append(Event("income", {"side": s, "bp": gain, "stored": state.bp[s]}))
        winner = self._victory(state)
        if winner is not None:
            side, why = winner
            state.result = {"winner": side, "reason": why}
            state.phase = "over"
            events.append(Event("victory", dict(state.result)))
            return
        state.phase, state.bought, state.offer = "cards", [], None

    def _victory(self, state: PasaranState) -> tuple[str, str] | None:
        """8.5, in this order: total victory (20 BP; the Nationalists first), the 1936 and 1937
        schedule victories, the Republicans at the end of Q2 1939."""
        c = self.content
        for s in ("nat", "rep"):
            if B.area_bp(c, state, s) >= c.tables.victory_bp:
                return s, f"{NAMES[s]} control {c.tables.victory_bp} BP or more"

        def holds(area: str) -> bool:
            return state.control.get(area) == "nat" and state.city_control.get(area) == "nat"

        if state.turn == 2 and holds("madrid"):
            return "nat", "Nationalists hold Madrid at the end of 1936"
        if state.turn == 6 and (holds("madrid") or (holds("valencia") and holds("barcelona"))):
            return "nat", "Nationalists hold Madrid, or Valencia and Barcelona, at the end of 1937"
        if state.turn >= len(c.tables.quarters):
            return "rep", "the Republic still stands at the end of Q2 1939"
        return None

    def _next_offer(self, state: PasaranState, events: list[Event]) -> None:
        """7.2: each side in initiative order draws once a turn."""
        for s in self._order(state):
            if s not in state.bought:
                state.bought.append(s)
                K.draw_offer(self.content, state, s, events)
                if state.offer is not None:
                    return
        state.phase, state.done = "production", []

    def _next_turn(self, state: PasaranState, events: list[Event]) -> None:
        state.turn += 1
        state.last_initiative, state.initiative = state.initiative, None
        state.phase, state.flags, state.done = "reinforce", [], []
        for r in state.units.values():
            r["rebased"] = False
            r.pop("digging", None)
        events.append(Event("turn", {"turn": state.turn,
                                     "quarter": self.content.tables.quarters[state.turn - 1]}))

    # ----- outcome, resignation ---------------------------------------------------------------
    def outcome(self, state: PasaranState) -> Outcome | None:
        if state.result is None:
            return None
        win = seat_of(state.result["winner"])
        return Outcome((win,), state.result["reason"], scores={win: 1.0, 1 - win: 0.0})

    def resign(self, state: PasaranState, seat: Seat) -> list[Event]:
        """8.5: a side that gives up loses; there is no draw."""
        if state.result is not None:
            raise IllegalAction("the match is over")
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalAction(f"no seat {seat}")
        loser = SIDE_OF_SEAT[seat]
        state.result = {"winner": B.ENEMY[loser], "reason": f"{NAMES[loser]} surrendered"}
        state.phase, state.combat, state.offer = "over", None, None
        return [Event("victory", dict(state.result))]

    # ----- hidden information ------------------------------------------------------------
    def view(self, state: PasaranState, seat: Seat | None) -> dict[str, Json]:
        """Everything on the table; a seat's own hand and drawn cards; of the other side's only
        how many; of the deck only its size."""
        mine = None if seat is None else SIDE_OF_SEAT[seat]
        data = state.to_dict()
        data["deck"] = len(state.deck)
        data["hands"] = {s: (copy_plain(h) if s == mine else len(h))
                         for s, h in state.hands.items()}
        if state.offer is not None and state.offer["side"] != mine:
            data["offer"] = {"side": state.offer["side"], "cards": len(state.offer["cards"])}
        data["income"] = {s: B.income(self.content, state, s) for s in B.SIDES}
        if F.on(state):
            data["command_used"] = F.command_seen(state, mine, state.command_used)
            data["stacks"] = F.redact(state, mine, data["units"])
        data["chits"] = {s: (copy_plain(cups) if s == mine else
                             {"cup": len(cups["cup"]), "hand": len(cups["hand"]),
                              "played": list(cups["played"])})
                         for s, cups in state.chits.items()}
        data["quarter"] = self.content.tables.quarters[state.turn - 1]
        data["to_act"] = list(self.to_act(state))
        return data

    def determinize(self, state: PasaranState, seat: Seat | None, rng: Rng) -> PasaranState:
        """Resample what the seat cannot see: the deck order, the other side's hand and drawn
        cards, each hidden card replaced by one its holder could hold."""
        out = state.clone()
        mine = None if seat is None else SIDE_OF_SEAT[seat]
        hidden: list[tuple[str, list[Any], int, str | None]] = []   # (side, list, index, key)
        for s in B.SIDES:
            if s == mine:
                continue
            hidden += [(s, out.hands[s], i, "card") for i in range(len(out.hands[s]))]
            if out.offer is not None and out.offer["side"] == s:
                hidden += [(s, out.offer["cards"], i, None) for i in range(len(out.offer["cards"]))]
        pool = list(out.deck) + [lst[i][key] if key else lst[i] for _, lst, i, key in hidden]
        rng.shuffle(pool)
        for s, lst, i, key in hidden:
            current = lst[i][key] if key else lst[i]
            pick = next((k for k in pool if s in K.held_side(self.content, k)), current)
            pool.remove(pick)
            if key:
                lst[i][key] = pick
            else:
                lst[i] = pick
        out.deck = pool
        if F.on(out):
            F.reshuffle(out, mine, rng)
        for s, cups in out.chits.items():
            if s != mine:                       # 9.4: the other side's cup and drawn chits
                mixed = cups["cup"] + cups["hand"]
                rng.shuffle(mixed)
                cups["hand"], cups["cup"] = mixed[:len(cups["hand"])], mixed[len(cups["hand"]):]
        return out
