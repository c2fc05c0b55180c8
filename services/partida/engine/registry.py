"""Which games exist: a name -> engine map that services and tests iterate over."""

from __future__ import annotations

import functools

from partida.engine.errors import UnknownGame
from partida.engine.game import Game

_GAMES: dict[str, Game] = {}  # type: ignore[type-arg]


def register(game: Game) -> Game:  # type: ignore[type-arg]
    """Make `game` available under `game.info.id`; registering the same id twice is an error."""
    gid = game.info.id
    if gid in _GAMES and _GAMES[gid] is not game:
        raise ValueError(f"game {gid!r} is already registered")
    _GAMES[gid] = game
    return game


def get(game_id: str) -> Game:  # type: ignore[type-arg]
    _load_builtin()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


@functools.cache
def dealt_sides(game_id: str, scenario_id: str, seats: int) -> tuple[str, ...]:
    """Game.dealt_sides of a registered game, worked out once per table; () for a game
    not registered (matchmaking's tests make some up)."""
    try:
        game = get(game_id)
    except UnknownGame:
        return ()
    return game.dealt_sides(scenario_id, seats)


def all_games() -> list[Game]:  # type: ignore[type-arg]
    _load_builtin()
    return [_GAMES[k] for k in sorted(_GAMES)]


def _load_builtin() -> None:
    import partida.games  # noqa: F401  (importing registers the bundled games)
