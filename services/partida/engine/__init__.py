"""The engine contract: pure game logic with no I/O. Services, bots and tests use only this."""

from partida.engine.errors import BadSetup, IllegalAction, UnknownGame
from partida.engine.game import Game, State
from partida.engine.registry import all_games, dealt_sides, get, register
from partida.engine.rng import Draw, LocalRng, Rng, StreamRng, stream_value, stream_values
from partida.engine.types import (
    Action,
    Event,
    GameInfo,
    Json,
    Outcome,
    Scenario,
    Seat,
    copy_plain,
)

__all__ = [
    "Action", "BadSetup", "Draw", "Event", "Game", "GameInfo", "IllegalAction", "Json",
    "LocalRng", "Outcome", "Rng", "Scenario", "Seat", "State", "StreamRng", "UnknownGame",
    "all_games", "copy_plain", "dealt_sides", "get", "register", "stream_value",
    "stream_values",
]
