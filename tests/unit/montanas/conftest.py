"""Fixtures for the Las Montañas rule tests."""

import pytest

from partida.games.montanas import Montanas


@pytest.fixture
def game() -> Montanas:
    return Montanas()
