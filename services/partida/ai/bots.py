"""Which bots each game offers: its own (`partida.games.<id>.bots.BOTS`), plus the generic
random bot and, for every game, the ISMCTS search bot."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from partida.engine.bots import RandomBot

SEARCH_BOT = "ismcts"


@cache
def _game_bots(game_id: str) -> dict[str, Any]:
    try:
        module = importlib.import_module(f"partida.games.{game_id}.bots")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "BOTS", {}))


def bot_names(game_id: str) -> list[str]:
    return sorted({"random", *_game_bots(game_id), SEARCH_BOT})


def default_bot(game_id: str) -> str:
    return "heuristic" if "heuristic" in _game_bots(game_id) else "random"


def make_bot(game_id: str, name: str) -> Any:
    """A fresh bot instance; ISMCTS bots choose from a state, the others from a view."""
    if name == SEARCH_BOT:
        from partida.ai.ismcts import IsmctsBot
        return IsmctsBot()
    factory = {"random": RandomBot, **_game_bots(game_id)}.get(name)
    if factory is None:
        raise KeyError(f"no bot {name!r} for game {game_id!r}")
    return factory()
