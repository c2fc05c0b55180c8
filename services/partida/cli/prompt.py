"""Reading a human's choice: a pure parser and a loop that re-prompts until it gets one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DEFAULT = "default"
QUIT = "quit"


@dataclass(frozen=True)
class Choice:
    """`index` (0-based) of the chosen action, or `special` = DEFAULT / QUIT."""

    index: int | None = None
    special: str | None = None


def parse_choice(text: str, count: int) -> Choice | None:
    """A numbered choice 1..count, 'd' (default) or 'q' (quit); None if it is neither."""
    word = text.strip().lower()
    if word in ("d", "default"):
        return Choice(special=DEFAULT)
    if word in ("q", "quit", "exit"):
        return Choice(special=QUIT)
    if word.isascii() and word.isdigit() and 1 <= int(word) <= count:
        return Choice(index=int(word) - 1)
    return None


def ask(read_line: Callable[[str], str | None], say: Callable[[str], None], prompt: str,
        count: int) -> Choice:
    """Ask until the answer parses; end of input (None from `read_line`) counts as quit."""
    while True:
        line = read_line(prompt)
        if line is None:
            return Choice(special=QUIT)
        choice = parse_choice(line, count)
        if choice is not None:
            return choice
        say(f"{line.strip()!r} is not a choice: type a number from 1 to {count}, "
            "'d' for the default action or 'q' to quit.")
