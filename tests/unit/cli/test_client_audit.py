"""Findings of the audit of `partida client ...` as a user runs it: against a real embedded
server in this process (or none at all), through the typer app or as a subprocess."""

from __future__ import annotations

import io
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from partida.cli.main import app
from partida.cli.prompt import parse_choice
from partida.cli.remote import Remote
from partida.cli.render import renderer_for
from partida.cli.terminal import Terminal
from partida.devstack.stack import API_KEY, Stack
from partida.engine import Event
from tests.e2e.play import play_to_end, player, seat_in_match
from tests.support.serving import embedded
from tests.support.signals import interruptible

PARTIDA = str(Path(sys.executable).parent / "partida")


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """The address of an embedded server (`partida serve`) running in this process."""
    with embedded(tmp_path_factory.mktemp("client"), metrics_port=0) as stack:
        yield stack.address


@pytest.fixture(scope="module")
def live_match(server) -> tuple[str, int]:
    """(match id, seat) of a 2-seat match in play whose human seat is never played."""
    return seat_in_match(player(Stack({"rules": server}, {}, Path("."))), seats=2)


def _client(*args: str, server: str, player_name: str = "auditor") -> Any:
    """`partida client ARGS` through the typer app; an exception escaping it fails the test."""
    return CliRunner().invoke(app, ["client", *args, "--server", server, "--api-key", API_KEY,
                                    "--player", player_name], catch_exceptions=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("args", [
    ("watch", "0" * 32), ("replay", "0" * 32), ("verify", "0" * 32), ("watch", "bad id!"),
    ("play", "no_such_game"), ("play", "montanas", "--scenario", "no_such_scenario"),
])
def test_a_refused_call_ends_the_command_with_one_line(server, args):
    """Every refusal of the server (an unknown match id, game or scenario) escaped the
    commands as a grpc._channel._InactiveRpcError traceback; it is one `error:` line with the
    status and the server's words, and exit code 1."""
    result = _client(*args, server=server)
    assert result.exit_code == 1
    assert re.search(r"^error: (NOT_FOUND|INVALID_ARGUMENT): ", result.output, re.M), \
        result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["replay", "verify"])
def test_replay_or_verify_of_a_match_in_play_says_so(server, live_match, command):
    """The log of a match in play is refused (PERMISSION_DENIED): that ended replay and verify
    with a traceback instead of the server's reason."""
    result = _client(command, live_match[0], server=server)
    assert result.exit_code == 1
    assert "error: PERMISSION_DENIED: the log of a match in play" in result.output


@pytest.mark.parametrize("args", [("play", "montanas"), ("watch", "0" * 32),
                                  ("verify", "0" * 32), ("campaign", "show", "x")])
def test_no_server_is_one_line_not_a_usage_error(args):
    """With no server at the address every command ended as a usage error (exit 2, a boxed
    'Invalid value: cannot log in ...' under the command's usage), as if an option were
    wrong; it says the server cannot be reached, on one line, and exits 1."""
    result = _client(*args, server=f"127.0.0.1:{_free_port()}")
    assert result.exit_code == 1
    assert result.output.startswith("error: cannot reach the server at 127.0.0.1:")
    assert len(result.output.strip().splitlines()) == 1
    assert "Usage:" not in result.output


def test_a_wrong_api_key_is_one_line(server):
    """A wrong API key was shown as a usage error of the command (exit 2, a box)."""
    result = CliRunner().invoke(app, ["client", "watch", "0" * 32, "--server", server,
                                      "--api-key", "wrong", "--player", "p"],
                                catch_exceptions=False)
    assert result.exit_code == 1
    assert result.output.strip() == (f"error: cannot log in as 'p' at {server}: "
                                     "UNAUTHENTICATED: unknown API key")


@pytest.mark.parametrize("bot", ["ismcts", "no_such_bot"])
def test_a_bot_the_client_cannot_run_is_refused_before_matchmaking(server, bot):
    """`--auto` was looked up only once a seat was taken: an unknown bot raised KeyError, and
    `ismcts` (which `partida games` lists, but which plays from the whole state, not a seat's
    view) AttributeError on its first decision, both as tracebacks, leaving the seat in the
    match unplayed. It is a usage error before the player even logs in."""
    result = _client("play", "montanas", "--seats", "2", "--auto", bot, server=server)
    assert result.exit_code == 2
    assert "Logged in" not in result.output
    said = " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())  # out of its box
    assert f"no bot {bot!r} plays 'montanas' from this client" in said


