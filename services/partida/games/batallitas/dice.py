"""Dice rolls: pools of d6 succeeding on 5+, the infernal die, modifiers ("Dice rolls",
"The infernal die", "Dice modifiers")."""

from __future__ import annotations

from dataclasses import dataclass

from partida.engine import Rng

SUCCESS = 5
CRITICAL = 6
SCREW_UP = 1


@dataclass(frozen=True)
class Roll:
    """One roll: the pool's dice, and the infernal die for attack rolls (None otherwise)."""

    dice: tuple[int, ...]
    infernal: int | None = None

    @property
    def successes(self) -> int:
        return sum(d >= SUCCESS for d in self.dice)

    @property
    def success(self) -> bool:
        return self.successes > 0

    @property
    def critical(self) -> bool:
        return self.success and self.infernal == CRITICAL

    @property
    def screw_up(self) -> bool:
        return not self.success and self.infernal == SCREW_UP


def pool(base: int, *modifiers: int) -> int:
    """Dice left after modifiers; zero means the roll is not made."""
    return max(0, base + sum(modifiers))


def roll(rng: Rng, dice: int, *, infernal: bool = False) -> Roll | None:
    """Roll `dice` d6 (plus the infernal die for shooting and close combat); None at zero dice."""
    if dice <= 0:
        return None
    pool_dice = tuple(rng.d6() for _ in range(dice))
    return Roll(pool_dice, rng.d6() if infernal else None)
