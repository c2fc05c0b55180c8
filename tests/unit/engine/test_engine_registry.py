"""The game registry: register, get, all_games."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from partida.engine import GameInfo, Scenario, UnknownGame, all_games, get, register
from partida.engine import registry as registry_module


class Dummy:
    """Only `info` matters to the registry."""

    def __init__(self, gid: str) -> None:
        self.info = GameInfo(gid, gid.title(), (Scenario("s", "S", 1, 2),), False)


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A private copy of the registry, so test registrations never leak into other tests."""
    all_games()  # load the bundled games first
    games = copy.copy(registry_module._GAMES)
    monkeypatch.setattr(registry_module, "_GAMES", games)
    return games


def test_register_returns_the_game_and_get_finds_it(registry: dict[str, Any]) -> None:
    g = Dummy("zz_dummy")
    assert register(g) is g  # type: ignore[arg-type]
    assert get("zz_dummy") is g


def test_registering_the_same_object_twice_is_allowed(registry: dict[str, Any]) -> None:
    g = Dummy("zz_twice")
    register(g)  # type: ignore[arg-type]
    register(g)  # type: ignore[arg-type]
    assert get("zz_twice") is g


def test_registering_another_object_under_a_taken_id_raises(registry: dict[str, Any]) -> None:
    first = Dummy("zz_clash")
    register(first)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="zz_clash"):
        register(Dummy("zz_clash"))  # type: ignore[arg-type]
    assert get("zz_clash") is first


def test_a_bundled_game_cannot_be_replaced(registry: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        register(Dummy("montanas"))  # type: ignore[arg-type]
    assert get("montanas") is not None and not isinstance(get("montanas"), Dummy)


@pytest.mark.parametrize("gid", ["nope", "", "MONTANAS", "montanas "])
def test_get_unknown_raises_unknown_game(gid: str) -> None:
    with pytest.raises(UnknownGame):
        get(gid)
    with pytest.raises(KeyError):  # UnknownGame is a KeyError, for callers that expect one
        get(gid)


def test_all_games_is_sorted_by_id_and_includes_the_bundled_games(
        registry: dict[str, Any]) -> None:
    register(Dummy("aaa_first"))  # type: ignore[arg-type]
    ids = [g.info.id for g in all_games()]
    assert ids == sorted(ids)
    assert {"aaa_first", "montanas"} <= set(ids)
    assert all(get(i) is g for i, g in zip(ids, all_games(), strict=True))


def test_bundled_game_ids_match_their_info() -> None:
    for g in all_games():
        assert get(g.info.id) is g
        assert g.info.scenarios, f"{g.info.id} has no scenario"
        assert all(1 <= s.min_seats <= s.max_seats for s in g.info.scenarios)
