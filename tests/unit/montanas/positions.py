"""Builders of Las Montañas positions and a scripted Rng.

Helpers that build Las Montañas positions directly and script the dice."""

from __future__ import annotations

from collections.abc import Iterable

from partida.engine import Rng
from partida.games.montanas.content import load
from partida.games.montanas.state import PLAY, Monster, MontanasState


class ScriptedRng(Rng):
    """Hands out the given results in order (each checked against its range); fails if
    the rules ask for more randomness than the test scripted."""

    def __init__(self, results: Iterable[int] = ()) -> None:
        super().__init__()
        self.results = list(results)

    def next_u64(self) -> int:  # pragma: no cover - below() is overridden
        raise AssertionError("unused")

    def below(self, n: int, kind: str = "below") -> int:
        assert self.results, f"the rules asked for an unscripted {kind} (n={n})"
        value = self.results.pop(0)
        # Scripts give die faces 1..n for dice and 0-based indices for everything else.
        result = value - 1 if kind[:1] == "d" and kind[1:].isdigit() else value
        assert 0 <= result < n, f"scripted {value} is out of range for {kind} n={n}"
        return result


def dice(*faces: int) -> ScriptedRng:
    return ScriptedRng(faces)


CONTENT = load()
SHIP = CONTENT.alley_squares  # the square number that means "inside the ship"


def card_of(kind: str, band: str | None = None, terrain: str | None = None, nth: int = 0) -> int:
    """The id of the nth card of a kind in the deck list."""
    ids = [c.id for c in CONTENT.cards
           if c.kind == kind and c.band == band and c.terrain == terrain]
    return ids[nth]


def position(
    seats: int = 1,
    explorers: dict[int, list[int]] | None = None,
    monsters: list[tuple[str, int, int] | tuple[str, int, int, int]] = (),
    hands: list[list[int]] | None = None,
    destroyed: Iterable[int] = (),
    barricades: dict[int, str] | None = None,
    pool: list[str] | None = None,
    phase: str = PLAY,
    active: int = 0,
) -> MontanasState:
    """A position in the middle of a turn. `explorers` maps section -> pawns per seat;
    monsters are (kind, alley, square[, life])."""
    ex = [[0] * seats for _ in range(6)]
    for section, per_seat in (explorers or {1: [1] * seats}).items():
        ex[section - 1] = list(per_seat)
    ms = []
    for i, spec in enumerate(monsters):
        kind, alley, square = spec[:3]
        life = spec[3] if len(spec) == 4 else CONTENT.monster_kind(kind).life
        ms.append(Monster(i, kind, life, alley, square))
    hands = [list(h) for h in hands] if hands else [[] for _ in range(seats)]
    in_hands = {c for h in hands for c in h}
    deck = [c.id for c in CONTENT.cards if c.id not in in_hands]
    bar: list[str | None] = [None] * 6
    for section, facing in (barricades or {}).items():
        bar[section - 1] = facing
    return MontanasState(
        seats=seats, scenario="standard", teams=[[] for _ in range(seats)], explorers=ex,
        destroyed=[i + 1 in set(destroyed) for i in range(6)], barricades=bar,
        monsters=ms, pool=list(pool if pool is not None else ["fast"] * 3), deck=deck,
        discard=[], hands=hands, active=active, phase=phase, next_monster_id=len(ms),
    )



def monster(state: MontanasState, mid: int) -> Monster | None:
    return next((m for m in state.monsters if m.id == mid), None)
