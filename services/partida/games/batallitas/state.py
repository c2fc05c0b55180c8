"""The state of a Batallitas match: noses, squads, markers, hands, the initiative bag, counters.

Plain data only (JSON-plain values inside small dataclasses): `clone` copies by hand, which is
far cheaper than a deep copy, and `to_dict`/`from_dict` are lossless.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from partida.engine import copy_plain
from partida.games.batallitas.content import Pos

# Phases. SETUP: set-up choices (leader type, atrophy, grenades, deployment); SQUAD: the active
# side picks a nose of the activated squad (or ends the squad phase); NOSE: a nose's action
# phase; CHOOSE: the side of a drawn initiative marker picks which squad to activate.
SETUP, CHOOSE, SQUAD, NOSE, OVER = "setup", "choose", "squad", "nose", "over"
# TURN_START: a new turn's card windows are open before the first marker is drawn.
TURN_START = "turn_start"
# STRATEGY: before a marker is drawn, a side may activate a squad by the strategy knack.
STRATEGY = "strategy"

# A nose's standing.
RESERVE, IN_PLAY, DEAD, GONE = "reserve", "in_play", "dead", "gone"

ATTRIBUTES = ("actions", "shooting", "combat", "muscles", "pupae")



@dataclass
class Nose:
    """One nose. `attrs` are its attributes after set-up choices (atrophy); `pupae` what is left."""

    id: str
    squad: int
    kind: str  # "<squad id>/<nose spec id>" in content/squads.json
    name: str
    attrs: dict[str, int]
    pupae: int
    knacks: list[str]
    flaws: list[str]
    hates: str | None
    weapons: list[str]
    armour: str | None
    grenades: dict[str, int] = field(default_factory=dict)  # weapon id -> count
    ammo: dict[str, int] = field(default_factory=dict)  # heavy weapon -> shots in the magazine
    spares: dict[str, int] = field(default_factory=dict)  # heavy weapon -> spare magazines
    jammed: list[str] = field(default_factory=list)
    status: str = RESERVE
    pos: list[int] | None = None
    facing: str = "N"
    pajara: bool = False
    alert: bool = False
    spent: int = 0  # own points spent since the squad was activated
    done: bool = False  # its nose action phase is over for this activation
    group: str | None = None  # clumsy: the group of the cost table chosen this turn
    overheats: int = 0  # flamethrower screw-ups so far
    # temporary modifiers from event cards: {"card", "attrs": {attr: delta}, "flaws": [...],
    # "until": "turn_end" | "activation"} (see `attr`, `has_flaw`, turn.expire_mods)
    mods: list[dict[str, Any]] = field(default_factory=list)
    goods: dict[str, int] = field(default_factory=dict)  # scenario 2: "snacks", "beers" carried
    trolley: bool = False  # scenario 2: pushing a shopping trolley (the goods are inside)
    edge: str | None = None  # an entry edge of its own (¡¡Envíen Refuerzos!!: the foe picks it)
    role: str | None = None  # scenario 4: "band", "owner", "leader" (public)
    stowed: list[str] = field(default_factory=list)  # scenario 4: the band's weapons, not at hand

    @property
    def cell(self) -> Pos | None:
        return None if self.pos is None else (self.pos[0], self.pos[1])

    def clone(self) -> Nose:
        return Nose(**{f: copy_plain(getattr(self, f)) for f in _NOSE_FIELDS})


def attr(n: Nose, name: str) -> int:
    """An attribute as it stands now: the printed value after set-up, plus the temporary
    modifiers of event cards."""
    value = n.attrs[name] + sum(m["attrs"].get(name, 0) for m in n.mods)
    return max(0, value - burden(n)) if name == "actions" else value


def burden(n: Nose) -> int:
    """Scenario 2, Shopping: −1 Actions per product carried, or −1 in all with a trolley."""
    return 1 if n.trolley else sum(n.goods.values())


def has_flaw(n: Nose, flaw: str) -> bool:
    return flaw in n.flaws or any(flaw in m.get("flaws", ()) for m in n.mods)


@dataclass
class Squad:
    """One squad in the match. `force` indexes the scenario's forces it came from."""

    index: int
    spec: str  # squad id in content/squads.json
    side: str
    family: str
    force: int
    leader: str | None = None  # current leader's nose id
    original_leader: str | None = None
    activated: bool = False
    from_turn: int = 1
    command: int = 6
    edge: str | None = None  # the entry edge once its first nose has entered
    pool_owner: str | None = None  # the leader whose points are shared this activation
    pool_spent: int = 0

    def clone(self) -> Squad:
        return Squad(**{f: getattr(self, f) for f in _SQUAD_FIELDS})


