"""Dynamit Joe: a Western gunfight in zones with activation chips and marksmen cards."""

from partida.engine import register
from partida.games.dynamit_joe.rules import INFO, DynamitJoe

GAME = register(DynamitJoe())

__all__ = ["GAME", "INFO", "DynamitJoe"]
