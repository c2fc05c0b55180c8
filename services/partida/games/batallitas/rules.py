"""Fanhunter Batallitas as an engine: set-up choices, the turn, nose actions, shooting, alert
shots as interrupts, views and determinization. Rules are cited by heading; RULES.md maps them.
"""

from __future__ import annotations

from collections import Counter
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
from partida.games.batallitas import actions as A
from partida.games.batallitas import (
    area,
    cards,
    dice,
    doors,
    hate,
    hidden,
    leaving,
    placement,
    roles,
    shopping,
    slider,
    videogame,
)
from partida.games.batallitas import card_effects as E
from partida.games.batallitas import combat as C
from partida.games.batallitas import setup as S
from partida.games.batallitas import shooting as F
from partida.games.batallitas import turn as T
from partida.games.batallitas.content import Content, load
from partida.games.batallitas.dice import Roll
from partida.games.batallitas.geometry import FACINGS, quarter_turns, turned
from partida.games.batallitas.movement import step_cost, turn_cost
from partida.games.batallitas.state import (
    ATTRIBUTES,
    CHOOSE,
    IN_PLAY,
    NOSE,
    OVER,
    RESERVE,
    SETUP,
    SQUAD,
    TURN_START,
    BatallitasState,
    Nose,
)
from partida.games.batallitas.world import field_of, state_map

# Scenarios playable so far (RULES.md, "Where the code stands"); the others join as their
# special rules are written.
INFO = GameInfo(
    id="batallitas",
    title="Fanhunter Batallitas",
    scenarios=(
        Scenario("last_game", "The Last Game", 2, 2, S.SIDES,
                 "Scenario 1: two Tintín Macute squads raid the Fans' club on board 1."),
        Scenario("shopping", "Shopping", 2, 2, S.SIDES,
                 "Scenario 2: Fans shop for snacks and beer on board 2 under a Fanhunter "
                 "squad's guns, and must get them off the board."),
        Scenario("drums", "Drums in the Dark", 2, 2, S.SIDES,
                 "Scenario 3: a lost Fanhunter squad must get two of its noses across board 3 "
                 "past a Lethal Fans squad."),
        Scenario("long_live_rock", "Long Live Rock", 2, 2, S.SIDES,
                 "Scenario 4: the Fans must get the rock band out through a secret passage on "
                 "board 5 before two Macute squads reach it."),
        Scenario("war_games", "War Games", 2, 2, S.SIDES,
                 "Scenario 5: Lethal Fans carry a stolen videogame across boards 6 to 8 to the "
                 "slider in the garage, with Macutes and later Fanhunters after them."),
        Scenario("streets_of_fire", "Streets of Fire", 2, 2, S.SIDES,
                 "Scenario 6: on four boards the players lay out, the papal squads search "
                 "face-down markers for the Resistance's secret passage."),
    ),
    hidden_information=True,
    options={"painted_squads": "deal three event cards per squad instead of two (default off)",
             "turn_limit": "turns before a scenario without a book limit ends (default 12)"},
    rules_revision=2,  # the editions are listed at the end of RULES.md
)


# Card windows that stay open after a card until their seat passes: several cards may be
# played at the start of a turn or at an activation (RULES.md decision).
MOMENTS = ("turn_start", "activation")


