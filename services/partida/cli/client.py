"""`partida client ...`: a real gRPC client of a partida server.

play    matchmake, then play a seat in the terminal (or let a local bot play it: --auto)
rejoin  go back to your seat in a match you left, and play on
watch   follow a match live as a spectator
replay  step through a finished match from its log
verify  check a finished match: dice against the revealed seed, the log's hash chain, and a
        replay of the log through the engine
campaign open | show   open a campaign between teams, read its standings
"""

from __future__ import annotations

import json
import shlex
import time
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import typer

from partida.cli.campaign import campaign
from partida.cli.connect import API_KEY, PLAYER, SERVER, connect, ends_cleanly, refusal
from partida.cli.prompt import DEFAULT, LEFT, QUIT, ask
from partida.cli.remote import Remote
from partida.cli.render import renderer_for
from partida.cli.terminal import Terminal
from partida.engine import Action, LocalRng, get
from partida.rules.audit import BadLog, audit, replayed
from partida.v1 import common_pb2

client = typer.Typer(name="client", no_args_is_help=True, help=__doc__.splitlines()[0])
client.add_typer(campaign, name="campaign")

@client.command()
@ends_cleanly
def play(game: str, scenario: str = typer.Option("", help="scenario id (default: any)"),
         seats: int = typer.Option(0, help="seats at the table (default: smallest)"),
         fill_with_bots: bool = typer.Option(True, help="complete the table with bots"),
         auto: str = typer.Option("", help="let this local bot play the seat, e.g. heuristic"),
         campaign_id: str = typer.Option("", "--campaign",
                                         help="play a scenario of this campaign (with --team)"),
         team: str = typer.Option("", help="your team in the campaign"),
         server: str = SERVER, api_key: str = API_KEY, player: str = PLAYER) -> None:
    """Find a match through matchmaking and play it to the end (exit 3: you left it)."""
    if bool(campaign_id) != bool(team):
        raise typer.BadParameter("--campaign and --team go together")
    bot = _local_bot(game, auto) if auto else None  # before a seat is taken, not after
    term = Terminal()
    remote = connect(server, api_key, player)
    term.say(f"Logged in as {player}; looking for a {game} match...")
    ticket = None
    for ticket in remote.find_match(game, scenario, seats, fill_with_bots, uuid.uuid4().hex,
                                    campaign_id, team):
        term.say(f"ticket {ticket.ticket_id}: {_status(ticket.status)}")
    if ticket is None or not ticket.match_id:
        state = "no ticket" if ticket is None else _status(ticket.status)
        why = f": {ticket.failure}" if ticket is not None and ticket.failure else ""
        term.error(f"matchmaking ended without a match ({state}{why})")
        raise typer.Exit(1)
    term.say(f"Seated at seat {ticket.seat} of match {ticket.match_id}")
    back = _rejoin_command(ticket.match_id, None, auto, server, player)
    _sit(term, remote, game, ticket.match_id, ticket.seat, bot, back)


@client.command()
@ends_cleanly
def rejoin(match_id: str,
           seat: int | None = typer.Option(None, min=0,
                                           help="your seat, if you hold several in the match"),
           auto: str = typer.Option("", help="let this local bot play the seat, e.g. heuristic"),
           server: str = SERVER, api_key: str = API_KEY, player: str = PLAYER) -> None:
    """Go back to your seat in a match you left (from a bot, too) and play it to the end."""
    term = Terminal()
    remote = connect(server, api_key, player)
    match = remote.match(match_id)
    held = [s.seat for s in match.seats if s.player_id == remote.player_id]
    mine = _own_seat(term, match_id, held, seat)
    bot = _local_bot(match.game_id, auto) if auto else None  # before the seat is taken back
    _take_back(term, remote, match, mine)
    term.say(f"Back at seat {mine} of match {match_id}")
    shown, after = _show_where_it_is(term, remote, match.game_id, match_id, mine)
    back = _rejoin_command(match_id, mine if len(held) > 1 else None, auto, server, player)
    _sit(term, remote, match.game_id, match_id, mine, bot, back, shown, after)


