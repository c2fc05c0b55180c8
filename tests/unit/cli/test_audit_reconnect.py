"""Findings of the audit of `partida client play` and `watch` over a long or broken
connection: a server that restarts under them (on the same port and database, as `partida
serve` restarted or a rules process of the stack), a token that expires during the match,
and a match that ends while the player is at the prompt (and what the prompt says of the
clock). Real embedded servers in this process; the commands as a user runs them (a
subprocess) or their play loop."""

from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from partida.cli import client
from partida.cli.remote import Remote
from partida.cli.render import renderer_for
from partida.cli.terminal import Terminal
from partida.devstack.servers import free_port
from partida.devstack.stack import API_KEY, SECRETS
from partida.engine import Event
from partida.platform.auth import Authority
from partida.v1 import common_pb2, rules_pb2
from tests.e2e.play import play_to_end, player, seat_in_match, wait_for_turn
from tests.support.serving import embedded
from tests.support.signals import interruptible

PARTIDA = str(Path(sys.executable).parent / "partida")
PROMPT = "q = quit > "
NOTICE = "does not answer"  # what the client says while the server is away


class _Command:
    """`partida client ARGS` as a subprocess, its output read as it comes."""

    def __init__(self, address: str, *args: str) -> None:
        env = {**os.environ, "PARTIDA_SERVER": address, "PARTIDA_API_KEY": API_KEY,
               "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        self.proc = subprocess.Popen(interruptible([PARTIDA, "client", *args]), env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.out = b""

    def read_until(self, text: str, limit: float = 120) -> str:
        """Output until `text` (a prompt has no newline); fails if the command ends first.
        `limit` only keeps a broken command from hanging the test."""
        assert self.proc.stdout is not None
        end = time.monotonic() + limit
        while text.encode() not in self.out:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(end - time.monotonic(),
                                                                         0))
            chunk = os.read(self.proc.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                _, err = self.proc.communicate(timeout=30)
                raise AssertionError(f"ended without {text!r}: exit {self.proc.returncode}, "
                                     f"{err.decode()}")
            self.out += chunk
        return self.out.decode()

    def finish(self, stdin: bytes = b"") -> tuple[int, str, str]:
        out, err = self.proc.communicate(stdin, timeout=600)
        return self.proc.returncode, (self.out + out).decode(), err.decode()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


def _seen_events(remote: Remote, match_id: str, seat: int | None) -> list[str]:
    """The first words of the lines the match's log narrates to `seat` (None: a spectator),
    in order: what a client following the match should print, once each."""
    narrator = renderer_for("montanas").narrator()
    lines = []
    for record in remote.match_log(match_id).records:
        for e in json.loads(record.events_json):
            seen = Event.from_dict(e).for_seat(seat)
            line = None if seen is None else narrator.line(seen.kind, seen.data)
            if line and line.startswith("Seat "):
                lines.append(" ".join(line.split()[:3]))
    return lines


def _printed_events(output: str) -> list[str]:
    """The first words of the event lines printed (after a prompt, too: input is no echo)."""
    return re.findall(r"^(?:.*> )?  (Seat \d+ \S+)", output, re.M)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """The address of an embedded server (`partida serve`) running in this process."""
    with embedded(tmp_path_factory.mktemp("reconnect"), metrics_port=0) as stack:
        yield stack.address


def test_watch_follows_a_match_across_a_server_restart(tmp_path):
    """A server restarting under `client watch` (stopped, started again on its port and
    database) ended the command with 'error: UNAVAILABLE: ...', though such a refusal asks
    for a retry and the match goes on. It follows the feed again from the last event it
    printed: every event once, none missed or repeated."""
    port, watch = free_port(), None
    try:
        with embedded(tmp_path, port, metrics_port=0) as stack:
            alice = player(stack)
            match_id, seat = seat_in_match(alice, seats=2)
            wait_for_turn(alice, match_id, seat)  # the bot has played up to her: all quiet
            watch = _Command(stack.address, "watch", match_id, "--player", "watcher")
            watch.read_until("killed 0/43")  # the board after the events so far
        watch.read_until(NOTICE)
        with embedded(tmp_path, port, metrics_port=0):
            assert play_to_end(alice, match_id, seat) is not None
            code, out, err = watch.finish()
            assert code == 0, err
            assert out.rstrip().endswith("The match is over.")
            assert _printed_events(out) == _seen_events(alice, match_id, None)
    finally:
        if watch is not None:
            watch.kill()


def test_play_goes_on_across_a_server_restart(tmp_path):
    """A server restarting while the player was at the prompt: their choice met
    'error: UNAVAILABLE: ...' and the command ended, leaving the seat to its clock (until
    `rejoin`, `play` had no way back to it). The action is sent again (with its request id,
    so at most once) until the server is back, and the match is played to its end."""
    port, play = free_port(), None
    try:
        with embedded(tmp_path, port, metrics_port=0) as stack:
            play = _Command(stack.address, "play", "montanas", "--seats", "2", "--player", "pat")
            seated = play.read_until(PROMPT)
        match_id, seat = re.search(r"Seated at seat (\d) of match ([0-9a-f]{32})",
                                   seated).group(2, 1)
        assert play.proc.stdin is not None
        play.proc.stdin.write(b"d\n")
        play.proc.stdin.flush()
        play.read_until(NOTICE)
        with embedded(tmp_path, port, metrics_port=0) as stack:
            code, out, err = play.finish(b"d\n" * 1000)  # defaults to the end
            assert code == 0, err
            assert "Match over:" in out
            pat = player(stack, "pat")
            assert _printed_events(out) == _seen_events(pat, match_id, int(seat))
    finally:
        if play is not None:
            play.kill()


def _terminal(keyboard: Console | None = None) -> Terminal:
    out = keyboard or Console(file=io.StringIO(), width=200)
    return Terminal(out=out, err=Console(file=io.StringIO(), width=200))


def test_a_match_outlasting_the_token_is_played_to_the_end(server):
    """A player token lasts an hour (IssuePlayerToken's default), a match in the terminal
    may last longer: every call after it ended the command with 'error: UNAUTHENTICATED: the
    token has expired', the seat left to its clock. The client takes a new token."""
    remote = Remote(server)
    remote.login(API_KEY, "long-player")
    match_id, seat = seat_in_match(remote, seats=2)
    # An hour later: the token is as the server issued it an hour ago.
    expired, _ = Authority(SECRETS["PARTIDA_TOKEN_SECRET"],
                           SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"], {}).player_token(
        remote.player_id, 3600, now=time.time() - 3601)
    remote.metadata = (("authorization", f"Bearer {expired}"),)
    term = _terminal()
    client._play_seat(term, remote, "montanas", match_id, seat,
                      client._local_bot("montanas", "heuristic"))
    assert "Match over:" in term.out.file.getvalue()
    assert term.err.file.getvalue() == ""


class _Resigning(Console):
    """A player who, at the prompt, resigns the seat from another device, then types 1."""

    def __init__(self, remote: Remote, match_id: str, seat: int) -> None:
        super().__init__(file=io.StringIO(), width=200)
        self.remote, self.match_id, self.seat = remote, match_id, seat

    def input(self, *args: Any, **kwargs: Any) -> str:
        self.remote.call(self.remote.rules, "Resign", rules_pb2.ResignRequest(
            match_id=self.match_id, seat=self.seat, request_id=uuid.uuid4().hex))
        return "1"


def test_the_match_ending_while_the_player_chooses_is_no_error(server):
    """The match ended while the player was at the prompt (here they resigned elsewhere; a
    clock or another seat may end it too): their choice was answered 'error:
    FAILED_PRECONDITION: the match is over' before the end of the match was shown."""
    remote = Remote(server)
    remote.login(API_KEY, "resigner")
    match_id, seat = seat_in_match(remote, seats=2)
    elsewhere = Remote(server)
    elsewhere.login(API_KEY, "resigner")
    term = _terminal(_Resigning(elsewhere, match_id, seat))
    client._play_seat(term, remote, "montanas", match_id, seat, None)
    said = term.out.file.getvalue()
    assert term.err.file.getvalue() == ""
    assert "The match ended before your action." in said
    assert said.rstrip().endswith(f"Match over: seat {seat} gave up the defence")


class _Leaving(Console):
    """A player who reads the prompt, then quits."""

    def __init__(self) -> None:
        super().__init__(file=io.StringIO(), width=200)

    def input(self, *args: Any, **kwargs: Any) -> str:
        return "q"


def test_the_prompt_says_how_long_the_player_has(server):
    """The server plays the default when a decision's clock runs out (300 s by default); the
    prompt never said so, and a slow player found their choice refused, the match moved on."""
    remote = Remote(server)
    remote.login(API_KEY, "unhurried")
    match_id, seat = seat_in_match(remote, seats=2)
    term = _terminal(_Leaving())
    client._play_seat(term, remote, "montanas", match_id, seat, None)
    left = re.findall(r"Choose within (\d+) s, or the default is played for you\.",
                      term.out.file.getvalue())
    assert len(left) == 1 and 0 < int(left[0]) <= 300


def test_seconds_left_are_none_without_a_clock_and_never_negative():
    assert client._seconds_left(common_pb2.Decision(seats=[0])) is None
    past = common_pb2.Decision(seats=[0])
    past.deadline.FromSeconds(int(time.time()) - 60)
    assert client._seconds_left(past) == 0.0
