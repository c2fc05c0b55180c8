"""One reconnect notice per outage for the whole client session: the server restarting
under `partida client play` while the player is at the prompt is met first by their
action, then by the live feed the restart broke. Real embedded servers in this process,
restarted on the same port and database; the command as a user runs it (a subprocess)."""

from __future__ import annotations

import re

from partida.devstack.servers import free_port
from tests.support.serving import embedded
from tests.unit.cli.test_audit_reconnect import NOTICE, PROMPT, _Command


def test_a_server_restart_at_the_prompt_is_announced_once(tmp_path):
    """The action sent during the restart announced the outage and waited it out; then the
    feed, broken by the same restart, announced it again once read, though the server was
    back already."""
    port, play = free_port(), None
    try:
        with embedded(tmp_path, port, metrics_port=0) as stack:
            play = _Command(stack.address, "play", "montanas", "--seats", "2",
                            "--player", "restarted")
            play.read_until(PROMPT)
        assert play.proc.stdin is not None
        play.proc.stdin.write(b"d\n")
        play.proc.stdin.flush()
        play.read_until(NOTICE)
        with embedded(tmp_path, port, metrics_port=0):
            code, out, err = play.finish(b"d\n" * 1000)  # defaults to the end
        assert code == 0, err
        assert "Match over:" in out
        assert len(re.findall(NOTICE, out)) == 1, out
    finally:
        if play is not None:
            play.kill()
