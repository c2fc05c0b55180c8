"""Batallitas bots. They read only the view and the legal actions.

The heuristic bot rebuilds the table from its view (hands and decks are not in it and stay
empty) so it can ask the rules' own geometry about sight, cover and dice. It shoots where it
rolls the most dice, at the enemy closest to falling (focus fire), strikes in close combat
when it has the dice, turns to bring enemies into its frontal arc, walks towards its goal by
paths that keep it within command distance of its leader and end behind cover, opens doors
in its way, goes on alert when nobody is in reach, clears jams and pájaras, answers every
alert window and plays every card when the rules offer it (a card is only offered at its
moment), and pursues its scenario's objective: scenario 2's Fans fill their hands beside the
food columns and carry the goods off the board, scenario 3's Fanhunters run for the east
edge, everyone else closes with the enemy.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from partida.engine import Action, Rng
from partida.engine.bots import RandomBot
from partida.games.batallitas import shooting as F
from partida.games.batallitas.content import Pos, load
from partida.games.batallitas.geometry import (
    distance,
    front_cells,
    has_cover,
    in_arc,
    line_of_sight,
)
from partida.games.batallitas.grid import Field, Map
from partida.games.batallitas.movement import step_cost
from partida.games.batallitas.state import IN_PLAY, BatallitasState, Nose, attr
from partida.games.batallitas.world import field_of

_STATE_KEYS = frozenset(BatallitasState.__dataclass_fields__) - {"hands", "decks"}
_NEAR = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_FACING_OF = {(0, -1): "N", (1, 0): "E", (0, 1): "S", (-1, 0): "W"}
_GOODS_TO_CARRY = 3  # a Fan heads for the edge with this many products (best of 1-4 on a sample)
_TURN_RANGE = 6  # an enemy this near is faced rather than walked to


def table(view: Mapping[str, Any]) -> BatallitasState:
    """The match as the view shows it: everything on the table, no hands or decks."""
    data = {k: v for k, v in view.items() if k in _STATE_KEYS}
    data["hands"], data["decks"] = [[] for _ in view["sides"]], [[] for _ in view["sides"]]
    return BatallitasState.from_dict(data)


_WALKS: dict[tuple[Any, ...], dict[Pos, int]] = {}


def _walk(state: BatallitasState, m: Map, goals: frozenset[Pos]) -> dict[Pos, int]:
    """Steps from every cell to the nearest goal cell over the bare map, doors open (a closed
    door in the way is opened on arrival), noses ignored; kept for the map and goals."""
    key = (state.scenario, tuple(tuple(b) for b in state.boards), goals)
    if key not in _WALKS:
        if len(_WALKS) > 512:
            _WALKS.clear()
        _WALKS[key] = _distances(m, goals)
    return _WALKS[key]


def _distances(m: Map, goals: frozenset[Pos]) -> dict[Pos, int]:
    f = Field(m, noses=frozenset(), open_doors=frozenset(d.id for d in m.doors), blasts={},
              clutter=frozenset())
    dist = {g: 0 for g in goals}
    todo = deque(goals)
    while todo:
        p = todo.popleft()
        for dx, dy in _NEAR:
            q = (p[0] + dx, p[1] + dy)
            if q in dist or not m.inside(q) or f.blocks_step(q) or not _open(f, p, q):
                continue
            dist[q] = dist[p] + 1
            todo.append(q)
    return dist


def _open(f: Field, p: Pos, q: Pos) -> bool:
    """No wall between neighbours; a diagonal needs one open side route (Movement)."""
    if p[0] == q[0] or p[1] == q[1]:
        return not f.shut_between(p, q)
    return any(not f.blocks_step(c) and not f.shut_between(p, c) and not f.shut_between(c, q)
               for c in ((q[0], p[1]), (p[0], q[1])))


class HeuristicBot:
    """Scores each legal action and takes the best; see the module docstring."""

    def choose(self, view: Mapping[str, Any], actions: Sequence[Action], rng: Rng) -> str:
        ids = [a.id for a in actions]
        if len(ids) == 1:
            return ids[0]
        if all(a.startswith("board:") for a in ids):  # scenario 6's map is still being laid
            return ids[rng.below(len(ids))]
        state = table(view)
        seat = view["to_act"][0]
        me = state.sides[seat]
        descriptions = {a.id: a.description for a in actions}
        scored = [(self._score(state, me, a, descriptions[a]), -i, a)
                  for i, a in enumerate(ids)]
        return max(scored)[2]

    # ----- scoring -----------------------------------------------------------------------------
    def _score(self, state: BatallitasState, me: str, aid: str, text: str) -> float:
        verb, _, rest = aid.partition(":")
        f = field_of(state)
        if state.prompts:
            return _prompt_score(state, f, me, verb, rest, text)
        if verb in ("deploy", "atrophy", "leader", "leader_type", "grenades"):
            return _setup_score(state, f, me, verb, rest)
        if verb == "activate":
            return -_nearest_enemy(state, state.members(int(rest)), me)
        if verb == "act":  # those still to come on first, while the entry cells are free
            n = state.nose(rest)
            if n.cell is None:
                return 20.0
            return 10.0 - _nearest_enemy(state, [n], me) - (5 if n.id in _leaders(state) else 0)
        if verb == "end_squad":
            return -100.0
        if state.active_nose is None:  # a card played in the squad phase, between noses
            return 5.0 + _target_value(state, me, rest) if verb == "play" else 0.0
        n = state.nose(state.active_nose)
        return _nose_score(state, f, me, n, verb, rest)


def _prompt_score(state: BatallitasState, f: Field, me: str, verb: str, rest: str,
                  text: str) -> float:
    if verb == "alert" and ":" in rest:
        nid, wid = rest.split(":")
        p = state.prompts[-1]
        target = state.nose(p["target"])
        assert target.cell is not None
        return 5.0 + F.shot_dice(state, f, state.nose(nid), target.cell, alert=True,
                                 w=F.weapon(wid))[0]
    if verb in ("play", "reroll", "strategy", "face"):
        return 3.0 + _target_value(state, me, rest)
    if verb == "scatter":  # where it lands: enemies hurt count for, friends against
        cell = tuple(int(v) for v in text.rsplit(" ", 1)[1].split(","))
        return _blast_value(state, me, (cell[0], cell[1]))
    if verb == "pick":
        return 1.0 + _target_value(state, me, rest)
    return 0.0


def _target_value(state: BatallitasState, me: str, rest: str) -> float:
    """A card, pick or target naming an enemy nose scores more; one naming a friend less."""
    for part in rest.split(":"):
        if part.startswith("s") and "." in part:
            try:
                n = state.nose(part)
            except KeyError:
                continue
            return 1.0 if state.side_of(n) != me else -1.0
        if "," in part:
            x, y = (int(v) for v in part.split(","))
            return _blast_value(state, me, (x, y)) / 4
    return 0.0


def _blast_value(state: BatallitasState, me: str, cell: Pos) -> float:
    near = [n for n in state.in_play() if n.cell is not None and distance(n.cell, cell) <= 1]
    return sum(2.0 if state.side_of(n) != me else -3.0 for n in near)


def _setup_score(state: BatallitasState, f: Field, me: str, verb: str, rest: str) -> float:
    if verb == "atrophy":  # spare what the nose fights with
        return {"muscles": 3, "combat": 2, "actions": 0, "shooting": 1, "pupae": -1}.get(
            rest.split(":")[1], 0)
    if verb == "deploy":
        _, where, facing = rest.split(":")
        x, y = (int(v) for v in where.split(","))
        m = f.map
        centre = (m.width // 2, m.height // 2)
        faces_in = in_arc((x, y), facing, centre) or (x, y) == centre
        return -distance((x, y), centre) / 4 + (1.0 if faces_in else 0.0) \
            + _cover_count(f, (x, y)) / 2
    return 0.0


def _cover_count(f: Field, p: Pos) -> int:
    return sum(1 for dx, dy in _NEAR if f.map.inside((p[0] + dx, p[1] + dy))
               and f.terrain((p[0] + dx, p[1] + dy)) in ("minor", "major"))


def _nose_score(state: BatallitasState, f: Field, me: str, n: Nose, verb: str,
                rest: str) -> float:
    if verb in ("fire", "shot"):
        wid = rest.split(":")[0] if verb == "fire" else (state.burst or {}).get("weapon", "")
        where = rest.split(":")[-1]
        x, y = (int(v) for v in where.split(","))
        return _fire_score(state, f, me, n, wid, (x, y))
    if verb == "attack":
        foe = state.at(_cell(rest.split(":")[1]))
        return 12.0 + attr(n, "combat") + _focus(foe) if foe is not None else 0.0
    if verb == "sweep":
        return 11.0 + attr(n, "combat")
    if verb == "take":  # the product the side is shortest of
        if sum(n.goods.values()) >= _GOODS_TO_CARRY:
            return -5.0
        have = state.counters.get(f"{rest}_out", 0) + sum(m.goods.get(rest, 0)
                                                           for m in state.in_play())
        return 30.0 - have
    if verb == "leave":
        exit_edge = load().scenario(state.scenario).forces[state.squads[n.squad].force].exit_edge
        return 30.0 if exit_edge is not None or n.goods else -10.0
    if verb == "trolley":
        return 6.0 if rest != "drop" else -5.0
    if verb in ("unjam", "reload"):
        return 4.0
    if verb == "rally":
        return 3.5
    if verb == "alert":
        return 1.5 if not _enemy_in_reach(state, f, me, n) else 0.5
    if verb in ("open", "close"):
        return 2.5 if verb == "open" else -1.0
    if verb in ("move", "enter"):
        to = _cell(rest.split(":")[-1])
        return _move_score(state, f, me, n, to)
    if verb == "turn":
        return _turn_score(state, me, n, rest)
    if verb == "play":
        return 5.0 + _target_value(state, me, rest)
    if verb == "stop":
        return 0.2
    return 1.0 if verb == "done" else 0.0


def _cell(text: str) -> Pos:
    x, y = text.split(",")
    return (int(x), int(y))


def _focus(foe: Nose) -> float:
    """Focus fire: the fewer pupae left, the better the target."""
    return 3.0 / max(1, foe.pupae)


def _fire_score(state: BatallitasState, f: Field, me: str, n: Nose, wid: str,
                cell: Pos) -> float:
    w = F.weapon(wid)
    if w.area:
        value = _blast_value(state, me, cell)
        return 8.0 + value if value > 0 else -1.0
    foe = state.at(cell)
    if foe is None or state.side_of(foe) == me:
        return -1.0
    dice, _ = F.shot_dice(state, f, n, cell, alert=False, w=w)
    return 8.0 + dice + _focus(foe)


def _enemies(state: BatallitasState, me: str) -> list[Nose]:
    return [m for m in state.in_play() if state.side_of(m) != me and m.cell is not None]


def _enemy_in_reach(state: BatallitasState, f: Field, me: str, n: Nose) -> bool:
    assert n.cell is not None or n.status != IN_PLAY
    if n.cell is None:
        return False
    return any(distance(n.cell, e.cell) <= 6 and line_of_sight(f, n.cell, e.cell)
               for e in _enemies(state, me) if e.cell is not None)


def _nearest_enemy(state: BatallitasState, noses: list[Nose], me: str) -> float:
    cells = [n.cell for n in noses if n.cell is not None]
    foes = [e.cell for e in _enemies(state, me) if e.cell is not None]
    if not cells or not foes:
        return 50.0
    return float(min(distance(a, b) for a in cells for b in foes))


def _leaders(state: BatallitasState) -> set[str]:
    return {sq.leader for sq in state.squads if sq.leader}


def _errand(state: BatallitasState, me: str, n: Nose) -> bool:
    """The nose's goal is a place (an exit, the shelves), not the enemy."""
    sc = load().scenario(state.scenario)
    return sc.forces[state.squads[n.squad].force].exit_edge is not None \
        or (bool(sc.goal) and me == "rebel")