def test_auto_play_prints_every_event_the_seat_may_see(server):
    """The play loop printed other seats' events only while the seat was not to act when it
    looked: when the bots had already played and handed the decision back by the time the
    client asked, their moves were never printed (tens of events a match). And it named the
    cards a seat just drew from the view before the draw ('Seat 0 draws card 8'). Now the
    seat follows one live feed: every event it may see, in order, each batch named from the
    view after it."""
    result = _client("play", "montanas", "--seats", "2", "--auto", "heuristic",
                     server=server, player_name="watcher-of-bots")
    assert result.exit_code == 0, result.output
    match_id, seat = re.search(r"Seated at seat (\d) of match ([0-9a-f]{32})",
                               result.output).group(2, 1)
    remote = Remote(server)
    remote.login(API_KEY, "auditor")
    other = 1 - int(seat)
    narrator = renderer_for("montanas").narrator()
    expected = []
    for record in remote.match_log(match_id).records:
        for e in json.loads(record.events_json):
            seen = Event.from_dict(e).for_seat(int(seat))
            line = None if seen is None else narrator.line(seen.kind, seen.data)
            if line and line.startswith(f"Seat {other} "):
                expected.append(line.split()[2])  # the verb: names differ with knowledge
    printed = [line.split()[2] for line in result.output.splitlines()
               if line.startswith(f"  Seat {other} ")]
    assert printed == expected
    assert not re.search(r"draws card \d", result.output)


def test_replay_names_the_set_up_record_as_such(server):
    """`client replay` printed the set-up record as an action of 'seat -1' named by the match
    record's seal ('#0 seat -1: match:47bc...'); it is the set-up."""
    remote = player(Stack({"rules": server}, {}, Path(".")))
    match_id, seat = seat_in_match(remote, seats=2)
    assert play_to_end(remote, match_id, seat) is not None
    result = _client("replay", match_id, server=server)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "#0 set-up"
    assert "seat -1" not in result.output


def test_a_number_of_thousands_of_digits_is_not_a_choice():
    """A pasted number of more than 4300 digits made int() raise ValueError out of the
    prompt, ending the command with a traceback."""
    assert parse_choice("7" * 5000, 3) is None
    assert parse_choice("0" * 5000 + "2", 3) is not None


def test_ctrl_c_while_watching_ends_with_one_line(server, live_match):
    """Ctrl-C while the client waited on the live feed (watching, or waiting for the other
    seats) ended it with a KeyboardInterrupt traceback; it says 'interrupted', exit 130."""
    env = {**os.environ, "PARTIDA_SERVER": server, "PARTIDA_API_KEY": API_KEY,
           "PYTHONUNBUFFERED": "1"}
    # Its first line comes from the feed: it is about to wait on a human seat.
    _interrupted_after_its_first_line([PARTIDA, "client", "watch", live_match[0]], env)


def _interrupted_after_its_first_line(command: list[str], env: dict[str, str] | None = None
                                      ) -> None:
    """Runs `command`, presses Ctrl-C once it has printed its first line (it is running then,
    not still importing, which a loaded machine makes slow), and checks that it ends with one
    line and exit 130."""
    proc = subprocess.Popen(interruptible(command), env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready and proc.stdout is not None and proc.stdout.readline(), proc.communicate()
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip() == "error: interrupted"


def _told_of_a_finished_match(server: str, command: str) -> tuple[str, list[str]]:
    """`client COMMAND` of a match played to its end: its output, and the cards and
    monsters it left unnamed ('card 8', 'Monster #2')."""
    remote = player(Stack({"rules": server}, {}, Path(".")))
    match_id, seat = seat_in_match(remote, seats=2)
    assert play_to_end(remote, match_id, seat) is not None
    result = _client(command, match_id, server=server)
    assert result.exit_code == 0, result.output
    return result.output, re.findall(r"\bcard \d+\b|\bMonster #\d+", result.output)


def test_replay_names_the_cards_and_monsters_its_events_refer_to(server):
    """The log holds events, not the names they refer to, and `client replay` never saw a
    view: every card read 'card 8' and every monster 'Monster #2'. The replay now learns the
    names from the views after each record, replaying the log through the engine (and card
    names from the deck)."""
    output, unnamed = _told_of_a_finished_match(server, "replay")
    assert unnamed == [], unnamed[:5]
    assert len(output.splitlines()) > 20  # the whole match was told


def test_watching_a_finished_match_names_what_its_events_refer_to(server):
    """Watching a finished match replays its events at once and learnt names only from the
    final view: monsters killed before the end read 'Monster #2'. Once the match is over its
    log is public, and names every monster its events use."""
    output, unnamed = _told_of_a_finished_match(server, "watch")
    assert unnamed == [], unnamed[:5]
    assert output.rstrip().endswith("The match is over.")


class _Keyboard(Console):
    """A terminal whose reader presses `key` at the prompt: Ctrl-C or the end of input."""

    def __init__(self, key: type[BaseException]) -> None:
        super().__init__(file=io.StringIO())
        self.key = key

    def input(self, *args: Any, **kwargs: Any) -> str:
        raise self.key()


def test_ctrl_c_at_the_prompt_interrupts_and_the_end_of_input_quits():
    """Ctrl-C at a prompt counted as quitting (exit 0), unlike Ctrl-C anywhere else (exit
    130, test_ctrl_c_while_watching_ends_with_one_line); the end of input still quits."""
    with pytest.raises(KeyboardInterrupt):
        Terminal(out=_Keyboard(KeyboardInterrupt)).read_line("> ")
    assert Terminal(out=_Keyboard(EOFError)).read_line("> ") is None


def test_ctrl_c_in_a_local_match_ends_with_one_line():
    """`partida play` (a match on this machine) ended a Ctrl-C with a traceback."""
    _interrupted_after_its_first_line([PARTIDA, "play", "montanas", "--no-pause"])
