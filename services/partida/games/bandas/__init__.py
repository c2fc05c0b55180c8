"""Bandas: a gang skirmish on a continuous table in centimetres, with vehicles."""

from partida.engine import register
from partida.games.bandas.rules import INFO, Bandas

GAME = register(Bandas())

__all__ = ["GAME", "INFO", "Bandas"]