def _goals(state: BatallitasState, f: Field, me: str, n: Nose) -> frozenset[Pos]:
    """Where the nose wants to be, by its side's aim in the scenario."""
    m = f.map
    sc = load().scenario(state.scenario)
    force = sc.forces[state.squads[n.squad].force]
    if force.exit_edge is not None:
        return _ways_out(f, (force.exit_edge,))
    if sc.goal and me == "rebel":
        if sum(n.goods.values()) >= _GOODS_TO_CARRY:
            return _ways_out(f, ("north", "east", "south", "west"))
        columns = m.with_feature("food_column")
        return frozenset((c[0] + dx, c[1] + dy) for c in columns for dx, dy in _NEAR
                         if m.inside((c[0] + dx, c[1] + dy)))
    foes = [e.cell for e in _enemies(state, me) if e.cell is not None]
    return frozenset(foes) if foes else frozenset(m.positions())


def _ways_out(f: Field, sides: tuple[str, ...]) -> frozenset[Pos]:
    """Border cells of those sides with no wall on the outer edge."""
    return frozenset(p for side in sides for p in f.map.edge_cells(side)
                     if not f.shut(f.map.outer_edge(p, side)))


def _move_score(state: BatallitasState, f: Field, me: str, n: Nose, to: Pos) -> float:
    walk = _walk(state, f.map, _goals(state, f, me, n))
    far = 10 * (f.map.width + f.map.height)
    now = walk.get(n.cell, far) if n.cell is not None else far
    then = walk.get(to, far)
    extra = 0 if n.cell is None else \
        step_cost(f, n.cell, n.facing, to, command="command" in n.knacks) - 1
    score = 2.0 + 1.5 * (now - then) - 0.6 * extra  # a step back or aside costs double
    sq = state.squads[n.squad]
    lead = state.nose(sq.leader) if sq.leader else None
    if lead is not None and lead.id != n.id and lead.cell is not None:
        score -= 2.0 if distance(to, lead.cell) > sq.command else 0.0
    foes = [e.cell for e in _enemies(state, me) if e.cell is not None]
    if any(has_cover(f, e, to) for e in foes if distance(e, to) <= 8):
        score += 0.5
    return score


