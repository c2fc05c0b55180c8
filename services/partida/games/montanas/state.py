"""The state of a Las Montañas match: plain data, cheap to clone, lossless to serialize."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

# Phases of a match, in the order the rulebook's set-up and turn sequence visits them.
DEPLOY, BARRICADE, DISCARD, EXCHANGE, REPLY, PLAY, REDEPLOY, OVER = (
    "deploy", "barricade", "discard", "exchange", "reply", "play", "redeploy", "over"
)


@dataclass
class Monster:
    """A monster on the board. `square` counts from the access edge; `square == ship` (the
    alley length) means it is inside the ship, at section `alley`."""

    id: int
    kind: str
    life: int
    alley: int
    square: int

    def clone(self) -> Monster:
        return Monster(self.id, self.kind, self.life, self.alley, self.square)


@dataclass
class MontanasState:
    seats: int
    scenario: str
    teams: list[list[str]]                 # per seat, the explorer teams it controls
    explorers: list[list[int]]             # [section-1][seat] -> pawns standing there
    destroyed: list[bool]                  # per section
    barricades: list[str | None]           # per section: "front", "side" or None
    monsters: list[Monster]
    pool: list[str]                        # face-down tiles, top first (hidden order)
    deck: list[int]                        # card ids, top first (hidden order)
    discard: list[int]
    hands: list[list[int]]
    active: int
    phase: str
    turn: int = 1
    killed: int = 0
    next_monster_id: int = 0
    immobilized: list[str] = field(default_factory=list)   # bands frozen at the next move
    removed_specials: list[str] = field(default_factory=list)
    # Per-phase bookkeeping: who places next, exchanges used, a pending proposal, ...
    pending: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None

    def clone(self) -> MontanasState:
        return MontanasState(
            seats=self.seats,
            scenario=self.scenario,
            teams=[list(t) for t in self.teams],
            explorers=[list(s) for s in self.explorers],
            destroyed=list(self.destroyed),
            barricades=list(self.barricades),
            monsters=[m.clone() for m in self.monsters],
            pool=list(self.pool),
            deck=list(self.deck),
            discard=list(self.discard),
            hands=[list(h) for h in self.hands],
            active=self.active,
            phase=self.phase,
            turn=self.turn,
            killed=self.killed,
            next_monster_id=self.next_monster_id,
            immobilized=list(self.immobilized),
            removed_specials=list(self.removed_specials),
            pending=_copy_plain(self.pending),
            result=None if self.result is None else dict(self.result),
        )

    def to_dict(self) -> dict[str, Any]:
        # A detached copy made by clone(); far cheaper than dataclasses.asdict's deep walk.
        data = dict(self.clone().__dict__)
        data["monsters"] = [m.__dict__ for m in data["monsters"]]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MontanasState:
        unknown = set(data) - _FIELDS
        if unknown:
            raise ValueError(f"unknown state fields: {sorted(unknown)}")
        values = dict(data)
        values["monsters"] = [Monster(**m) for m in data["monsters"]]
        return cls(**values).clone()  # the clone detaches it from `data`

    # Small derived facts used throughout the rules.
    def pawns_of(self, seat: int) -> int:
        return sum(section[seat] for section in self.explorers)

    def pawns_total(self) -> int:
        return sum(sum(section) for section in self.explorers)

    def seats_with_pawns(self) -> list[int]:
        return [s for s in range(self.seats) if self.pawns_of(s) > 0]


_FIELDS = {f.name for f in fields(MontanasState)}


def _copy_plain(value: Any) -> Any:
    """Copy JSON-plain containers (and leave dataclass instances to their own clone)."""
    if isinstance(value, dict):
        return {k: _copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_plain(v) for v in value]
    if isinstance(value, Monster):
        return value.clone()
    return value
