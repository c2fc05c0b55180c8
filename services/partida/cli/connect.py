"""The options every `partida client` command shares, and logging in with them."""

from __future__ import annotations

import os

import grpc
import typer

from partida.cli.remote import Remote

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
        raise typer.BadParameter(f"cannot log in at {server}: {e.details()}") from None
    return remote
