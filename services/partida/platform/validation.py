"""Checks of request fields shared by every service; failures are InvalidArgument naming the
field."""

from __future__ import annotations

from partida.platform.errors import InvalidArgument

MAX_ID = 128


def identifier(field: str, value: str, required: bool = True) -> str:
    """An id or idempotency key: printable, at most MAX_ID characters, present if required."""
    if not value:
        if required:
            raise InvalidArgument(f"{field} is required")
        return value
    if len(value) > MAX_ID:
        raise InvalidArgument(f"{field} is longer than {MAX_ID} characters")
    if not value.isprintable():
        raise InvalidArgument(f"{field} has unprintable characters")
    return value