@dataclass
class BatallitasState:
    scenario: str
    seats: int
    sides: list[str]  # seat -> side
    options: dict[str, Any]
    squads: list[Squad]
    noses: list[Nose]
    phase: str = SETUP
    turn: int = 0
    bag: list[str] = field(default_factory=list)  # initiative markers still in the hat (sides)
    active_squad: int | None = None
    active_nose: str | None = None
    drawn: str | None = None  # the side of the marker just drawn (phase CHOOSE)
    setup: list[dict[str, Any]] = field(default_factory=list)  # set-up choices still to make
    hands: list[list[str]] = field(default_factory=list)  # per seat: event card ids (hidden)
    decks: list[list[str]] = field(default_factory=list)  # per seat: the rest (hidden order)
    markers: list[dict[str, Any]] = field(default_factory=list)  # kind, pos, face_down, owner
    open_doors: list[int] = field(default_factory=list)  # doors open whole
    open_leaves: list[list[int]] = field(default_factory=list)  # [door, leaf]: partly open
    open_flaps: list[list[int]] = field(default_factory=list)  # flap cells open
    boards: list[list[int]] = field(default_factory=list)  # scenario 6: [board, col, row] placed
    blasts: list[dict[str, Any]] = field(default_factory=list)  # pos, kind, squad
    burst: dict[str, Any] | None = None  # a burst under way: nose, weapon, left, last
    pending: dict[str, Any] | None = None  # an attack roll between its card windows (cards.py)
    prompts: list[dict[str, Any]] = field(default_factory=list)  # interrupt decisions, top last
    counters: dict[str, int] = field(default_factory=dict)  # e.g. kills per side
    result: dict[str, Any] | None = None

    def clone(self) -> BatallitasState:
        out = BatallitasState(**{f: copy_plain(getattr(self, f)) for f in _PLAIN_FIELDS},
                              squads=[s.clone() for s in self.squads],
                              noses=[n.clone() for n in self.noses])
        return out

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {f: copy_plain(getattr(self, f)) for f in _PLAIN_FIELDS}
        data["squads"] = [{f: getattr(s, f) for f in _SQUAD_FIELDS} for s in self.squads]
        data["noses"] = [{f: copy_plain(getattr(n, f)) for f in _NOSE_FIELDS}
                         for n in self.noses]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BatallitasState:
        unknown = set(data) - _STATE_FIELDS
        if unknown:
            raise ValueError(f"unknown state fields: {sorted(unknown)}")
        values = {f: copy_plain(data[f]) for f in _PLAIN_FIELDS if f in data}
        return cls(**values,
                   squads=[Squad(**dict(s)) for s in data["squads"]],
                   noses=[Nose(**copy_plain(dict(n))) for n in data["noses"]])

    # --- look-ups ---------------------------------------------------------------------
    def nose(self, nid: str) -> Nose:
        for n in self.noses:
            if n.id == nid:
                return n
        raise KeyError(nid)

    def seat_of(self, side: str) -> int:
        return self.sides.index(side)

    def side_of(self, nose: Nose) -> str:
        return self.squads[nose.squad].side

    def members(self, squad: int) -> list[Nose]:
        return [n for n in self.noses if n.squad == squad]

    def in_play(self) -> list[Nose]:
        return [n for n in self.noses if n.status == IN_PLAY]

    def at(self, p: Pos) -> Nose | None:
        for n in self.noses:
            if n.status == IN_PLAY and n.cell == p:
                return n
        return None

    def alive(self, squad: int) -> bool:
        """A squad still counts while any nose is in play or waiting to enter."""
        return any(n.status in (IN_PLAY, RESERVE) for n in self.members(squad))


_NOSE_FIELDS = tuple(f.name for f in fields(Nose))
_SQUAD_FIELDS = tuple(f.name for f in fields(Squad))
_STATE_FIELDS = {f.name for f in fields(BatallitasState)}
_PLAIN_FIELDS = tuple(f for f in (x.name for x in fields(BatallitasState))
                      if f not in ("squads", "noses"))
