"""The bots a game offers: `random` for every game, plus its `partida.games.<id>.bots.BOTS`."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from partida.engine.bots import Bot, RandomBot


def available_bots(game_id: str) -> dict[str, Callable[[], Bot]]:
    bots: dict[str, Callable[[], Bot]] = {"random": RandomBot}
    module_name = f"partida.games.{game_id}.bots"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:
            raise
        return bots
    bots.update(getattr(module, "BOTS", {}))
    return bots
