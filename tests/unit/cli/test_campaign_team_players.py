"""`partida client campaign open`: a player named in two teams (or twice in one) is refused by
name, before the command creates or looks up anyone."""

import pytest
import typer

from partida.cli.campaign import parse_teams


@pytest.mark.parametrize("specs", [["posse=ana", "gang=cy, ana"], ["posse=ana,ana", "gang=cy"]])
def test_a_player_named_twice_is_refused_by_name(specs):
    """Rulebook 9 scores teams, so a player plays for one team. The command took the specs,
    created a player for every name, and only then did the server refuse, naming the
    player by an opaque id ("player '3f9c...' is in teams 'posse' and 'gang'") instead of
    the name typed."""
    with pytest.raises(typer.BadParameter, match="'ana'"):
        parse_teams(specs)