def _take_back(term: Terminal, remote: Remote, match: Any, seat: int) -> bool:
    """The player is here: a seat of theirs handed to a bot meanwhile (by them before they
    left, or by the server after its decisions ran out) is taken back. True if it was."""
    if (match.status != common_pb2.MATCH_STATUS_ACTIVE
            or match.seats[seat].controller != common_pb2.SEAT_CONTROLLER_BOT):
        return False
    remote.take_back(match.match_id, seat)
    term.say(f"Seat {seat} was handed to a bot while you were away; it is yours again.")
    return True


def _own_seat(term: Terminal, match_id: str, held: list[int], wanted: int | None) -> int:
    """The seat to go back to of those the player holds: `wanted`, or the only one."""
    if not held:
        term.error(f"you hold no seat in match {match_id} (follow it: partida client watch "
                   f"{match_id})")
        raise typer.Exit(1)
    if wanted is None and len(held) == 1:
        return held[0]
    if wanted is not None and wanted in held:
        return wanted
    seats = ", ".join(map(str, held))
    raise typer.BadParameter(f"you hold seat{'s' if len(held) > 1 else ''} {seats} of this "
                             "match: name one", param_hint="--seat")


def _show_where_it_is(term: Terminal, remote: Remote, game: str, match_id: str,
                      seat: int) -> tuple[int, int]:
    """Show the seat's view of the match as it is now, unless the prompt or the end of the
    match is about to show it; the version shown, whose events the view tells already, and
    the sequence of its last event, to follow the feed from (0 from a server that does not
    tell it: the whole feed then, the version skipping what the view told)."""
    look = remote.look(match_id, seat)
    if not look.HasField("outcome") and seat not in look.decision.seats:
        term.show(renderer_for(game).render(json.loads(look.view.data_json)))
    return int(look.view.version), int(look.last_sequence)


def _sit(term: Terminal, remote: Remote, game: str, match_id: str, seat: int, bot: Any,
         back: str, shown: int = -1, after: int = 0) -> None:
    """Play the seat to the end of the match. Left unfinished (quit, Ctrl-C, the server
    gone too long), it says how to come back: the command `back`; quit, it exits LEFT."""
    over = False
    try:
        over = _play_seat(term, remote, game, match_id, seat, bot, shown, after)
    finally:
        if not over:
            term.say(f"To come back to the match: {back}")
    if not over:
        raise typer.Exit(LEFT)


def _rejoin_command(match_id: str, seat: int | None, auto: str, server: str,
                    player: str) -> str:
    """The command line of `rejoin` for this player and server; never with the API key (a
    secret, and shown on the screen): the environment or the default gives it again."""
    words = ["partida", "client", "rejoin", match_id]
    given = {"--seat": "" if seat is None else str(seat), "--auto": auto,
             "--server": "" if server == SERVER.default else server,
             "--player": "" if player == PLAYER.default else player}
    for option, value in given.items():
        words += [option, value] if value else []
    return shlex.join(words)


def _local_bot(game: str, name: str) -> Any:
    """The bot `--auto` names, if it plays from a seat's view as this client has it (the
    search bot needs the whole state, which only the server's bot workers may read)."""
    from partida.ai.bots import SEARCH_BOT, bot_names, make_bot
    playable = [b for b in bot_names(game) if b != SEARCH_BOT]
    if name not in playable:
        raise typer.BadParameter(f"no bot {name!r} plays {game!r} from this client "
                                 f"(known: {', '.join(playable)})", param_hint="--auto")
    return make_bot(game, name)


# How often in a row a local bot's action may be refused before the command gives up (a
# person is asked again instead; they may quit).
BOT_REFUSALS = 3


