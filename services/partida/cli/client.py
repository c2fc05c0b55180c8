"""`partida client ...`: a real gRPC client of a partida server.

play    matchmake, then play a seat in the terminal (or let a local bot play it: --auto)
watch   follow a match live as a spectator
replay  step through a finished match from its log
verify  check a finished match: dice against the revealed seed, the log's hash chain, and a
        replay of the log through the engine
campaign open | show   open a campaign between teams, read its standings
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import grpc
import typer

from partida.cli.campaign import campaign
from partida.cli.connect import API_KEY, PLAYER, SERVER, connect
from partida.cli.prompt import DEFAULT, QUIT, ask
from partida.cli.remote import Remote
from partida.cli.render import renderer_for
from partida.cli.terminal import Terminal
from partida.engine import Action, LocalRng
from partida.rules.audit import audit

client = typer.Typer(name="client", no_args_is_help=True, help=__doc__.splitlines()[0])
client.add_typer(campaign, name="campaign")

@client.command()
def play(game: str, scenario: str = typer.Option("", help="scenario id (default: any)"),
         seats: int = typer.Option(0, help="seats at the table (default: smallest)"),
         fill_with_bots: bool = typer.Option(True, help="complete the table with bots"),
         auto: str = typer.Option("", help="let this local bot play the seat, e.g. heuristic"),
         campaign_id: str = typer.Option("", "--campaign",
                                         help="play a scenario of this campaign (with --team)"),
         team: str = typer.Option("", help="your team in the campaign"),
         server: str = SERVER, api_key: str = API_KEY, player: str = PLAYER) -> None:
    """Find a match through matchmaking and play it to the end."""
    if bool(campaign_id) != bool(team):
        raise typer.BadParameter("--campaign and --team go together")
    term = Terminal()
    remote = connect(server, api_key, player)
    term.say(f"Logged in as {player}; looking for a {game} match...")
    ticket = None
    for ticket in remote.find_match(game, scenario, seats, fill_with_bots, uuid.uuid4().hex,
                                    campaign_id, team):
        term.say(f"ticket {ticket.ticket_id}: {_status(ticket.status)}")
    if ticket is None or not ticket.match_id:
        raise typer.Exit(1)
    term.say(f"Seated at seat {ticket.seat} of match {ticket.match_id}")
    bot = None
    if auto:
        from partida.ai.bots import make_bot
        bot = make_bot(game, auto)
    _play_seat(term, remote, game, ticket.match_id, ticket.seat, bot)


def _play_seat(term: Terminal, remote: Remote, game: str, match_id: str, seat: int,
               bot: Any) -> None:
    renderer = renderer_for(game)
    narrator = renderer.narrator()
    rng = LocalRng()
    after = 0
    while True:
        look = remote.look(match_id, seat, with_actions=True)  # view and actions, one call
        view = json.loads(look.view.data_json)
        narrator.learn(view)
        if look.HasField("outcome"):
            term.show(renderer.render(view))
            term.say(f"Match over: {look.outcome.reason}", style="bold")
            return
        if seat not in look.decision.seats:
            after = _follow_until_my_turn(term, remote, match_id, seat, after, narrator)
            continue
        actions = [Action(a.action_id, a.description) for a in look.actions]
        if bot is not None:
            action_id = bot.choose(view, actions, rng)
        else:
            term.show(renderer.render(view))
            for i, a in enumerate(actions, 1):
                term.say(f"{i:>3}. {a.description}")
            choice = ask(term.read_line, term.say, "your choice: ", len(actions))
            if choice.special == QUIT:
                term.say("You leave the table; your seat keeps its clock.")
                return
            action_id = (look.default_action_id if choice.special == DEFAULT
                         else actions[choice.index or 0].id)
        try:
            result = remote.submit(match_id, seat, look.view.version, uuid.uuid4().hex,
                                   action_id)
        except grpc.RpcError as e:
            term.error(f"{e.code().name}: {e.details()}")
            continue
        for event in result.events:
            _say_event(term, narrator, event)
            after = max(after, event.sequence)


def _follow_until_my_turn(term: Terminal, remote: Remote, match_id: str, seat: int,
                          after: int, narrator: Any) -> int:
    """Print the live events until a view says it is this seat's turn (or the match ends)."""
    for item in remote.stream(match_id, seat, after):
        if item.HasField("event"):
            _say_event(term, narrator, item.event)
            after = item.event.sequence
        elif seat in item.decision.seats or not item.decision.seats:
            break
    return after


