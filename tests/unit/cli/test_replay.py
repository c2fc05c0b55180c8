"""`partida replay`: a saved match replays to its outcome; damaged files are refused clearly."""

import json

import pytest

PLAY = ("play", "montanas", "--players", "3", "--bots", "3", "--seed", "1", "--no-pause")


@pytest.fixture
def saved(invoke, tmp_path):
    path = tmp_path / "match.json"
    assert invoke(*PLAY, "--save", str(path)).exit_code == 0
    return path


def _rewrite(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def test_replay_reproduces_and_confirms_the_outcome(invoke, saved, reference):
    result = invoke("replay", str(saved))
    assert result.exit_code == 0, result.output
    assert "Replay verified: the outcome equals the recorded one." in result.output
    assert f"Outcome: WON: {reference.outcome.reason}" in result.output \
        or f"Outcome: LOST: {reference.outcome.reason}" in result.output
    n = len(reference.actions)
    assert f"#{n} seat " in result.output and f"#{n + 1} seat " not in result.output


def test_replay_no_step_on_a_pipe_needs_no_input(invoke, saved):
    for flag in ("--step", "--no-step"):  # stdin is not a TTY: --step does not wait
        result = invoke("replay", str(saved), flag, input="")
        assert result.exit_code == 0
        assert "Replay verified" in result.output and "stopped" not in result.output


@pytest.mark.parametrize("text, message", [
    ("{not json", "is not valid JSON"),
    ("", "is not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
])
def test_a_file_that_is_not_a_record_is_refused(invoke, tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = invoke("replay", str(path))
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("seed"), "the field 'seed' is missing"),
    (lambda d: d.update(seed="zz"), "'seed' must be hexadecimal"),
    (lambda d: d.update(seats="3"), "'seats' must be of type int"),
    (lambda d: d["actions"].__setitem__(4, ["0", "deploy:1"]), "action #5 must be [seat"),
    (lambda d: d.update(game="chess"), "unknown game 'chess'"),
    (lambda d: d.update(seats=9), "set-up is refused"),
])
def test_a_malformed_record_is_refused(invoke, saved, change, message):
    result = invoke("replay", str(_rewrite(saved, change)))
    assert result.exit_code != 0
    assert message in result.output


def test_an_altered_action_is_refused_by_the_rules(invoke, saved):
    def alter(d):
        d["actions"][40][1] = "play:999:m1"
    result = invoke("replay", str(_rewrite(saved, alter)))
    assert result.exit_code != 0
    assert "action #41" in result.output and "refused by the rules" in result.output


def test_an_action_by_the_wrong_seat_is_refused(invoke, saved):
    def alter(d):
        seat, _ = d["actions"][0]
        d["actions"][0][0] = (seat + 1) % 3
    result = invoke("replay", str(_rewrite(saved, alter)))
    assert result.exit_code != 0
    assert "action #1" in result.output and "has no decision" in result.output


def test_extra_actions_after_the_end_are_refused(invoke, saved):
    result = invoke("replay", str(_rewrite(saved, lambda d: d["actions"].append([0, "end"]))))
    assert result.exit_code != 0
    assert "the match is over" in result.output


def test_a_different_recorded_outcome_is_reported(invoke, saved):
    def alter(d):
        d["outcome"]["reason"] = "the cook burnt the soup"
    result = invoke("replay", str(_rewrite(saved, alter)))
    assert result.exit_code != 0
    assert "does not reproduce the record" in result.output
    assert "Replay verified" not in result.output


def test_missing_actions_make_the_outcome_differ(invoke, saved):
    result = invoke("replay", str(_rewrite(saved, lambda d: d["actions"].pop())))
    assert result.exit_code != 0
    assert "does not reproduce the record" in result.output
