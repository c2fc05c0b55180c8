"""Bandas as an engine: set-up from a table and its gangs, turns of initiative and alternating
activations, the actions of models and vehicles, victory.

Cites the rulebook by its Spanish headings. Hits are resolved in `combat`, vehicles in
`vehicles`, sight and shapes in `world` and `geometry`; the actions a unit may take are checked
in `actions`, which both `legal_actions` and `validate` use.
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
from partida.games.bandas import actions as A
from partida.games.bandas import combat as C
from partida.games.bandas import geometry as G
from partida.games.bandas import vehicles as V
from partida.games.bandas import world as W
from partida.games.bandas.content import (
    Content,
    GangError,
    GangSheet,
    ModelSheet,
    Placement,
    Table,
    check_gang,
    load,
    model_cost,
)
from partida.games.bandas.deploy import place_gang
from partida.games.bandas.state import DOWN, OUT, STANDING, STUNNED, BandasState

OPTIONS = {"turn_limit": "turns before the match is decided (default: the table's, 1-50)",
           "gangs": "gang sheets submitted as data: side id -> sheet (content/gangs.json form, "
                    "vehicles naming their driver, gunner and riders), set up in the side's "
                    "deployment zone"}


def _info(content: Content) -> GameInfo:
    return GameInfo(
        id="bandas", title="Bandas",
        scenarios=tuple(Scenario(t.id, t.title, len(t.sides), len(t.sides),
                                 tuple(s.id for s in t.sides), t.description)
                        for t in content.tables.values()),
        hidden_information=False, options=OPTIONS,
        rules_revision=2)       # the editions are listed at the end of RULES.md


INFO = _info(load())


def new_model(sheet: ModelSheet, seat: int, at: tuple[float, float], table: Table) -> dict:
    roof = G.roof_at(W.terrain(table.id), at)
    return {"id": sheet.id, "name": sheet.name, "seat": seat, "grade": sheet.grade,
            "weapons": list(sheet.weapons), "shotgun_ammo": sheet.shotgun_ammo,
            "armour": sheet.armour, "skills": list(sheet.skills),
            "points": model_cost(load().points, sheet),
            "x": float(at[0]), "y": float(at[1]), "roof": roof.id if roof else None,
            "status": STANDING, "vehicle": None, "role": None, "activated": False,
            "reload": "", "net": "", "netted": False, "amulet_used": False, "loot": 0,
            "drugs": 0, "repaired": 0, "foes": {}}


class Bandas(Game[BandasState]):
    info = INFO

    def __init__(self, content: Content | None = None) -> None:
        self.content = content or load()

    # ----- set-up ---------------------------------------------------------------------------
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> BandasState:
        if not isinstance(scenario, str) or scenario not in self.content.tables:
            raise BadSetup(f"unknown bandas table {scenario!r}")
        t = self.content.table(scenario)
        if type(seats) is not int or seats != len(t.sides):
            raise BadSetup(f"{t.title} takes {len(t.sides)} players, not {seats}")
        opts = _options(options)
        custom = self._custom_gangs(t, opts.get("gangs", {}))
        state = BandasState(table=t.id, seats=seats, options=opts,
                            sides=[s.id for s in t.sides], models={}, vehicles={},
                            loot=[list(p) for p in t.loot])
        taken: list = []
        for seat, side in enumerate(t.sides):
            if side.id in custom:
                gang = custom[side.id]
                positions, placements = place_gang(t, side, gang, taken)
            else:
                gang = self.content.gangs[side.gang]
                positions, placements = side.positions, list(side.vehicles)
            self._set_up(state, seat, gang, positions, placements, t)
        self._new_turn(state, rng, [])
        return state

    def _set_up(self, state: BandasState, seat: int, gang: GangSheet,
                positions: Mapping[str, tuple[float, float]], placements: list[Placement],
                t: Table) -> None:
        sheets = {m.id: m for m in gang.models}
        for mid, at in positions.items():
            state.models[mid] = new_model(sheets[mid], seat, at, t)
        for p in placements:
            v = next(v for v in gang.vehicles if v.id == p.vehicle)
            state.vehicles[v.id] = {
                "id": v.id, "name": v.name, "seat": seat, "kind": v.kind, "armour": v.armour,
                "weapon": v.weapon, "x": float(p.at[0]), "y": float(p.at[1]),
                "heading": float(p.heading), "moving": False, "activated": False,
                "wheels": 0, "weapon_broken": False, "engine": 0, "wrecked": False}
            crew = [(p.driver, "driver"), *([(p.gunner, "gunner")] if p.gunner else []),
                    *((r, "rider") for r in p.riders)]
            for mid, role in crew:
                state.models[mid] = new_model(sheets[mid], seat, p.at, t)
                state.models[mid].update(vehicle=v.id, role=role, roof=None)

    def _custom_gangs(self, t: Table, sheets: Mapping[str, Any]) -> dict[str, GangSheet]:
        """Gang sheets submitted as data (option `gangs`: side id -> sheet), each validated
        and held to the points limit of the table's own gang for that side."""
        if not isinstance(sheets, Mapping):
            raise BadSetup("option gangs maps a side id to a gang sheet")
        sides = {s.id: s for s in t.sides}
        out: dict[str, GangSheet] = {}
        for side_id, sheet in sheets.items():
            if side_id not in sides:
                raise BadSetup(f"{t.id} has no side {side_id!r} (sides: {sorted(sides)})")
            if not isinstance(sheet, Mapping):
                raise BadSetup(f"the gang for {side_id} must be a gang sheet")
            try:
                gang = check_gang(self.content.points, sheet)
            except GangError as e:
                raise BadSetup(f"illegal gang for {side_id}: {e}") from None
            limit = self.content.gangs[sides[side_id].gang].points_limit
            if gang.points_limit > limit:
                raise BadSetup(f"{t.title} allows {limit} points a gang, not {gang.points_limit}")
            out[side_id] = gang
        obj = t.objective
        if obj.kind == "convoy_exit" and obj.side in out and \
                obj.vehicle not in {v.id for v in out[obj.side].vehicles}:
            raise BadSetup(f"the {obj.side} gang must field the vehicle {obj.vehicle!r} "
                           f"(it has to get through)")
        gangs = [out.get(s.id) or self.content.gangs[s.gang] for s in t.sides]
        ids = Counter(i for g in gangs for i in [*(m.id for m in g.models),
                                                  *(v.id for v in g.vehicles)])
        clashes = sorted(i for i, n in ids.items() if n > 1)
        if clashes:
            raise BadSetup(f"ids used by two gangs: {clashes}")
        return out

    # ----- turns (the book's opening paragraphs) --------------------------------------------
    def _new_turn(self, state: BandasState, rng: Rng, ev: list[Event]) -> None:
        """Initiative: every gang still fighting rolls a d6, ties among the highest re-roll;
        the winner activates first and activation goes round the seats clockwise."""
        state.turn += 1
        for m in state.models.values():
            m["activated"] = False
        for v in state.vehicles.values():
            if not v["activated"]:
                v["moving"] = False     # a whole turn without an activation: it has stopped
            v["activated"] = False
        alive = [s for s in range(state.seats) if s not in state.routed]
        rolling, rolls = alive, []
        while len(rolling) > 1:
            faces = {s: rng.d6() for s in rolling}
            rolls.append({str(s): f for s, f in faces.items()})
            top = max(faces.values())
            rolling = [s for s in rolling if faces[s] == top]
        first = rolling[0]
        state.order = sorted(alive, key=lambda s: (s - first) % state.seats)
        state.cursor = 0
        ev.append(Event("initiative", {"turn": state.turn, "rolls": rolls, "order": state.order}))
        if not A.units(state, first):
            self._next_seat(state, rng, ev)

    def _next_seat(self, state: BandasState, rng: Rng, ev: list[Event]) -> None:
        """Hand the next activation to the next seat round the order that has a unit left;
        when nobody has, the turn ends."""
        n = len(state.order)
        for step in range(1, n + 1):
            k = (state.cursor + step) % n
            if A.units(state, state.order[k]):
                state.cursor = k
                return
        self._end_turn(state, rng, ev)

    def _end_turn(self, state: BandasState, rng: Rng, ev: list[Event]) -> None:
        """Rout (ours, see RULES.md): a gang with half its models or more out of action at the
        end of a turn is routed. Then the turn limit; then a new turn."""
        for seat in range(state.seats):
            mine = [m for m in state.models.values() if m["seat"] == seat]
            out = sum(1 for m in mine if m["status"] == OUT)
            if seat not in state.routed and 2 * out >= len(mine):
                state.routed.append(seat)
                ev.append(Event("routed", {"seat": seat, "out": out, "models": len(mine)}))
                _drop_crates(state, seat, ev)
        if self._decided(state, ev):
            return
        limit = state.options.get("turn_limit") or W.table(state).turn_limit
        if state.turn >= limit:
            self._finish_by_time(state, ev)
            return
        self._new_turn(state, rng, ev)

    def _decided(self, state: BandasState, ev: list[Event]) -> bool:
        """The match ends when at most one gang is left fighting or an objective is met."""
        if state.result is not None:
            return True
        alive = [s for s in range(state.seats) if s not in state.routed]
        if len(alive) <= 1:
            self._finish(state, alive, "every other gang is routed" if alive
                         else "every gang is routed", ev)
            return True
        obj = W.table(state).objective
        if obj.kind == "loot":
            for seat in alive:
                held = sum(m["loot"] for m in state.models.values()
                           if m["seat"] == seat and m["status"] != OUT)
                if held >= obj.needed:
                    self._finish(state, [seat], f"{state.sides[seat]} holds {held} crates", ev)
                    return True
        if obj.kind == "convoy_exit" and obj.vehicle in state.vehicles and obj.side:
            v = state.vehicles[obj.vehicle]
            seat = state.sides.index(obj.side)
            through = G.polygon(obj.exit).contains(G.Point(v["x"], v["y"]))
            if v["seat"] == seat and not v["wrecked"] and through:
                self._finish(state, [seat], f"{v['name']} got through", ev)
                return True
        return False

    def _finish_by_time(self, state: BandasState, ev: list[Event]) -> None:
        """At the turn limit: the convoy failed if its truck is not through; loot goes to the
        most crates held; otherwise the gang keeping the largest share of its points in
        action wins (ties: a draw)."""
        obj = W.table(state).objective
        alive = [s for s in range(state.seats) if s not in state.routed]
        if obj.kind == "convoy_exit":
            won = [s for s in alive if state.sides[s] != obj.side]
            self._finish(state, won, "the convoy did not get through in time", ev)
            return
        if obj.kind == "loot":
            held = {s: sum(m["loot"] for m in state.models.values()
                           if m["seat"] == s and m["status"] != OUT) for s in alive}
            best = max(held.values())
            if best > 0:
                won = [s for s in alive if held[s] == best]
                self._finish(state, won if len(won) == 1 else [],
                             f"turn limit: most crates held ({best})", ev)
                return
        share = {s: _share(state, s) for s in alive}
        best = max(share.values())
        won = [s for s in alive if share[s] == best]
        self._finish(state, won if len(won) == 1 else [],
                     "turn limit: the largest share of the gang still in action", ev)

    def _finish(self, state: BandasState, seats: list[int], why: str, ev: list[Event]) -> None:
        state.result = {"winners": sorted(seats), "reason": why,
                        "scores": {str(s): _share(state, s) for s in range(state.seats)}}
        state.active, state.hold = None, None
        ev.append(Event("match_over", copy_plain(state.result)))

    # ----- decisions ------------------------------------------------------------------------
    def to_act(self, state: BandasState) -> tuple[Seat, ...]:
        if state.result is not None:
            return ()
        if state.hold is not None:
            return (state.hold,)
        return (state.order[state.cursor],)

    def legal_actions(self, state: BandasState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.hold is not None:
            return [Action("continue", "Go on with the match")]
        return [Action(i, d) for i, d in A.options(state, seat)]

    def default_action(self, state: BandasState, seat: Seat) -> str:
        if state.hold is not None:
            return "continue"
        if state.active is None:
            return f"activate:{A.units(state, seat)[0]}"
        return "end"

    def validate(self, state: BandasState, seat: Seat, action_id: str) -> None:
        """Like the default, but a move or drive may name any point (in millimetres, written
        with one decimal) that obeys the rules, not only the lattice offered."""
        if self.outcome(state) is not None:
            raise IllegalAction("the match is over")
        if type(seat) is not int:
            raise IllegalAction("a seat must be an integer")
        if seat not in self.to_act(state):
            raise IllegalAction(f"seat {seat} has no decision to take now")
        if state.hold is not None:
            if action_id != "continue":
                raise IllegalAction("only 'continue' is possible now")
            return
        problem = A.problem(state, seat, action_id)
        if problem is not None:
            raise IllegalAction(problem)

    def _apply(self, state: BandasState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        ev: list[Event] = []
        if action_id == "continue":
            state.hold = None
            self._resume(state, rng, ev)
            return ev
        if action_id.startswith("activate:"):
            self._activate(state, action_id.split(":", 1)[1], rng, ev)
        else:
            A.perform(state, action_id, rng, ev)
        if not self._decided(state, ev) and state.active is not None and A.finished(state):
            self._end_activation(state, rng, ev)
        return ev

    def _activate(self, state: BandasState, unit: str, rng: Rng, ev: list[Event]) -> None:
        """Start a unit's activation: recovery from wounds (stunned -> down, down -> up but no
        move; Heridas), reloading, nets (a netted driver's vehicle does not move); a vehicle's
        wheel check (Tabla de impactos, 1)."""
        if unit in state.vehicles:
            v = state.vehicles[unit]
            v["moving"] = False
            state.active = {"unit": unit, "kind": "vehicle",
                            "actions": V.kind(state, unit).actions, "no_move": False}
            ev.append(Event("activated", {"unit": unit}))
            driver = state.driver(unit)
            assert driver is not None
            status = state.models[driver]["status"]
            netted = state.models[driver]["netted"]     # a netted driver: the vehicle stays
            state.models[driver]["netted"] = False
            if not state.models[driver]["activated"]:   # not laid low this turn (C.worsen)
                self._recover(state, driver, ev)
            if status != STANDING or v["wheels"] >= 2 or netted:
                state.active["no_move"] = True
            if status == STUNNED:
                state.active["over"] = True
            elif v["wheels"] == 1 and status == STANDING and not netted and \
                    not C.check(state, driver, rng, ev, "wheels"):
                V.drift(state, unit, rng, ev)
                state.active["over"] = True
            state.models[driver]["activated"] = True
        else:
            m = state.models[unit]
            grade = C.PTS.grades[m["grade"]]
            state.active = {"unit": unit, "kind": "model", "actions": grade.actions,
                            "shots": 0, "blows": 0, "no_move": False, "no_shoot": False,
                            "ammo_checked": False, "ammo_out": False, "drug": None,
                            "harpoon": None, "countered": []}
            ev.append(Event("activated", {"unit": unit}))
            status = m["status"]
            self._recover(state, unit, ev)
            if status == STUNNED:
                state.active["over"] = True
            if status == DOWN or m["netted"]:
                state.active["no_move"] = True
            m["netted"] = False
            for gear in ("reload", "net"):
                if m[gear] == "due":
                    m[gear] = "reloading"
            state.active["no_shoot"] = m["reload"] == "reloading"
        if state.active.get("over"):
            self._end_activation(state, rng, ev)

    def _recover(self, state: BandasState, mid: str, ev: list[Event]) -> None:
        """Heridas (see RULES.md): stunned becomes down; down stands up."""
        m = state.models[mid]
        if m["status"] == STUNNED:
            m["status"] = DOWN
            ev.append(Event("recovered", {"model": mid, "now": DOWN}))
        elif m["status"] == DOWN:
            m["status"] = STANDING
            ev.append(Event("recovered", {"model": mid, "now": STANDING}))

    def _end_activation(self, state: BandasState, rng: Rng, ev: list[Event]) -> None:
        a = state.active
        assert a is not None
        unit = a["unit"]
        if a["kind"] == "vehicle":
            state.vehicles[unit]["activated"] = True
        else:
            m = state.models[unit]
            m["activated"] = True
            for gear in ("reload", "net"):
                if m[gear] == "reloading":
                    m[gear] = ""
        state.active = None
        ev.append(Event("activation_over", {"unit": unit}))
        self._resume(state, rng, ev)

    def _resume(self, state: BandasState, rng: Rng, ev: list[Event]) -> None:
        for seat in range(state.seats):
            mine = [m for m in state.models.values() if m["seat"] == seat]
            if seat not in state.routed and all(m["status"] == OUT for m in mine):
                state.routed.append(seat)
                ev.append(Event("routed", {"seat": seat, "out": len(mine), "models": len(mine)}))
        if not self._decided(state, ev):
            self._next_seat(state, rng, ev)

    def resign(self, state: BandasState, seat: Seat) -> list[Event]:
        """A gang that gives up is routed at once (its models leave the fight)."""
        if state.result is not None:
            raise IllegalAction("the match is over")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalAction(f"no seat {seat!r}")
        if seat in state.routed:
            raise IllegalAction(f"seat {seat} is already routed")
        ev = [Event("resigned", {"seat": seat})]
        state.routed.append(seat)
        _drop_crates(state, seat, ev)
        if state.active is not None and self._owner(state, state.active["unit"]) == seat:
            state.active = None
        if self._decided(state, ev):
            return ev
        if state.active is None and state.order[state.cursor] == seat:
            # The next seat's turn may need a new initiative roll, and resign has no dice: the
            # next seat round the order is asked to go on.
            n = len(state.order)
            state.hold = next(state.order[(state.cursor + k) % n] for k in range(1, n)
                              if state.order[(state.cursor + k) % n] not in state.routed)
        return ev

    def _owner(self, state: BandasState, unit: str) -> int:
        return (state.vehicles.get(unit) or state.models[unit])["seat"]

    # ----- knowledge (no hidden information) ------------------------------------------------
    def view(self, state: BandasState, seat: Seat | None) -> dict[str, Json]:
        """Everything: the book has no hidden information."""
        out = state.to_dict()
        out.update(game=INFO.id, to_act=list(self.to_act(state)),
                   turn_limit=state.options.get("turn_limit") or W.table(state).turn_limit)
        return out

    def determinize(self, state: BandasState, seat: Seat | None, rng: Rng) -> BandasState:
        return state.clone()

    def outcome(self, state: BandasState) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        return Outcome(tuple(r["winners"]), r["reason"], draw=not r["winners"],
                       scores={int(s): v for s, v in r["scores"].items()})

    def seat_side(self, state: BandasState, seat: Seat) -> str:
        return state.sides[seat]

    def state_from_dict(self, data: Mapping[str, Json]) -> BandasState:
        return BandasState.from_dict(data)


def _drop_crates(state: BandasState, seat: int, ev: list[Event]) -> None:
    """A routed gang's models leave the fight: the crates they held drop where they stand
    (as out of action does), so the gangs still fighting can take them (see RULES.md)."""
    for mid, m in state.models.items():
        if m["seat"] == seat:
            C.drop_loot(state, mid, ev)


def _share(state: BandasState, seat: int) -> float:
    """The share of a gang's model points still in action (0 once routed)."""
    if seat in state.routed:
        return 0.0
    mine = [m for m in state.models.values() if m["seat"] == seat]
    total = sum(m["points"] for m in mine) or 1
    return round(sum(m["points"] for m in mine if m["status"] != OUT) / total, 4)


def _options(options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise BadSetup(f"unknown options: {sorted(unknown)}")
    out: dict[str, Any] = {}
    limit = options.get("turn_limit")
    if limit is not None:
        if type(limit) is not int or not 1 <= limit <= 50:
            raise BadSetup("turn_limit is a whole number from 1 to 50")
        out["turn_limit"] = limit
    if "gangs" in options:
        out["gangs"] = copy_plain(options["gangs"])
    return out
