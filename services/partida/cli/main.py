"""The `partida` command: play a match in the terminal, replay a saved one, list the games."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.table import Table

from partida.cli.bots import available_bots
from partida.cli.connect import ends_cleanly
from partida.cli.match import LocalMatch, new_record
from partida.cli.play import BotSeat, LocalPlay, StepLimit
from partida.cli.prompt import LEFT
from partida.cli.render import renderer_for
from partida.cli.replay import RecordError, Replay, load_record
from partida.cli.terminal import Terminal
from partida.engine import BadSetup, Game, IllegalAction, LocalRng, UnknownGame, all_games, get
from partida.engine.bots import MatchRecord

BOT_PAUSE = 0.2  # seconds between bot actions, on a terminal only

app = typer.Typer(name="partida", no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False,
                  help="Play, replay and list partida's tabletop games in the terminal.")


def fail(term: Terminal, message: str, code: int = 1) -> NoReturn:
    term.error(message)
    raise typer.Exit(code)


def _game(term: Terminal, game_id: str) -> Game[Any]:
    try:
        return get(game_id)
    except UnknownGame:
        known = ", ".join(g.info.id for g in all_games())
        fail(term, f"unknown game {game_id!r} (known: {known})", 2)


@app.command()
@ends_cleanly
def play(
    game: Annotated[str, typer.Argument(help="Game id (see `partida games`).")],
    scenario: Annotated[str | None, typer.Option(
        help="Scenario id; default: the game's first.")] = None,
    players: Annotated[int | None, typer.Option(
        min=1, help="Seats in the match; default: the scenario's minimum.")] = None,
    bots: Annotated[int | None, typer.Option(
        min=0, help="How many of the last seats bots play; default: all but seat 0.")] = None,
    bot: Annotated[str | None, typer.Option(
        help="Bot kind, e.g. heuristic or random; default: heuristic if the game has one.")
    ] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, max=2**64 - 1, help="Seed of the match stream (reproduces a match).")] = None,
    save: Annotated[Path | None, typer.Option(
        dir_okay=False, help="Write the match record (JSON) to this file.")] = None,
    no_pause: Annotated[bool, typer.Option(
        "--no-pause", help="Never pause between bot actions.")] = False,
) -> None:
    """Play a match here, on the engine: humans choose, bots play the rest (exit 3: you quit)."""
    term = Terminal()
    g = _game(term, game)
    info = g.info
    spec_id = scenario or info.scenarios[0].id
    try:
        spec = info.scenario(spec_id)
    except KeyError:
        known = ", ".join(s.id for s in info.scenarios)
        fail(term, f"{game} has no scenario {spec_id!r} (known: {known})", 2)
    seats = spec.min_seats if players is None else players
    n_bots = seats - 1 if bots is None else bots
    if n_bots > seats:
        fail(term, f"--bots {n_bots} is more than the {seats} players", 2)
    kinds = available_bots(info.id)
    kind = bot or ("heuristic" if "heuristic" in kinds else "random")
    if kind not in kinds:
        fail(term, f"{game} has no bot {kind!r} (known: {', '.join(sorted(kinds))})", 2)
    seed = secrets.randbits(63) if seed is None else seed
    try:
        match = LocalMatch.start(g, new_record(g, spec.id, seats, seed))
    except BadSetup as e:
        fail(term, str(e), 2)
    bot_seats = {s: BotSeat(kind, kinds[kind](), LocalRng(seed * 1000 + s))
                 for s in range(seats - n_bots, seats)}
    humans = seats - n_bots
    term.say(f"{info.title} · {spec.title} · {seats} seats: "
             f"{humans} human{'s' if humans != 1 else ''}, {n_bots} {kind} bot"
             f"{'s' if n_bots != 1 else ''} · seed {seed}", style="bold")
    pause = 0.0 if no_pause or not term.stdout_is_tty() else BOT_PAUSE
    renderer = renderer_for(info.id)
    try:
        finished = LocalPlay(term, match, renderer, bot_seats, pause).run()
    except IllegalAction as e:
        fail(term, f"a bot chose an action the rules refuse: {e.reason}")
    except StepLimit as e:
        fail(term, str(e))
    outcome = match.outcome()
    if finished and outcome is not None:
        term.show(renderer.render(match.view()))
        term.say(renderer.summary(match.view(), outcome), style="bold")
    else:
        n = len(match.record.actions)
        term.say(f"You quit after {n} action{'s' if n != 1 else ''}; the match is unfinished.",
                 style="bold")
    if save is not None:
        _save(term, save, match.record)
    if outcome is None:  # quit: after the save, as a quit match's record replays too
        raise typer.Exit(LEFT)


def _save(term: Terminal, path: Path, record: MatchRecord) -> None:
    try:
        path.write_text(json.dumps(record.to_dict(), indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        fail(term, f"cannot save the match record to {path}: {e}")
    term.say(f"Match record saved to {path} (replay: partida replay {path})")


@app.command()
@ends_cleanly
def replay(
    file: Annotated[Path, typer.Argument(help="A match record saved by `partida play --save`.")],
    step: Annotated[bool, typer.Option(
        "--step/--no-step", help="Wait for Enter between actions (on a terminal only).")
    ] = True,
) -> None:
    """Replay a saved match on the engine and check that it ends as recorded."""
    term = Terminal()
    try:
        record, recorded_outcome = load_record(file)
        Replay(term, record, recorded_outcome).run(step and term.stdin_is_tty())
    except RecordError as e:
        fail(term, str(e))


@app.command()
def games() -> None:
    """List the registered games and their scenarios."""
    term = Terminal()
    for g in all_games():
        info = g.info
        table = Table(title=f"{info.id}: {info.title}", title_justify="left")
        table.add_column("scenario", no_wrap=True)
        table.add_column("title")
        table.add_column("seats", justify="right", no_wrap=True)
        table.add_column("description")
        for s in info.scenarios:
            seats = str(s.min_seats) if s.min_seats == s.max_seats else \
                f"{s.min_seats}-{s.max_seats}"
            table.add_row(s.id, s.title, seats, s.description)
        term.show(table)
        term.say(f"  bots: {', '.join(sorted(available_bots(info.id)))} · hidden information: "
                 f"{'yes' if info.hidden_information else 'no'} · rules edition "
                 f"{info.rules_revision}")
        for name, words in info.options.items():
            term.say(f"  option {name}: {words}")


@app.command()
def serve(
    role: str = typer.Argument("all", help="all, rules, dice, persistence or matchmaking"),
    port: int = typer.Option(None, help="listen port (default PARTIDA_PORT or 50051)"),
    metrics_port: int = typer.Option(
        None, help="Prometheus metrics port (default PARTIDA_METRICS_PORT or 9464; 0: none)"),
) -> None:
    """Run the server: every service in one process, or one service of it."""
    from partida.cli.serve import serve as run
    from partida.platform.assembly import ROLES
    from partida.platform.config import settings
    if role not in ROLES:
        raise typer.BadParameter(f"role must be one of {', '.join(ROLES)}")
    given = {"port": port, "metrics_port": metrics_port}
    cfg = settings().model_copy(update={k: v for k, v in given.items() if v is not None})
    run(role, cfg)


STACK_FOLDER = typer.Option(Path(".stack"), help="where state and logs go")


@app.command()
def stack(action: str = typer.Argument(..., help="up or down"),
          folder: Path = STACK_FOLDER) -> None:
    """Run the multi-process stack locally in the background (Redis, PostgreSQL, the four
    services and a Celery worker), or stop it."""
    from partida.devstack import local
    if action == "up":
        state = local.up(folder)
        addresses = state["addresses"]
        assert isinstance(addresses, dict)
        exports = [f"export PARTIDA_{name.upper()}_ADDRESS={where}"
                   for name, where in addresses.items()]
        exports += [f"export PARTIDA_SERVER={addresses['rules']}",
                    f"export PARTIDA_API_KEY={state['api_key']}"]
        (folder / "env").write_text("\n".join(exports) + "\n")
        print(f"stack up; logs in {folder}/. To connect a client:")
        print(f"  . {folder}/env && partida client play montanas")
    elif action == "down":
        stopped = local.down(folder)
        print("stopped: " + (", ".join(stopped) if stopped else "nothing was running"))
    else:
        raise typer.BadParameter("action must be up or down")


def _register_client() -> None:
    from partida.cli.client import client
    app.add_typer(client, name="client")


_register_client()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
