"""`partida client campaign ...`: open a campaign between teams, and read its standings.

open GAME --team NAME=PLAYER[,PLAYER...] --team ...   players are named as at `--player`
show CAMPAIGN_ID
Then each player plays its scenarios with `partida client play GAME --campaign ID --team NAME`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import grpc
import typer

from partida.cli.connect import API_KEY, PLAYER, SERVER, connect, ends_cleanly
from partida.cli.render import campaign as render
from partida.cli.terminal import Terminal

campaign = typer.Typer(name="campaign", no_args_is_help=True, help=__doc__.splitlines()[0])
TEAMS = typer.Option(..., "--team", help="NAME=PLAYER[,PLAYER...]; once per team")


def parse_teams(specs: list[str]) -> dict[str, list[str]]:
    """`NAME=a,b` specs as {team: [player names]}; each team named once, with players, and
    each player in one team, once."""
    teams: dict[str, list[str]] = {}
    seen: set[str] = set()
    for spec in specs:
        name, _, players = spec.partition("=")
        names = [p.strip() for p in players.split(",") if p.strip()]
        if not name.strip() or not names:
            raise typer.BadParameter(f"a team is NAME=PLAYER[,PLAYER...], not {spec!r}")
        if name.strip() in teams:
            raise typer.BadParameter(f"team {name.strip()!r} is given twice")
        for player in names:
            if player in seen:
                raise typer.BadParameter(f"player {player!r} is named twice: a player "
                                         "plays for one team")
            seen.add(player)
        teams[name.strip()] = names
    return teams


def _answer(term: Terminal, call: Callable[[], Any]) -> Any:
    """The call's answer; a refusal is printed with its status and ends the command."""
    try:
        return call()
    except grpc.RpcError as e:
        term.error(f"{e.code().name}: {e.details()}")
        raise typer.Exit(1) from None


@campaign.command("open")
@ends_cleanly
def open_campaign(game: str, team: list[str] = TEAMS, server: str = SERVER,
                  api_key: str = API_KEY, player: str = PLAYER) -> None:
    """Open a campaign of GAME between the teams given (you must be in one of them)."""
    teams = parse_teams(team)
    term = Terminal()
    remote = connect(server, api_key, player)
    ids = {name: [remote.player_id_of(api_key, p) for p in players]
           for name, players in teams.items()}
    opened = _answer(term, lambda: remote.open_campaign(game, ids, uuid.uuid4().hex))
    term.say(f"Campaign {opened.campaign_id} opened")
    term.show(render.render(opened))


@campaign.command()
@ends_cleanly
def show(campaign_id: str, server: str = SERVER, api_key: str = API_KEY,
         player: str = PLAYER) -> None:
    """The standings and the scenarios played and to play."""
    term = Terminal()
    remote = connect(server, api_key, player)
    term.show(render.render(_answer(term, lambda: remote.campaign(campaign_id))))
