"""`partida play`: all-bot matches, saved records, and a human seat driven by typed input."""

import json

import pytest

from partida.cli.main import app
from partida.engine import StreamRng, get
from partida.engine.bots import MatchRecord, RandomBot, play_match

ALL_BOTS = ("play", "montanas", "--players", "3", "--bots", "3", "--seed", "1", "--no-pause")


def _verdict(outcome):
    return f"Outcome: {'WON' if outcome.winners else 'LOST'}: {outcome.reason}."


def test_all_bot_match_runs_to_the_end_and_prints_the_outcome(invoke, reference):
    result = invoke(*ALL_BOTS)
    assert result.exit_code == 0, result.output
    assert _verdict(reference.outcome) in result.output
    assert f"Monsters killed: {reference.killed}/43" in result.output


def test_dice_and_events_are_printed_as_they_fall(invoke):
    out = invoke(*ALL_BOTS).output
    assert "Monster dice: red " in out
    assert "enters alley" in out and "Red die " in out
    assert "Seat 2 (heuristic bot): " in out


def test_saved_record_is_the_engine_play_match_record(invoke, reference, tmp_path):
    """Same seed, same stream, same bots: the CLI plays exactly the engine's reference match."""
    path = tmp_path / "match.json"
    result = invoke(*ALL_BOTS, "--save", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text()) == reference.to_dict()


def test_another_seed_plays_another_match(invoke, reference, tmp_path):
    path = tmp_path / "match.json"
    args = [a if a != "1" else "2" for a in ALL_BOTS]
    assert invoke(*args, "--save", str(path)).exit_code == 0
    saved = json.loads(path.read_text())
    assert saved["match_id"] == "local-2" and saved["actions"] != reference.to_dict()["actions"]


def test_random_bots_draw_from_their_own_rng_as_in_play_match(invoke, tmp_path):
    path = tmp_path / "match.json"
    result = invoke(*ALL_BOTS, "--bot", "random", "--save", str(path))
    assert result.exit_code == 0, result.output
    assert "Seat 0 (random bot): " in result.output
    _, expected = play_match(get("montanas"), "standard", [RandomBot() for _ in range(3)], 1)
    assert json.loads(path.read_text()) == expected.to_dict()


def _replay_checking(record_path, check):
    """Replay a saved record on the engine, calling check(game, state, seat, action) first."""
    record = MatchRecord.from_dict(json.loads(record_path.read_text()))
    game = get(record.game)
    rng = StreamRng(bytes.fromhex(record.seed_hex), record.match_id)
    state = game.new_state(record.scenario, record.seats, record.options, rng)
    for seat, action in record.actions:
        check(game, state, seat, action)
        game.apply(state, seat, action, rng)
    return game.outcome(state)


def test_human_seat_reprompts_on_garbage_then_plays_defaults(invoke, tmp_path):
    path = tmp_path / "match.json"
    typed = "x\n999\n\n0\n-1\n1.5\n" + "d\n" * 3000
    result = invoke("play", "montanas", "--players", "2", "--bots", "1", "--seed", "3",
                    "--no-pause", "--save", str(path), input=typed)
    assert result.exit_code == 0, result.output
    for garbage in ("'x'", "'999'", "''", "'0'", "'-1'", "'1.5'"):
        assert f"{garbage} is not a choice" in result.output
    assert result.output.count("is not a choice") == 6
    assert "Outcome: " in result.output

    human = []

    def check(game, state, seat, action):
        if seat == 0:
            assert action == game.default_action(state, 0)
            human.append(action)
    assert _replay_checking(path, check) is not None
    assert len(human) == result.output.count("Seat 0 (you): ") > 0


def test_a_number_picks_that_action(invoke, tmp_path):
    path = tmp_path / "match.json"
    result = invoke("play", "montanas", "--players", "2", "--bots", "1", "--seed", "4",
                    "--no-pause", "--save", str(path), input="6\n3\nq\n")
    assert result.exit_code == 3, result.output  # quit unfinished
    picks = []

    def check(game, state, seat, action):
        if seat == 0:
            picks.append([a.id for a in game.legal_actions(state, 0)].index(action))
    _replay_checking(path, check)
    assert picks == [5, 2]


def test_q_quits_cleanly_and_the_partial_record_replays(invoke, tmp_path):
    path = tmp_path / "match.json"
    result = invoke("play", "montanas", "--players", "1", "--bots", "0", "--seed", "9",
                    "--save", str(path), input="nope\nd\nd\nq\nd\n")
    assert result.exit_code == 3, result.output
    assert "You quit after 2 actions" in result.output
    saved = json.loads(path.read_text())
    assert saved["outcome"] is None and len(saved["actions"]) == 2
    replayed = invoke("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    assert "unfinished match" in replayed.output


def test_end_of_input_counts_as_quitting(invoke):
    result = invoke("play", "montanas", "--players", "1", "--bots", "0", "--seed", "1",
                    input="")
    assert result.exit_code == 3, result.output
    assert "You quit after 0 actions" in result.output


@pytest.mark.parametrize("args, message", [
    (("play", "chess"), "unknown game 'chess'"),
    (("play", "montanas", "--scenario", "nope"), "no scenario 'nope'"),
    (("play", "montanas", "--players", "3", "--bots", "4"), "more than the 3 players"),
    (("play", "montanas", "--players", "6", "--bots", "6"), "1-5 players"),
    (("play", "montanas", "--bot", "genius", "--bots", "1", "--players", "1"), "no bot 'genius'"),
])
def test_bad_settings_exit_with_a_message(runner, args, message):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_games_lists_games_and_scenarios(invoke):
    result = invoke("games")
    assert result.exit_code == 0
    for text in ("montanas", "Las Montañas", "standard", "no_barricades", "heuristic"):
        assert text in result.output