def _say_event(term: Terminal, narrator: Any, event: Any) -> None:
    line = narrator.line(event.kind, json.loads(event.data_json))
    if line:
        term.say(f"  {line}")


def _status(code: int) -> str:
    from partida.v1 import matchmaking_pb2
    name = matchmaking_pb2.TicketStatus.Name(code)  # type: ignore[arg-type]  # a plain int
    return str(name).removeprefix("TICKET_STATUS_").lower()


@client.command()
def watch(match_id: str, server: str = SERVER, api_key: str = API_KEY,
          player: str = PLAYER) -> None:
    """Follow a match live as a spectator until it ends."""
    term = Terminal()
    remote = connect(server, api_key, player)
    _, view, _, _ = remote.view(match_id, None)
    renderer = renderer_for(str(view.get("game", "")))
    narrator = renderer.narrator()
    narrator.learn(view)
    for item in remote.stream(match_id, None):
        if item.HasField("event"):
            _say_event(term, narrator, item.event)
        else:
            view = json.loads(item.view.data_json)
            narrator.learn(view)
            term.show(renderer.render(view))
    term.say("The match is over.")


@client.command()
def replay(match_id: str, server: str = SERVER, api_key: str = API_KEY,
           player: str = PLAYER) -> None:
    """Print every recorded action of a finished match with its events."""
    term = Terminal()
    remote = connect(server, api_key, player)
    log = remote.match_log(match_id)
    renderer = renderer_for(log.match.game_id)
    narrator = renderer.narrator()
    for record in log.records:
        term.say(f"#{record.sequence} seat {record.seat}: {record.action_id or record.kind}",
                 style="bold")
        for e in json.loads(record.events_json):
            line = narrator.line(e["kind"], e["data"])
            if line:
                term.say(f"  {line}")
    term.say(f"Outcome: {log.match.outcome.reason}")


@client.command()
def verify(match_id: str, server: str = SERVER, api_key: str = API_KEY,
           player: str = PLAYER) -> None:
    """Verify a finished match: dice, hash chain and replay. Exit 1 if anything is off."""
    term = Terminal()
    remote = connect(server, api_key, player)
    log = remote.match_log(match_id)
    published = remote.dice_stream(match_id)
    problems = verify_problems(log, published)
    draws = sum(len(r.random_values) for r in log.records)
    if problems:
        for p in problems:
            term.error(p)
        raise typer.Exit(1)
    term.say(f"Match {match_id} verifies: {draws} random values match the revealed seed, "
             f"the hash chain of {len(log.records)} records is intact, and the replay "
             f"reproduces every event and the outcome ({log.match.outcome.reason}).")


def verify_problems(log: Any, published: Any) -> list[str]:
    """What `verify` finds wrong with a match's log (a GetMatchLogResponse) and the dice
    service's stream of it (a GetStreamResponse); empty when the match verifies."""
    records = list(log.records)
    try:
        problems = audit(log.match, records)
    except Exception as e:  # a damaged log (e.g. a set-up short of values): name it, no trace
        problems = [f"the log does not replay: {type(e).__name__}: {e}"]
    if bytes(published.commitment) != bytes(log.match.dice_commitment):
        problems.append("the dice service's commitment differs from the match record's")
    # Once the seed is revealed anyone can compute any value of the stream, so a log made up
    # afterwards could use positions the dice service never handed out (skipping the rolls
    # it did not like): every position used must be one it handed out.
    used = max((p for r in records for p in r.random_positions), default=-1)
    if used >= published.next_position:
        problems.append(f"the log uses position {used} of the dice stream, which the dice "
                        f"service never handed out (it handed out {published.next_position})")
    return problems
