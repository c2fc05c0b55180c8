"""Errors raised by engines and the registry."""


class IllegalAction(Exception):
    """An action refused by the rules; the state is left exactly as it was."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RefusedItsOwnAction(RuntimeError):
    """A game refused an action it had listed or validated: a bug in the game, not a
    player's illegal move. The rules service answers INTERNAL for it (a caller that takes
    a refusal for "the match moved on", as a bot does, would otherwise hide the bug)."""


class UnknownGame(KeyError):
    """No game is registered under the requested id."""


class BadSetup(ValueError):
    """A scenario, seat count or option that a game cannot start with."""