def _play_seat(term: Terminal, remote: Remote, game: str, match_id: str, seat: int,
               bot: Any, shown: int = -1, after: int = 0) -> bool:
    """Follow the match as `seat` on one live feed from after event `after`, printing every
    event the seat may see (its own and everyone else's, in order) but those up to version
    `shown` (a view shown already tells them), and take the seat's decisions as they come.
    True once the match is over, False if the player leaves it."""
    renderer = renderer_for(game)
    narrator = renderer.narrator()
    rng = LocalRng()
    # `after`: the last event printed, or told by the view shown (the feed starts past it).
    settled = -1  # views up to this version need nothing more from us
    bots: dict[int, bool] = {}  # the other seats seen to act: played by a bot?
    while True:
        feed = remote.follow(match_id, seat, after)
        try:
            for events, item in _batches(feed):
                if item is not None:
                    narrator.learn(json.loads(item.view.data_json))
                    _tell_bot_seats(term, item.decision, seat, bots)
                for event in events:
                    if event.version > shown:
                        _say_event(term, narrator, event)
                    after = event.sequence
                if (item is not None and seat in item.decision.seats
                        and item.view.version > settled):
                    decided = _decide(term, remote, renderer, narrator, match_id, seat, bot,
                                      rng)
                    if decided is None:
                        term.say("You leave the table; your seat keeps its clock.")
                        return False
                    settled = decided
        finally:
            feed.close()
        look = remote.look(match_id, seat)
        if look.HasField("outcome"):
            term.show(renderer.render(json.loads(look.view.data_json)))
            term.say(f"Match over: {look.outcome.reason}", style="bold")
            return True
        # The feed ended before the match did: follow it again from the last event.


def _tell_bot_seats(term: Terminal, decision: Any, seat: int | None,
                    bots: dict[int, bool]) -> None:
    """Say when a seat to act other than `seat` (None: a spectator's) is played by a bot (a
    bot's from the start, or a player's handed over), and when its player has taken it
    back."""
    for other in decision.seats:
        now = other in decision.bot_seats
        if other != seat and bots.get(other, False) != now:
            term.say(f"Seat {other} is played by the server's bot." if now
                     else f"Seat {other} is played by its player again.")
        bots[other] = now


def _decide(term: Terminal, remote: Remote, renderer: Any, narrator: Any, match_id: str,
            seat: int, bot: Any, rng: Any) -> int | None:
    """Take the seat's decision at the match's current version: the version it was taken at
    (or found to need nothing from the seat, or stale), None if the player quits."""
    refused = 0
    while True:
        look = remote.look(match_id, seat, with_actions=True)  # view and actions, one call
        version = int(look.view.version)
        if look.HasField("outcome") or seat not in look.decision.seats or not look.actions:
            return version  # the feed brings what happened
        view = json.loads(look.view.data_json)
        narrator.learn(view)
        actions = [Action(a.action_id, a.description) for a in look.actions]
        if bot is not None:
            action_id = bot.choose(view, actions, rng)
        else:
            action_id = _ask(term, renderer, view, actions, look.default_action_id,
                             _seconds_left(look.decision))
            if action_id is None:
                return None
        try:
            remote.submit(match_id, seat, version, uuid.uuid4().hex, action_id)
            return version  # its events and the next view come on the feed
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.ABORTED:  # a clock or another seat moved first
                term.say(f"The match moved on before your action ({e.details()}).")
                return version
            if e.code() != grpc.StatusCode.FAILED_PRECONDITION:
                raise
            if remote.look(match_id, seat).HasField("outcome"):  # it ended while they chose
                term.say("The match ended before your action.")
                return version
            if _take_back(term, remote, remote.match(match_id), seat):  # too long choosing
                continue  # theirs again: decide afresh, where the match is now
            refused += 1
            term.error(refusal(e))
            if bot is not None and refused >= BOT_REFUSALS:
                raise


def _seconds_left(decision: Any) -> float | None:
    """Until the server plays the default for the seat, by this machine's clock; None: no
    limit."""
    if not decision.HasField("deadline"):
        return None
    return max(0.0, decision.deadline.ToNanoseconds() / 1e9 - time.time())