def _turn_score(state: BatallitasState, me: str, n: Nose, facing: str) -> float:
    """Bring the nearest enemy into the frontal arc, if it is not in it already."""
    foes = [e.cell for e in _enemies(state, me) if e.cell is not None]
    if n.cell is None:
        return 0.0
    if _errand(state, me, n):  # an objective other than the enemy: face the way there
        return _heading_score(state, me, n, facing)
    near = min(foes, key=lambda c: distance(c, n.cell)) if foes else None  # type: ignore[arg-type]
    if near is None or distance(n.cell, near) > _TURN_RANGE:
        return _heading_score(state, me, n, facing)
    if in_arc(n.cell, n.facing, near):
        return -1.0
    if not in_arc(n.cell, facing, near):
        return 0.0
    close = distance(n.cell, near) <= _TURN_RANGE  # close: face it rather than walk
    return 4.5 if close else 2.2


def _heading_score(state: BatallitasState, me: str, n: Nose, facing: str) -> float:
    """Turn to walk forward (one point a step) rather than aside or back (two)."""
    assert n.cell is not None
    f = field_of(state)
    walk = _walk(state, f.map, _goals(state, f, me, n))
    far = 10 * (f.map.width + f.map.height)
    here = walk.get(n.cell, far)

    def gain(way: str) -> int:
        return max((here - walk.get(c, far) for c in front_cells(n.cell, way)  # type: ignore[arg-type]
                    if f.map.inside(c) and not f.blocks_step(c)), default=0)
    better = gain(facing) - gain(n.facing)
    return 2.0 + 1.5 * better - 0.4 if better > 0 else 0.0


BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}
