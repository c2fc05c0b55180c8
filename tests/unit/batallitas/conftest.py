"""Fixtures for the Batallitas rule tests."""

import pytest

from partida.games.batallitas.content import Content, load


@pytest.fixture(scope="session")
def content() -> Content:
    return load()