def _ask(term: Terminal, renderer: Any, view: Any, actions: list[Action],
         default: str, left: float | None = None) -> str | None:
    """The action a person picks at the prompt; None if they quit (q, end of input). `left`:
    seconds before the server's clock plays the default (a player not told found their
    choice refused, the match moved on)."""
    term.show(renderer.render(view))
    for i, a in enumerate(actions, 1):
        mark = "  (default)" if a.id == default else ""
        term.say(f"{i:>3}. {a.description}{mark}")
    if left is not None:
        term.say(f"Choose within {left:.0f} s, or the default is played for you.")
    prompt = f"1-{len(actions)}, d = default, q = quit > "
    choice = ask(term.read_line, term.say, prompt, len(actions))
    if choice.special == QUIT:
        return None
    if choice.special == DEFAULT:
        return default or actions[0].id
    return actions[choice.index or 0].id


def _batches(feed: Iterator[Any]) -> Iterator[tuple[list[Any], Any | None]]:
    """A live feed's events, each batch with the view item that follows it (None for the
    events of a feed that ended without one): a narrator learns the names an action's events
    use (a card just drawn, a monster just placed) from the view after it."""
    events: list[Any] = []
    for item in feed:
        if item.HasField("event"):
            events.append(item.event)
            continue
        yield events, item
        events = []
    if events:
        yield events, None


def _say_event(term: Terminal, narrator: Any, event: Any) -> None:
    line = narrator.line(event.kind, json.loads(event.data_json))
    if line:
        term.say(f"  {line}")


def _status(code: int) -> str:
    from partida.v1 import matchmaking_pb2
    name = matchmaking_pb2.TicketStatus.Name(code)  # type: ignore[arg-type]  # a plain int
    return str(name).removeprefix("TICKET_STATUS_").lower()


@client.command()
@ends_cleanly
def watch(match_id: str, server: str = SERVER, api_key: str = API_KEY,
          player: str = PLAYER) -> None:
    """Follow a match live as a spectator until it ends."""
    term = Terminal()
    remote = connect(server, api_key, player)
    _, view, _, outcome = remote.view(match_id, None)
    renderer = renderer_for(str(view.get("game", "")))
    narrator = renderer.narrator()
    narrator.learn(view)
    if outcome is not None:  # over: its public log names what its events refer to
        for views in _views_after(remote.match_log(match_id)):
            for seen in views:
                narrator.learn(seen)
    bots: dict[int, bool] = {}
    for events, item in _batches(remote.follow(match_id, None)):
        if item is not None:
            view = json.loads(item.view.data_json)
            narrator.learn(view)
        for event in events:
            _say_event(term, narrator, event)
        if item is not None:
            term.show(renderer.render(view))
            _tell_bot_seats(term, item.decision, None, bots)
    term.say("The match is over.")


@client.command()
@ends_cleanly
def replay(match_id: str, server: str = SERVER, api_key: str = API_KEY,
           player: str = PLAYER) -> None:
    """Print every recorded action of a finished match with its events."""
    term = Terminal()
    remote = connect(server, api_key, player)
    log = remote.match_log(match_id)
    renderer = renderer_for(log.match.game_id)
    narrator = renderer.narrator()
    views = _views_after(log)
    for record in log.records:
        for view in next(views, []):  # the names this record's events use
            narrator.learn(view)
        # The set-up record is no seat's: its action id is the match record's seal.
        title = ("set-up" if record.kind == "setup"
                 else f"seat {record.seat}: {record.action_id or record.kind}")
        term.say(f"#{record.sequence} {title}", style="bold")
        for e in json.loads(record.events_json):
            line = narrator.line(e["kind"], e["data"])
            if line:
                term.say(f"  {line}")
    term.say(f"Outcome: {log.match.outcome.reason}")


def _views_after(log: Any) -> Iterator[list[dict[str, Any]]]:
    """For each record of a finished match's log, every seat's view and the spectators' after
    it, replayed through the engine: the log holds events, not the names they refer to (a
    card drawn, a monster placed). Once the match is over nothing in it is hidden any more.
    Stops at a record that does not replay (`verify` says why)."""
    game = get(log.match.game_id)
    viewers = [None, *range(len(log.match.seats))]
    steps = replayed(log.match, list(log.records))
    while True:
        try:
            _, state, _, _ = next(steps)
        except (StopIteration, BadLog, RuntimeError):  # the end, or a log verify refuses
            return
        yield [game.view(state, seat) for seat in viewers]


@client.command()
@ends_cleanly
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