class Batallitas(Game[BatallitasState]):
    info = INFO

    def __init__(self, content: Content | None = None) -> None:
        self.content = content or load()

    # ----- set-up --------------------------------------------------------------------------
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> BatallitasState:
        try:
            spec = INFO.scenario(scenario)
        except KeyError:
            raise BadSetup(f"unknown batallitas scenario {scenario!r}") from None
        if type(seats) is not int or not spec.min_seats <= seats <= spec.max_seats:
            raise BadSetup(f"batallitas is played by 2 seats, not {seats!r}")
        unknown = set(options) - set(INFO.options)
        if unknown:
            raise BadSetup(f"unknown options: {sorted(unknown)}")
        limit = options.get("turn_limit", 12)
        if type(limit) is not int or limit < 1:
            raise BadSetup("turn_limit is a positive number of turns")
        sc = self.content.scenario(scenario)
        squads, noses = S.build_squads(self.content, sc)
        state = BatallitasState(scenario=scenario, seats=seats, sides=list(S.SIDES),
                                options=dict(options), squads=squads, noses=noses)
        roles.assign(sc, state)
        ev: list[Event] = []
        S.deal(self.content, state, rng, ev)
        state.setup = S.choices(self.content, sc, state)
        self._settle(state, rng, ev)
        return state

    # ----- who decides ---------------------------------------------------------------------
    def to_act(self, state: BatallitasState) -> tuple[Seat, ...]:
        if state.result is not None or state.phase == OVER:
            return ()
        if state.prompts:
            return (state.prompts[-1]["seat"],)
        if state.phase == SETUP:
            return (state.setup[0]["seat"],)
        if state.phase == CHOOSE:
            return (state.seat_of(state.drawn or ""),)
        assert state.active_squad is not None
        return (state.seat_of(state.squads[state.active_squad].side),)

    def legal_actions(self, state: BatallitasState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.prompts:
            return self._prompt_actions(state, state.prompts[-1])
        if state.phase == SETUP:
            return self._setup_actions(state, state.setup[0])
        if state.phase == CHOOSE:
            return [Action(f"activate:{sq.index}", f"activate squad {sq.index} ({sq.spec})")
                    for sq in T.candidates(state, state.drawn or "")]
        if state.phase == SQUAD:
            return self._squad_actions(state)
        n = state.nose(state.active_nose or "")
        out = A.nose_actions(state, field_of(state), n)
        return out if state.burst is not None else out + self._own_cards(state, n.id)

    def default_action(self, state: BatallitasState, seat: Seat) -> str:
        if state.prompts:
            top = state.prompts[-1]
            return self._prompt_actions(state, top)[0].id  # hold fire, keep facing, first heir
        if state.phase == SETUP:
            return self._setup_default(state, state.setup[0])
        if state.phase == SQUAD:
            return self._squad_actions(state)[0].id  # end_squad, unless hate forbids it
        if state.phase == NOSE:
            if state.burst is not None:
                return "stop"
            listed = [a.id for a in self.legal_actions(state, seat)]
            return "done" if "done" in listed else listed[0]  # hate may forbid stopping
        return self.legal_actions(state, seat)[0].id

    # ----- set-up choices ------------------------------------------------------------------
    def _setup_actions(self, state: BatallitasState, item: dict[str, Any]) -> list[Action]:
        kind = item["kind"]
        if kind == "leader_type":
            spec = self.content.squads[self.content.squads[
                state.squads[item["squad"]].spec].leader_from or ""]
            return [Action(f"leader_type:{item['squad']}:{ns.id}", f"lead with a {ns.name}")
                    for ns in spec.noses]
        if kind == "leader":
            return [Action(f"leader:{n.id}", f"{n.name} ({n.id}) is the original leader")
                    for n in state.members(item["squad"])]
        if kind == "board":
            return placement.actions(state)
        if kind == "hide":
            return [Action(f"hide:{A.cell_id(p)}", f"a face-down marker at {A.cell_id(p)}")
                    for p in hidden.hidden_cells(state)]
        if kind == "carrier":
            return [Action(f"carrier:{n.id}", f"{n.name} ({n.id}) carries the videogame")
                    for n in state.in_play() if state.side_of(n) == "rebel"]
        n = state.nose(item["nose"])
        if kind == "atrophy":
            return [Action(f"atrophy:{n.id}:{a}", f"{n.name} ({n.id}) takes -1 {a}")
                    for a in ATTRIBUTES if n.attrs[a] > (1 if a == "pupae" else 0)]
        if kind == "grenades":
            total = sum(n.grenades.values())
            return [Action(f"grenades:{n.id}:{k}", f"{k} fragmentation, {total - k} tear gas")
                    for k in range(total, -1, -1)]
        return [Action(f"deploy:{n.id}:{A.cell_id(p)}:{f}", f"{n.name} starts at "
                       f"{A.cell_id(p)} facing {f}") for p in self._deploy_cells(state, n)
                for f in FACINGS]

    def _setup_default(self, state: BatallitasState, item: dict[str, Any]) -> str:
        if item["kind"] == "atrophy":
            return f"atrophy:{item['nose']}:{S.DEFAULT_ATROPHY}"
        return self._setup_actions(state, item)[0].id

    def _deploy_cells(self, state: BatallitasState, n: Nose) -> list[tuple[int, int]]:
        """Free cells of the scenario's set-up area; a leader with a set spot goes there."""
        sq = state.squads[n.squad]
        deploy = self.content.scenario(state.scenario).forces[sq.force].deploy
        m, f = state_map(state), field_of(state)
        if deploy.kind == "roles":
            return roles.start_cells(state, f, n)
        cells = [p for p in m.positions() if not f.blocks_step(p)
                 and (deploy.board is None or m.board(p) == deploy.board)
                 and (deploy.where != "indoor" or m.cell(p).indoor)]
        if deploy.leader is not None and n.id == sq.original_leader:
            cells = [p for p in cells if m.cell(p).feature == deploy.leader.feature]
        return cells

    def _moot(self, state: BatallitasState, item: dict[str, Any]) -> bool:
        return item["kind"] == "grenades" and not sum(state.nose(item["nose"]).grenades.values())

    # ----- squad phase ---------------------------------------------------------------------
    def _squad_actions(self, state: BatallitasState) -> list[Action]:
        assert state.active_squad is not None
        ready = self._ready(state)
        f = field_of(state)
        hating = any(hate.bound(state, f, n, A.free_actions(state, f, n)) for n in ready)
        out = [] if hating else [Action("end_squad", "end this squad's action phase")]
        out.extend(Action(f"act:{n.id}", f"{n.name} ({n.id}) takes its action phase")
                   for n in ready)
        return out + self._own_cards(state, None)

    def _own_cards(self, state: BatallitasState, nose: str | None) -> list[Action]:
        """Cards the acting seat may play in its own squad phase (between noses), or on the
        acting nose (Petardo humano)."""
        assert state.active_squad is not None
        seat = state.seat_of(state.squads[state.active_squad].side)
        return self._card_actions(state, {"seat": seat, "timing": "own_action_phase",
                                          "squad": state.active_squad, "nose": nose})

    def _card_actions(self, state: BatallitasState, window: dict[str, Any]) -> list[Action]:
        return [Action(f"play:{c}", f"play {cards.card(c.split(':')[0]).title}"
                       + (f" on {c.split(':', 1)[1]}" if ":" in c else ""))
                for c in cards.playable(state, window)]

    def _ready(self, state: BatallitasState) -> list[Nose]:
        assert state.active_squad is not None
        return [n for n in state.members(state.active_squad) if not n.done
                and (n.status == IN_PLAY or n.status == RESERVE and A.entry_edges(state, n))]

    # ----- prompts (interrupts) ------------------------------------------------------------
    def _prompt_actions(self, state: BatallitasState, p: dict[str, Any]) -> list[Action]:
        if p["kind"] == "leader":
            return [Action(f"leader:{n.id}", f"{n.name} ({n.id}) becomes provisional leader")
                    for n in T.successors(state, state.squads[p["squad"]])]
        if p["kind"] == "card":
            return [Action("pass", "play no card"), *self._card_actions(state, p)]
        if p["kind"] == "pick":
            out = [] if p["what"] == "edge" else [Action("stop", "no more")]
            return out + [Action(f"pick:{c}", d) for c, d in E.pick_options(state, p)]
        if p["kind"] == "burst":
            if state.burst is None or state.nose(state.burst["nose"]).status != IN_PLAY:
                return [Action("stop", "the burst ends")]  # its shooter fell meanwhile
            n = state.nose(state.burst["nose"])
            return A.burst_actions(state, field_of(state), n)
        if p["kind"] == "reroll":
            return [Action("keep", "keep the roll")] + [
                Action(f"reroll:{cid}", f"discard {cards.card(cid).title} to roll again")
                for cid in sorted(set(state.hands[p["seat"]]))]
        if p["kind"] == "scatter":
            f = field_of(state)
            return [Action(f"scatter:{d}", f"the shot flies {p['cells']} cells {d}, landing at "
                           f"{A.cell_id(area.landing(f, p, d))}") for d in area.DIRECTIONS]
        if p["kind"] == "strategy":
            return [Action("draw", "draw a marker from the hat")] + [
                Action(f"strategy:{sq.index}", f"activate squad {sq.index} ({sq.spec}) now by "
                       "strategy, taking one of its side's markers out of the hat")
                for sq in T.strategists(state, p["side"])]
        if p["kind"] == "turn_round":
            return [Action("stay", f"{p['nose']} keeps its back turned"),
                    Action("face", f"{p['nose']} turns round to face its attacker, free")]
        out = [Action("hold", "hold fire")]
        out.extend(Action(f"alert:{nid}:{wid}", f"{nid} fires the {F.weapon(wid).name} on "
                          f"alert at {p['target']}") for nid, wid in self._alert_shots(state, p))
        return out

    def _alert_shots(self, state: BatallitasState, p: dict[str, Any]) -> list[tuple[str, str]]:
        """Noses on alert that may fire at the enemy that just acted ("Alert Shot")."""
        target = state.nose(p["target"])
        if target.status != IN_PLAY or target.cell is None:
            return []
        f = field_of(state)
        out: list[tuple[str, str]] = []
        for n in state.in_play():
            if not n.alert or n.id in p["used"] or state.side_of(n) == state.side_of(target):
                continue
            out.extend((n.id, wid) for wid in A.alert_weapons(n)
                       if F.refusal(state, f, n, F.weapon(wid), target.cell, alert=True) is None)
        return out

    def _open_alert(self, state: BatallitasState, actor: Nose) -> None:
        """After an action: the enemy's alert noses may answer, and, when the actor's squad is
        the active one, the enemy's `any_time` window opens (answered after the alerts)."""
        if state.result is not None or actor.status != IN_PLAY \
                or A.passing_through(state, actor):
            return  # (RULES.md decision: nothing answers a step onto a friend's cell)
        side = "rebel" if state.side_of(actor) == "papal" else "papal"
        if actor.squad == state.active_squad and state.burst is None \
                and state.pending is None and cards.reacts(side):
            T.offer_cards(state, state.seat_of(side), "any_time")
        p = {"kind": "alert", "seat": state.seat_of(side), "target": actor.id, "used": []}
        if self._alert_shots(state, p):
            state.prompts.append(p)

    # ----- applying ------------------------------------------------------------------------
    def validate(self, state: BatallitasState, seat: Seat, action_id: str) -> None:
        """As the default, but a burst's first shot may go at any cell the rules allow (empty
        or obstructed ones too, "Empty and Obstructed Cells"), though only enemy noses are
        listed."""
        try:
            super().validate(state, seat, action_id)
        except IllegalAction:
            if seat in self.to_act(state) and self._bomb_allowed(state, action_id):
                return
            if not (action_id.startswith("fire:") and seat in self.to_act(state)
                    and self._fire_allowed(state, action_id)):
                raise

    def _bomb_allowed(self, state: BatallitasState, action_id: str) -> bool:
        """A grenade of the bombing may fall on any outdoor cell, listed or not."""
        top = state.prompts[-1] if state.prompts else {}
        if top.get("kind") != "pick" or top.get("what") != "bomb" \
                or not action_id.startswith("pick:"):
            return False
        try:
            cell = A.parse_cell(action_id[len("pick:"):])
        except ValueError:
            return False
        return A.cell_id(cell) == action_id[len("pick:"):] and E.bomb_allowed(state, cell)

    def _fire_allowed(self, state: BatallitasState, action_id: str) -> bool:
        if state.phase != NOSE or state.burst is not None or state.prompts:
            return False
        try:
            _, wid, where = action_id.split(":")
            target = A.parse_cell(where)
        except ValueError:
            return False
        n = state.nose(state.active_nose or "")
        if wid not in F.firearms(n) or A.cell_id(target) != where:
            return False
        f = field_of(state)
        free = A.free_actions(state, f, n)
        if hate.restrict(state, f, n, free) is not free:
            return False  # in hate's grip: no shooting at all
        w = F.weapon(wid)
        cost = A.costs()["fire_heavy" if w.type == "heavy" else "fire_short_or_long"]
        return (w.type != "close" and T.can_pay(state, n, cost, "fire")
                and F.refusal(state, field_of(state), n, w, target) is None)

    def _apply(self, state: BatallitasState, seat: Seat, action_id: str,
               rng: Rng) -> list[Event]:
        ev: list[Event] = [Event("action", {"seat": seat, "action": action_id})]
        verb, _, rest = action_id.partition(":")
        if state.prompts:
            self._answer_prompt(state, verb, rest, rng, ev)
        else:
            getattr(self, f"_do_{verb}")(state, rest, rng, ev)
        # pupae waiting on Si alguien encuentra mi brazo are settled before anything else
        state.prompts.sort(key=lambda q: q.get("timing") == "on_pupae")
        self._settle(state, rng, ev)
        return ev

    def _settle(self, state: BatallitasState, rng: Rng, ev: list[Event]) -> None:
        """Move the match on until someone has a decision: skip moot set-up items, leave a
        dead nose's phase, end a squad phase with nobody left to act, draw markers."""
        if state.result is not None or state.prompts:
            return
        if state.phase == SETUP:
            while state.setup and self._moot(state, state.setup[0]):
                state.setup.pop(0)
            if state.setup:
                return
            if "pre_game" not in state.counters:  # Booby Trap's moment, set-up done
                state.counters["pre_game"] = 1
                if E.trap_usable(state):
                    T.offer_cards(state, state.seat_of("rebel"), "pre_game")
                if state.prompts:
                    return
            T.start_turn(state, ev)
            if state.prompts:
                return  # the first turn's card windows
            T.draw(state, rng, ev)
        if state.phase == TURN_START:
            T.draw(state, rng, ev)
        if state.phase == NOSE and (state.active_nose is None
                                    or state.nose(state.active_nose).status != IN_PLAY
                                    and state.nose(state.active_nose).status != RESERVE):
            state.phase, state.active_nose = SQUAD, None
        if state.phase == SQUAD and not self._ready(state):
            T.draw(state, rng, ev)

    # set-up
    def _do_leader_type(self, state: BatallitasState, rest: str, rng: Rng,
                        ev: list[Event]) -> None:
        sq_i, type_id = rest.split(":")
        sq = state.squads[int(sq_i)]
        lead_squad = self.content.squads[self.content.squads[sq.spec].leader_from or ""]
        ns = next(x for x in lead_squad.noses if x.id == type_id)
        n = state.nose(sq.original_leader or "")
        n.kind = f"{lead_squad.id}/{ns.id}"
        S.equip(self.content, n, ns)
        state.setup.pop(0)
        ev.append(Event("leader_chosen", {"squad": sq.index, "type": type_id}))

    def _do_leader(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = state.nose(rest)
        sq = state.squads[n.squad]
        sq.leader = sq.original_leader = n.id
        state.setup.pop(0)
        ev.append(Event("leader_chosen", {"squad": sq.index, "nose": n.id}))

    def _do_atrophy(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        nid, attr = rest.split(":")
        n = state.nose(nid)
        n.attrs[attr] -= 1
        n.pupae = n.attrs["pupae"]
        state.setup.pop(0)
        ev.append(Event("atrophy", {"nose": nid, "attribute": attr}))

    def _do_grenades(self, state: BatallitasState, rest: str, rng: Rng,
                     ev: list[Event]) -> None:
        nid, frag = rest.split(":")
        n = state.nose(nid)
        total = sum(n.grenades.values())
        split = {"frag_grenade": int(frag), "gas_grenade": total - int(frag)}
        n.grenades = {k: v for k, v in split.items() if v}
        state.setup.pop(0)
        ev.append(Event("grenades", {"nose": nid, **split}))

    def _do_board(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        board, where = rest.split(":")
        col, row = A.parse_cell(where)
        placement.place(state, int(board), col, row, ev)
        state.setup.pop(0)

    def _do_hide(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        hidden.hide(state, rng, A.parse_cell(rest), ev)
        state.setup.pop(0)

    def _do_carrier(self, state: BatallitasState, rest: str, rng: Rng,
                    ev: list[Event]) -> None:
        videogame.give(state, rest, ev)
        state.setup.pop(0)

    def _do_deploy(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        nid, where, facing = rest.split(":")
        n = state.nose(nid)
        n.pos, n.facing, n.status = list(A.parse_cell(where)), facing, IN_PLAY
        state.setup.pop(0)
        ev.append(Event("deployed", {"nose": nid, "cell": n.pos, "facing": facing}))

    # turn
    def _do_activate(self, state: BatallitasState, rest: str, rng: Rng,
                     ev: list[Event]) -> None:
        T.activate(state, state.squads[int(rest)], ev)

    def _do_end_squad(self, state: BatallitasState, rest: str, rng: Rng,
                      ev: list[Event]) -> None:
        ev.append(Event("squad_done", {"squad": state.active_squad}))
        T.draw(state, rng, ev)

    def _do_act(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        state.phase, state.active_nose = NOSE, rest

    def _do_done(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        n.done = True
        state.phase, state.active_nose = SQUAD, None
        ev.append(Event("nose_done", {"nose": n.id}))

    def _actor(self, state: BatallitasState) -> Nose:
        return state.nose(state.active_nose or "")

    # nose actions
    def _do_enter(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        edge, where = rest.split(":")
        p = A.parse_cell(where)
        side, _, cost = next(e for e in A.entries(state, field_of(state), n)
                             if e[:2] == (edge, p))
        T.pay(state, n, cost, "enter")
        state.squads[n.squad].edge = side
        n.pos, n.facing, n.status = list(p), A.ENTRY_FACING[side], IN_PLAY
        A.note_entry(state, n, side)
        ev.append(Event("entered", {"nose": n.id, "cell": n.pos, "edge": side, "cost": cost}))
        hidden.stepped_on(state, n, ev)
        E.spring_trap(state, rng, n, ev)
        self._open_alert(state, n)

    def _do_move(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        p = A.parse_cell(rest)
        assert n.cell is not None
        cost = step_cost(field_of(state), n.cell, n.facing, p, command="command" in n.knacks)
        T.pay(state, n, cost, "move")
        ev.append(Event("moved", {"nose": n.id, "from": n.pos, "to": list(p), "cost": cost}))
        n.pos = list(p)
        hidden.stepped_on(state, n, ev)
        E.spring_trap(state, rng, n, ev)
        self._open_alert(state, n)

    def _do_turn(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        assert n.cell is not None
        cost = turn_cost(field_of(state), n.cell, quarter_turns(n.facing, rest),
                         command="command" in n.knacks)
        T.pay(state, n, cost, "turn")
        ev.append(Event("turned", {"nose": n.id, "facing": rest, "cost": cost}))
        n.facing = rest
        self._open_alert(state, n)

    def _do_open(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        doors.work_door(state, self._actor(state), "open", rest, ev)
        self._open_alert(state, self._actor(state))

    def _do_close(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        doors.work_door(state, self._actor(state), "close", rest, ev)
        self._open_alert(state, self._actor(state))

    def _do_open_flap(self, state: BatallitasState, rest: str, rng: Rng,
                      ev: list[Event]) -> None:
        doors.work_flap(state, self._actor(state), "open", rest, ev)
        self._open_alert(state, self._actor(state))

    def _do_close_flap(self, state: BatallitasState, rest: str, rng: Rng,
                       ev: list[Event]) -> None:
        doors.work_flap(state, self._actor(state), "close", rest, ev)
        self._open_alert(state, self._actor(state))

    def _do_alert(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        T.pay(state, n, A.alert_cost(state, n), "alert")
        n.alert = True
        ev.append(Event("on_alert", {"nose": n.id}))
        self._open_alert(state, n)

    def _do_unjam(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        T.pay(state, n, A.costs()["unjam"], "unjam")
        F.unjam(n, F.weapon(rest), ev)
        self._open_alert(state, n)

    def _do_reload(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        T.pay(state, n, 2 * A.costs()["generic"], "reload")
        n.spares[rest] -= 1
        n.ammo[rest] = F.weapon(rest).magazine or 0
        ev.append(Event("reloaded", {"nose": n.id, "weapon": rest, "spares": n.spares[rest]}))
        self._open_alert(state, n)

    def _do_rally(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        T.pay(state, n, A.costs()["remove_pajara"], "rally")
        n.pajara = False
        ev.append(Event("pajara_removed", {"nose": n.id}))
        self._open_alert(state, n)

    # scenarios 4 to 6 (roles.py, hidden.py, videogame.py, slider.py)
    def _do_arm(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        roles.arm(state, self._actor(state), ev)
        self._open_alert(state, self._actor(state))

    def _do_passage(self, state: BatallitasState, rest: str, rng: Rng,
                    ev: list[Event]) -> None:
        """Through the passage and out of the game; nothing answers (it is gone)."""
        hidden.cross(state, self._actor(state), ev)
        state.phase = SQUAD

    def _do_search(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        hidden.search(state, rng, n, ev)
        self._open_alert(state, n)

    def _do_videogame(self, state: BatallitasState, rest: str, rng: Rng,
                      ev: list[Event]) -> None:
        videogame.do(state, self._actor(state), rest, ev)
        self._open_alert(state, self._actor(state))

    def _do_slider(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        slider.do(state, n, rest, ev)
        if n.status == IN_PLAY:
            self._open_alert(state, n)
        else:
            state.phase = SQUAD

    # scenario 2 (shopping.py)
    def _do_take(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        shopping.do(state, field_of(state), n, "take", rest, ev)
        self._open_alert(state, n)

    def _do_trolley(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        shopping.do(state, field_of(state), n, "trolley", rest, ev)
        if rest != "drop":  # abandoning costs nothing and is no action to answer
            self._open_alert(state, n)

    def _do_leave(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        """Off the board with what it carries; no alert shot answers (it is no longer there)."""
        n = self._actor(state)
        leaving.leave(state, field_of(state), n, rest, ev)
        state.phase = SQUAD
        T.check_end(state, ev)

    # shooting
    def _do_fire(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        wid, where = rest.split(":")
        w = F.weapon(wid)
        T.pay(state, n, A.costs()["fire_heavy" if w.type == "heavy" else "fire_short_or_long"],
              "fire")
        if not w.area:
            state.burst = {"nose": n.id, "weapon": wid, "left": F.rate_of_fire(n, w),
                           "last": list(A.parse_cell(where))}
        self._declare(state, {"kind": "area" if w.area else "shot", "nose": n.id, "weapon": wid,
                              "target": list(A.parse_cell(where))}, rng, ev)

    def _do_shot(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        b = state.burst
        assert b is not None
        self._declare(state, {"kind": "shot", "nose": b["nose"], "weapon": b["weapon"],
                              "target": list(A.parse_cell(rest))}, rng, ev)

    def _do_stop(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        self._burst_over(state, ev)

    def _burst_over(self, state: BatallitasState, ev: list[Event]) -> None:
        """The burst ends; ¡¡Fuego al máximo!!'s jams its weapon whatever happened, and its
        prompt goes."""
        b, state.burst = state.burst, None
        if b is None or b.get("card"):  # None: a card's burst whose shooter fell meanwhile
            state.prompts = [q for q in state.prompts if q["kind"] != "burst"]
        if b is not None and b.get("card"):
            n = state.nose(b["nose"])
            if n.status == IN_PLAY:
                self._card_jam(n, F.weapon(b["weapon"]), True, ev)

    def _do_play(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        """A card played in one's own phase (`own_action_phase`, `any_time`)."""
        assert state.active_squad is not None
        window = {"seat": state.seat_of(state.squads[state.active_squad].side),
                  "timing": "own_action_phase", "squad": state.active_squad,
                  "nose": state.active_nose if state.phase == NOSE else None}
        self._play_card(state, rng, window, rest, ev)

    def _play_card(self, state: BatallitasState, rng: Rng, window: dict[str, Any], choice: str,
                   ev: list[Event]) -> None:
        follow = cards.play(state, rng, window, choice, ev)
        if follow is None or state.result is not None:
            return
        if "burst" in follow:  # ¡¡Fuego al máximo!!: the holder steers the free burst
            state.prompts.append({"kind": "burst", "seat": window["seat"]})
            self._declare(state, follow["burst"], rng, ev)
        elif E.pick_options(state, follow):
            state.prompts.append(follow)

    def _pick(self, state: BatallitasState, p: dict[str, Any], choice: str, rng: Rng,
              ev: list[Event]) -> None:
        """One choice of a card's pick prompt: where the reinforcements come on, a pájara, a
        grenade of the bombing."""
        if p["what"] == "edge":
            state.prompts.remove(p)
            E.reinforce(state, state.squads[p["squad"]], choice, ev)
            return
        p["left"] -= 1
        if p["what"] == "pajara":
            T.give_pajara(state, state.nose(choice), ev)
        else:
            scatter = E.bomb(state, rng, p, A.parse_cell(choice), ev)
            if scatter is not None and state.result is None:
                state.prompts.append(scatter)
        if p["left"] <= 0 or not E.pick_options(state, p):
            state.prompts = [q for q in state.prompts if q is not p]

    def _burst_shot(self, state: BatallitasState, n: Nose, target: tuple[int, int], rng: Rng,
                    ev: list[Event], r: Roll, jam: bool) -> None:
        """One shot of the burst; the burst ends when its shots, the magazine or the weapon
        (jammed) run out; then any alert nose may answer ("Alert Shot": between shots). A pair
        that loses one of its two to a jam goes on with the other, one shot fewer (Pistols:
        the +1 is lost; RULES.md decision)."""
        b = state.burst
        assert b is not None
        w = F.weapon(b["weapon"])
        rof = F.rate_of_fire(n, w)
        F.shoot(state, field_of(state), rng, n, w, target, alert=False, ev=ev, given=r)
        self._card_jam(n, w, jam, ev)
        b["left"] -= 1 + rof - F.rate_of_fire(n, w)
        b["last"] = list(target)
        if state.burst is not None and (b["left"] <= 0 or not F.usable(n, w)):
            self._burst_over(state, ev)
        self._open_alert(state, n)

    # close combat
    def _do_attack(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        n = self._actor(state)
        wid, where = rest.split(":")
        foe = state.at(A.parse_cell(where))
        assert foe is not None
        T.pay(state, n, A.costs()["close_attack"], "attack")
        self._declare(state, {"kind": "blow", "nose": n.id, "weapon": wid, "foe": foe.id,
                              "target": list(A.parse_cell(where))}, rng, ev)

    def _do_sweep(self, state: BatallitasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        """A sweep ("Sweeping Attacks"): one close-combat action, a blow at each enemy round
        the attacker in turn until something stops it."""
        n = self._actor(state)
        wid, where, way = rest.split(":")
        cells = C.sweep_cells(state, field_of(state), n, A.parse_cell(where), way)
        T.pay(state, n, A.costs()["close_attack"], "attack")
        ev.append(Event("sweep", {"nose": n.id, "weapon": wid, "cells": [list(c) for c in cells]}))
        self._sweep_next(state, rng, ev, n, wid, [list(c) for c in cells], C.sweep_penalty(n))

    def _sweep_next(self, state: BatallitasState, rng: Rng, ev: list[Event], n: Nose, wid: str,
                    queue: list[list[int]], minus: int) -> None:
        """The sweep's next blow; a foe gone meanwhile, or one it has no dice against (RULES.md
        decision), is passed over. When none is left, alert noses may answer."""
        while queue:
            cell = queue.pop(0)
            foe = state.at((cell[0], cell[1]))
            if foe is not None and state.side_of(foe) != state.side_of(n) \
                    and C.combat_dice(state, n, foe, minus) > 0:
                self._declare(state, {"kind": "blow", "nose": n.id, "weapon": wid, "foe": foe.id,
                                      "target": cell, "sweep": {"queue": queue, "minus": minus}},
                              rng, ev)
                return
        ev.append(Event("sweep_ended", {"nose": n.id}))
        self._open_alert(state, n)

    # attack rolls and their card windows ("Event cards", "Repeating rolls")
    def _declare(self, state: BatallitasState, attack: dict[str, Any], rng: Rng,
                 ev: list[Event]) -> None:
        attack.update(stage="before", roll=None, rerolled=False, jam=False, forced=None)
        state.pending = attack
        self._advance(state, rng, ev)

    def _windows_open(self, state: BatallitasState) -> bool:
        """The pending attack waits on a window at the top of the stack (windows lower down
        belong to what was going on before it, e.g. a turn's start)."""
        return bool(state.prompts) and state.prompts[-1]["kind"] in ("card", "reroll")

    def _advance(self, state: BatallitasState, rng: Rng, ev: list[Event]) -> None:
        """Carry the pending attack through its windows: the enemy's before the dice, the roll,
        the enemy's after it, the roller's re-roll, then the result. A window opens whenever
        the seat holds any card (RULES.md decision: the hand's size is public, so opening it
        tells nothing about what is in it)."""
        while state.pending is not None and state.result is None \
                and not self._windows_open(state):
            p = state.pending
            roller = state.seat_of(state.side_of(state.nose(p["nose"])))
            stage = p["stage"]
            if stage == "before":
                p["stage"] = "roll"
                self._window(state, 1 - roller, "before_roll")
            elif stage == "roll":
                r = dice.roll(rng, self._attack_dice(state, p), infernal=True)
                assert r is not None  # legal attacks have dice
                p["roll"], p["stage"] = cards.roll_to_dict(r), "after"
            elif stage == "after":
                p["stage"] = "reroll"
                self._window(state, 1 - roller, "after_roll")
            elif stage == "reroll":
                p["stage"] = "resolve"
                if not p["rerolled"] and state.hands[roller] \
                        and not cards.roll_from_dict(p["roll"]).success:
                    state.prompts.append({"kind": "reroll", "seat": roller})
            else:
                self._resolve(state, rng, ev)

    def _window(self, state: BatallitasState, seat: Seat, timing: str) -> None:
        if state.hands[seat]:
            state.prompts.append({"kind": "card", "seat": seat, "timing": timing})

    def _attack_dice(self, state: BatallitasState, p: dict[str, Any]) -> int:
        n, w = state.nose(p["nose"]), F.weapon(p["weapon"])
        if p["kind"] == "blow":
            minus = (p.get("sweep") or {}).get("minus", 0)
            return C.combat_dice(state, n, state.nose(p["foe"]), minus)
        target = (p["target"][0], p["target"][1])
        return F.shot_dice(state, field_of(state), n, target, alert=p["kind"] == "alert",
                           w=w)[0]

    def _card_jam(self, n: Nose, w: Any, jam: bool, ev: list[Event]) -> None:
        """¡¡Cli-cli-clik!!: the weapon jams whatever it is (one of a pair: RULES.md decision)."""
        if jam:
            F.jam(n, w, ev)

    def _resolve(self, state: BatallitasState, rng: Rng, ev: list[Event]) -> None:
        """Apply the attack's result; a short or long firearm it jammed opens the enemy's
        ¡¡Ka-boom!! window (RULES.md decision: only the enemy, as the card only hurts)."""
        p = state.pending
        assert p is not None
        n = state.nose(p["nose"])
        before = Counter(n.jammed)
        self._result(state, rng, ev)
        fresh = [w for w in Counter(n.jammed) - before
                 if F.weapon(w).type in ("short", "long")]
        if fresh and n.status == IN_PLAY and state.result is None:
            T.offer_cards(state, 1 - state.seat_of(state.side_of(n)), "on_jam", nose=n.id,
                          weapon=fresh[0])

    def _result(self, state: BatallitasState, rng: Rng, ev: list[Event]) -> None:
        p = state.pending
        assert p is not None
        state.pending = None
        r, jam = cards.roll_from_dict(p["roll"]), p["jam"]
        n, w = state.nose(p["nose"]), F.weapon(p["weapon"])
        target = (p["target"][0], p["target"][1])
        if p["kind"] == "blow":
            foe, sw = state.nose(p["foe"]), p.get("sweep")
            res = C.attack(state, rng, n, w, foe, ev, given=r, minus=sw["minus"] if sw else 0)
            if res["turn_round"]:
                state.prompts.append({"kind": "turn_round",
                                      "seat": state.seat_of(state.side_of(foe)),
                                      "nose": foe.id, "facing": turned(n.facing, 2)})
            if sw is not None and not res["screw_up"] and n.status == IN_PLAY \
                    and state.result is None:
                self._sweep_next(state, rng, ev, n, w.id, sw["queue"], sw["minus"])
            else:  # a screw-up ends a sweep (RULES.md decision: even one surprise ignores)
                self._open_alert(state, n)
        elif p["kind"] == "area":
            scatter = area.fire(state, field_of(state), rng, n, w, target, ev, given=r)
            self._card_jam(n, w, jam, ev)
            if scatter is not None and state.result is None:
                state.prompts.append(scatter)
            else:
                self._open_alert(state, n)
        elif p["kind"] == "alert":
            F.shoot(state, field_of(state), rng, n, w, target, alert=True, ev=ev, given=r)
            self._card_jam(n, w, jam, ev)
            q = next((q for q in reversed(state.prompts) if q["kind"] == "alert"
                      and q["target"] == p["foe"]), None)
            if state.result is None and q is not None and not self._alert_shots(state, q):
                state.prompts.remove(q)
        else:
            self._burst_shot(state, n, target, rng, ev, r, jam)

    def _reopen(self, state: BatallitasState, window: dict[str, Any], below: int) -> None:
        """A turn's start and a squad's activation are moments, not single plays: after a card
        the seat's window opens again, under what the card raised, until it passes (RULES.md
        decision, "Event cards")."""
        if window["timing"] in MOMENTS and state.result is None and state.hands[window["seat"]]:
            state.prompts.insert(below, window)

    # prompts
    def _answer_prompt(self, state: BatallitasState, verb: str, rest: str, rng: Rng,
                       ev: list[Event]) -> None:
        p = state.prompts[-1]
        if p["kind"] in ("card", "reroll"):
            state.prompts.pop()
            if verb == "play":
                below = len(state.prompts)
                self._play_card(state, rng, p, rest, ev)
                if p["timing"] == "before_roll":
                    assert state.pending is not None
                    state.pending["stage"] = "reroll"  # no dice, and nothing to answer after
                self._reopen(state, p, below)
            elif verb == "reroll":
                cards.reroll(state, p["seat"], rest, ev)
            elif p.get("timing") == "on_pupae":  # passed: the pupae are lost now
                T.hurt(state, state.nose(p["nose"]), p["pupae"], ev)
            self._advance(state, rng, ev)
            return
        if p["kind"] == "pick":
            if verb == "stop":
                state.prompts.pop()
            else:
                self._pick(state, p, rest, rng, ev)
            return
        if p["kind"] == "burst":
            if verb == "stop":
                self._burst_over(state, ev)
            else:
                self._do_shot(state, rest, rng, ev)
            return
        if p["kind"] == "strategy":
            state.prompts.pop()
            if verb == "strategy":
                T.use_strategy(state, state.squads[int(rest)], ev)
            elif p["then"]:  # the next side in priority may still use it
                side = p["then"][0]
                state.prompts.append({"kind": "strategy", "seat": state.seat_of(side),
                                      "side": side, "then": p["then"][1:]})
            else:
                T.draw(state, rng, ev, offered=True)
            return
        if p["kind"] == "leader":
            state.prompts.pop()
            sq = state.squads[p["squad"]]
            sq.leader = rest
            ev.append(Event("provisional_leader", {"squad": sq.index, "nose": rest}))
            return
        if p["kind"] == "scatter":
            state.prompts.pop()
            area.land(state, field_of(state), rng, p, rest, ev)
            if not p.get("card"):  # a card's grenade is nobody's action to answer
                self._open_alert(state, state.nose(p["nose"]))
            return
        if p["kind"] == "turn_round":
            state.prompts.pop()
            if verb == "face":
                state.nose(p["nose"]).facing = p["facing"]
                ev.append(Event("turned_round", {"nose": p["nose"], "facing": p["facing"]}))
            return
        if verb == "hold":
            state.prompts.pop()
            return
        nid, wid = rest.split(":")
        target = state.nose(p["target"])
        p["used"].append(nid)
        assert target.cell is not None
        self._declare(state, {"kind": "alert", "nose": nid, "weapon": wid, "foe": target.id,
                              "target": list(target.cell)}, rng, ev)

    # ----- knowledge -----------------------------------------------------------------------
    def view(self, state: BatallitasState, seat: Seat | None) -> dict[str, Json]:
        """Everything on the table; hands only to their holder, face-down markers' identity
        only to their owner, the decks as counts."""
        data = state.to_dict()
        for key in ("hands", "decks", "markers", "options"):
            data.pop(key)
        data["options"] = {k: v for k, v in state.options.items() if k in INFO.options}
        data["to_act"] = list(self.to_act(state))
        data["hand"] = list(state.hands[seat]) if seat is not None else []
        data["hand_counts"] = [len(h) for h in state.hands]
        data["deck_counts"] = [len(d) for d in state.decks]
        data["markers"] = [self._marker_view(state, m, seat) for m in state.markers]
        data["pools"] = [T.pool_left(state, sq) for sq in state.squads]
        return data

    def _marker_view(self, state: BatallitasState, m: dict[str, Any],
                     seat: Seat | None) -> dict[str, Json]:
        out = copy_plain(m)
        if m.get("face_down") and (seat is None or state.sides[seat] != m.get("owner")
                                   or hidden.laying(state)):
            out["kind"] = "face_down"
        return out

    def determinize(self, state: BatallitasState, seat: Seat | None,
                    rng: Rng) -> BatallitasState:
        """Redeal the hands the seat cannot see from what it has not seen, reshuffle every
        deck, and swap the identities of face-down markers it does not own (or, while they are
        still being laid, all of them)."""
        out = state.clone()
        for s in range(len(out.hands)):
            if s == seat:
                rng.shuffle(out.decks[s])
                continue
            unseen = out.hands[s] + out.decks[s]
            rng.shuffle(unseen)
            k = len(out.hands[s])
            out.hands[s], out.decks[s] = unseen[:k], unseen[k:]
        mine = None if seat is None else state.sides[seat]
        covered = [m for m in out.markers if m.get("face_down")
                   and (m.get("owner") != mine or hidden.laying(state))]
        kinds = [m["kind"] for m in covered]
        rng.shuffle(kinds)
        for m, k in zip(covered, kinds, strict=True):
            m["kind"] = k
        return out

    def outcome(self, state: BatallitasState) -> Outcome | None:
        if state.result is None:
            return None
        side = state.result["side"]
        if side is None:
            return Outcome((), state.result["reason"], draw=True)
        return Outcome((state.seat_of(side),), state.result["reason"])

    def resign(self, state: BatallitasState, seat: Seat) -> list[Event]:
        """The side that gives up loses (partida's decision; the book has no resignation)."""
        if state.result is not None:
            raise IllegalAction("the match is over")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalAction(f"no seat {seat!r}")
        ev: list[Event] = []
        T.finish(state, state.sides[1 - seat], f"the {state.sides[seat]} side gave up", ev)
        return ev

    def seat_side(self, state: BatallitasState, seat: Seat) -> str:
        return state.sides[seat]

    def state_from_dict(self, data: Mapping[str, Json]) -> BatallitasState:
        return BatallitasState.from_dict(data)
