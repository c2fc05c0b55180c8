"""Fanhunter Batallitas: squad skirmishes on square-cell boards with initiative markers, action
points, line of sight, alert fire and event cards."""

from partida.engine import register
from partida.games.batallitas.rules import INFO, Batallitas

GAME = register(Batallitas())

__all__ = ["GAME", "INFO", "Batallitas"]
