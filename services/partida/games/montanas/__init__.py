"""Fanhunter: Las Montañas de la Locura, the cooperative ship-defence game."""

from partida.engine import register
from partida.games.montanas.rules import INFO, Montanas

GAME = register(Montanas())

__all__ = ["GAME", "INFO", "Montanas"]
