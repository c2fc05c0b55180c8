"""¿Pasarán?: the Spanish Civil War, July 1936 to 1939, in quarters on an area map of Spain."""

from partida.engine import register
from partida.games.pasaran.rules import INFO, Pasaran

GAME = register(Pasaran())

__all__ = ["GAME", "INFO", "Pasaran"]
