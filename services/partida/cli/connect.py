"""The options every `partida client` command shares, and logging in with them."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import grpc
import typer

from partida.cli.remote import Remote
from partida.cli.terminal import Terminal

P = ParamSpec("P")
R = TypeVar("R")
INTERRUPTED = 130  # the shell's code for a command ended by Ctrl-C

SERVER = typer.Option(os.environ.get("PARTIDA_SERVER", "127.0.0.1:50051"), "--server",
                      help="host:port of the partida server")
API_KEY = typer.Option(os.environ.get("PARTIDA_API_KEY", "dev-key"), "--api-key",
                       help="integrator API key used to log the player in")
PLAYER = typer.Option(os.environ.get("USER", "player"), "--player", help="player name")


def connect(server: str, api_key: str, player: str) -> Remote:
    # In a split deployment each service may answer elsewhere: PARTIDA_<SERVICE>_ADDRESS.
    addresses = {svc: os.environ[f"PARTIDA_{svc.upper()}_ADDRESS"]
                 for svc in ("rules", "matchmaking", "persistence", "dice")
                 if os.environ.get(f"PARTIDA_{svc.upper()}_ADDRESS")}
    remote = Remote(server, addresses=addresses)
    try:
        remote.login(api_key, player)
    except grpc.RpcError as e:
        what = ("cannot reach the server at" if e.code() in _UNREACHABLE
                else f"cannot log in as {player!r} at")
        Terminal().error(f"{what} {server}: {refusal(e)}")
        raise typer.Exit(1) from None
    # Logged in, the server is there: from now on an UNAVAILABLE (restarting, busy, a store
    # briefly away) is waited out rather than ending a match the player cannot rejoin.
    remote.retry_seconds = RETRY_SECONDS
    remote.on_retry = lambda e: Terminal().say(
        f"The server does not answer ({refusal(e)}); trying again...")
    return remote


RETRY_SECONDS = 60.0


_UNREACHABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def refusal(e: grpc.RpcError) -> str:
    """A refused or failed call in one line: its status and the server's words."""
    code, details = getattr(e, "code", None), getattr(e, "details", None)
    name = code().name if callable(code) else "ERROR"
    words = (details() if callable(details) else None) or str(e)
    return f"{name}: {' '.join(str(words).split())}"


def ends_cleanly(command: Callable[P, R]) -> Callable[P, R]:
    """A command whose failed calls (server gone, match unknown, call refused) and Ctrl-C,
    at a prompt or anywhere else, end it with one line on stderr and a non-zero exit (130
    for Ctrl-C), no traceback."""
    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except grpc.RpcError as e:
            Terminal().error(refusal(e))
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            Terminal().error("interrupted")
            raise typer.Exit(INTERRUPTED) from None
    return run
