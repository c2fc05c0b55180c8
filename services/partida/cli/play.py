"""`partida play`: a match in the terminal, humans and bots taking turns on the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from partida.cli.match import LocalMatch, describe
from partida.cli.prompt import DEFAULT, QUIT, ask
from partida.cli.render import Renderer
from partida.cli.terminal import Terminal
from partida.engine import Action, Event, Rng, Seat
from partida.engine.bots import Bot

MAX_STEPS = 100_000  # as partida.engine.bots.play_match


@dataclass(frozen=True)
class BotSeat:
    name: str
    bot: Bot
    rng: Rng  # private to the bot, so its choices never touch the match stream


class StepLimit(RuntimeError):
    """The match did not end within MAX_STEPS actions."""


class LocalPlay:
    """Runs one match to its end (True) or until a human quits (False)."""

    def __init__(self, term: Terminal, match: LocalMatch, renderer: Renderer,
                 bots: Mapping[Seat, BotSeat], pause: float = 0.0) -> None:
        self.term, self.match, self.renderer = term, match, renderer
        self.bots, self.pause = bots, pause
        self.narrator = renderer.narrator()
        humans = [s for s in range(match.record.seats) if s not in bots]
        # Whose eyes the table is shown through: the only human, else a spectator.
        self.observer: Seat | None = humans[0] if len(humans) == 1 else None
        self.all_bots = not humans

    def run(self) -> bool:
        self.show_board()
        for _ in range(MAX_STEPS):
            seat = self.match.to_act()
            if seat is None:
                return True
            actions = self.match.legal_actions(seat)
            view = self.match.view(seat)
            self.narrator.learn(view)
            if seat in self.bots:
                b = self.bots[seat]
                action_id = b.bot.choose(view, actions, b.rng)
                who = f"Seat {seat} ({b.name} bot)"
            else:
                chosen = self.ask_human(seat, view, actions)
                if chosen is None:
                    return False
                action_id, who = chosen, f"Seat {seat} (you)"
            self.term.say(f"{who}: {describe(actions, action_id)}", style="bold")
            events = self.match.apply(seat, action_id)
            self.narrate(events)
            nxt = self.match.to_act()
            if any(e.kind == "monster_dice" for e in events) and nxt in self.bots:
                self.show_board()  # once a round while bots play; humans see it when asked
            if seat in self.bots:
                self.term.pause(self.pause)
        if self.match.to_act() is None:
            return True
        raise StepLimit(f"no outcome after {MAX_STEPS} actions")

    def show_board(self) -> None:
        view = self.match.view(self.observer)
        self.narrator.learn(view)
        self.term.show(self.renderer.render(view))

    def narrate(self, events: list[Event]) -> None:
        self.narrator.learn(self.match.view(self.observer))
        for event in events:
            seen = event if self.all_bots else event.for_seat(self.observer)
            line = None if seen is None else self.narrator.line(seen.kind, seen.data)
            if line:
                self.term.say(f"  {line}")

    def ask_human(self, seat: Seat, view: Mapping[str, object],
                  actions: list[Action]) -> str | None:
        """The action id a human picks, or None if they quit."""
        self.term.show(self.renderer.render(view))
        default = self.match.default_action(seat)
        self.term.say(f"Seat {seat}, your decision:", style="bold")
        for i, action in enumerate(actions, 1):
            mark = "  (default)" if action.id == default else ""
            self.term.say(f"{i:>4}. {action.description}{mark}")
        prompt = f"Seat {seat}: 1-{len(actions)}, d = default, q = quit > "
        choice = ask(self.term.read_line, self.term.say, prompt, len(actions))
        if choice.special == QUIT:
            return None
        if choice.special == DEFAULT:
            return default
        assert choice.index is not None
        return actions[choice.index].id
