"""All terminal I/O of the CLI: printing, reading a line, pausing."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from rich.console import Console, RenderableType


@dataclass
class Terminal:
    out: Console = field(default_factory=Console)
    err: Console = field(default_factory=lambda: Console(stderr=True))

    def show(self, renderable: RenderableType) -> None:
        self.out.print(renderable)

    def say(self, text: str, style: str | None = None) -> None:
        """Plain text: never read as rich markup (card names, ids and JSON may hold '[')."""
        self.out.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def error(self, text: str) -> None:
        self.err.print(f"error: {text}", style="bold red", markup=False, highlight=False,
                       soft_wrap=True)

    def read_line(self, prompt: str) -> str | None:
        """One line of input; None at the end of input. Ctrl-C is left to interrupt the
        command (cli.connect.ends_cleanly: exit 130), as it does anywhere else."""
        try:
            return self.out.input(prompt, markup=False)
        except EOFError:
            self.out.print()
            return None
        except KeyboardInterrupt:
            self.out.print()  # what is said next starts a line, not the prompt's
            raise

    @staticmethod
    def stdin_is_tty() -> bool:
        return sys.stdin.isatty()

    @staticmethod
    def stdout_is_tty() -> bool:
        return sys.stdout.isatty()

    @staticmethod
    def pause(seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)
