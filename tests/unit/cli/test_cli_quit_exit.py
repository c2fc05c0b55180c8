"""`partida play` (local, no server) tells a quit match from a finished one by its exit status,
as `partida client play` does: 3 when the player leaves it unfinished, 0 when it ends."""

import json
import subprocess
import sys
from pathlib import Path

LEFT = 3  # the exit status of a match left unfinished (client.py's, and now the local one's)
PARTIDA = str(Path(sys.executable).parent / "partida")
ONE_HUMAN = ("play", "montanas", "--players", "1", "--bots", "0", "--no-pause")


def test_q_at_the_prompt_exits_3_after_saving_the_unfinished_record(invoke, tmp_path):
    """Quitting exited 0, as a finished match does: a script could not tell them apart."""
    path = tmp_path / "match.json"
    result = invoke(*ONE_HUMAN, "--seed", "9", "--save", str(path), input="d\nq\n")
    assert result.exit_code == LEFT, result.output
    assert "You quit after 1 action; the match is unfinished." in result.output
    saved = json.loads(path.read_text())  # the exit comes after the save, not instead of it
    assert saved["outcome"] is None and len(saved["actions"]) == 1


def test_the_end_of_input_exits_3_from_the_real_command():
    """The process's own status, not only the test runner's: a script reads this one."""
    done = subprocess.run([PARTIDA, *ONE_HUMAN, "--seed", "1"], input="", text=True,
                          capture_output=True, timeout=120)
    assert done.returncode == LEFT, done.stderr
    assert "You quit after 0 actions" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_human_match_played_to_its_end_still_exits_0(invoke):
    result = invoke(*ONE_HUMAN, "--seed", "3", input="d\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Outcome: " in result.output
