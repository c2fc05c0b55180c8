"""Errors raised by engines and the registry."""


class IllegalAction(Exception):
    """An action refused by the rules; the state is left exactly as it was."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownGame(KeyError):
    """No game is registered under the requested id."""


class BadSetup(ValueError):
    """A scenario, seat count or option that a game cannot start with."""
