"""Reading a human's choice: a pure parser and a loop that re-prompts until it gets one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DEFAULT = "default"
QUIT = "quit"

# Exit status of a match left unfinished at the prompt (q, or the end of input), local or
# remote: not 0, the match was not played to its end (a script feeding `play` fewer answers
# than the match asks must see it), nor 1, nothing failed. Ctrl-C keeps 130.
LEFT = 3


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
    # A number longer than `count`'s is out of range: never converted (Python refuses to
    # convert one of thousands of digits, and a pasted one ended the command).
    if not (word.isascii() and word.isdigit()):
        return None
    digits = word.lstrip("0") or "0"
    if len(digits) <= len(str(count)) and 1 <= int(digits) <= count:
        return Choice(index=int(digits) - 1)
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
        said = line.strip()
        said = said if len(said) <= 40 else f"{said[:37]}..."
        say(f"{said!r} is not a choice: type a number from 1 to {count}, "
            "'d' for the default action or 'q' to quit.")
