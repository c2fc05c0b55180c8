"""Fixtures for the CLI tests: a CliRunner over the typer app, and a reference match."""

import pytest
from typer.testing import CliRunner

from partida.cli.main import app
from partida.engine import get
from partida.engine.bots import play_match
from partida.games.montanas.bots import BOTS


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def invoke(runner):
    def run(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)
    return run


@pytest.fixture(scope="session")
def reference():
    """The all-heuristic 3-seat match on seed 1, played by the engine's own play_match."""
    state, record = play_match(get("montanas"), "standard",
                               [BOTS["heuristic"]() for _ in range(3)], 1)
    record.killed = state.killed  # for the tests' convenience
    return record
