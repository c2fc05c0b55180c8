"""Golden transcripts: seeded bot matches whose every action, event and final state are pinned.

The files in golden/ are written by golden/regenerate.py, which also holds the specification
(games, scenarios, seats, seeds, bots). A failure here means the behaviour of a game changed:
fix the regression, or, for an intended and reviewed rule change, regenerate (see the
docstring of regenerate.py).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from partida.engine import Event, all_games, get

_PATH = Path(__file__).resolve().parent / "golden" / "regenerate.py"
_spec = importlib.util.spec_from_file_location("partida_golden_regenerate", _PATH)
assert _spec is not None and _spec.loader is not None
golden = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = golden
_spec.loader.exec_module(golden)

MATCHES = [pytest.param(gid, m, id=golden.match_id(gid, m)) for gid, m in golden.all_matches()]


def load(game_id: str, m: Any) -> dict[str, Any]:
    path = golden.path_for(game_id, m)
    assert path.exists(), f"{path.name} is missing: run tests/conformance/golden/regenerate.py"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_registered_game_has_golden_transcripts() -> None:
    missing = [g.info.id for g in all_games() if not golden.GOLDEN.get(g.info.id, None)]
    assert not missing, f"no golden matches for {missing}: add them to GOLDEN in regenerate.py"
    for gid, spec in golden.GOLDEN.items():
        assert len(spec.matches) >= 3, f"{gid}: keep at least three golden matches"


@pytest.mark.parametrize(("game_id", "match"), MATCHES)
def test_transcript_is_small_and_describes_its_match(game_id: str, match: Any) -> None:
    path = golden.path_for(game_id, match)
    data = load(game_id, match)
    assert path.stat().st_size < 300_000, f"{path.name} is too big"
    assert data["format"] == golden.FORMAT
    assert (data["game"], data["scenario"], data["seats"], data["seed"]) == (
        game_id, match.scenario, match.seats, match.seed)
    assert data["record"]["game"] == game_id and data["record"]["seats"] == match.seats
    assert data["record"]["outcome"] is not None, "a golden match must be played to the end"
    assert ("events" in data) != ("event_digests" in data)


@pytest.mark.parametrize(("game_id", "match"), MATCHES)
def test_replaying_the_recorded_actions_gives_the_same_states_and_events(
        game_id: str, match: Any) -> None:
    """The recorded actions, applied with the same stream, reproduce the initial and final
    state hashes, the randomness consumed and the full event sequence."""
    golden.check_replay(game_id, load(game_id, match))


def test_the_digest_form_for_big_transcripts_works(monkeypatch: pytest.MonkeyPatch) -> None:
    """A transcript over the size limit keeps a digest chain plus the first actions' events;
    the replay check works on that form too, and notices a changed event."""
    game_id, match = golden.all_matches()[0]
    monkeypatch.setattr(golden, "MAX_BYTES", 1_000)
    data = json.loads(golden.render(golden.transcript(game_id, match)))
    assert "events" not in data and data["event_digests"] and data["events_head"]
    assert {i for i, _ in data["events_head"]} == set(range(golden.FULL_EVENT_STEPS))
    golden.check_replay(game_id, data)
    data["event_digests"][-1] = "0" * 64
    with pytest.raises(AssertionError, match="events of action"):
        golden.check_replay(game_id, data)


def test_a_changed_event_is_noticed() -> None:
    game_id, match = golden.all_matches()[0]
    data = load(game_id, match)
    data["events"][-1][1]["data"]["tampered"] = True
    with pytest.raises(AssertionError, match="changed"):
        golden.check_replay(game_id, data)


@pytest.mark.parametrize(("game_id", "match"), MATCHES)
def test_bots_replay_the_same_match(game_id: str, match: Any) -> None:
    """Bots are deterministic given their LocalRng seeds: playing again with the same bots
    and seed gives the same actions and outcome, i.e. the same MatchRecord."""
    data = load(game_id, match)
    state, record = golden.play(game_id, match)
    want = data["record"]
    got = json.loads(json.dumps(record.to_dict()))
    for i, (w, g) in enumerate(zip(want["actions"], got["actions"], strict=False)):
        assert g == w, f"action #{i} changed: the bots now choose {g}, the transcript has {w}"
    assert got == want
    assert golden.state_digest(state) == data["final_state_sha256"]


def test_files_are_exactly_what_regenerate_writes() -> None:
    """The files are in the rendering regenerate.py produces (no hand edits), and no stray
    transcript lies around."""
    wanted = {golden.path_for(g, m).name for g, m in golden.all_matches()}
    present = {p.name for p in golden.HERE.glob("*.json")}
    assert present == wanted, f"stray or missing transcripts: {sorted(present ^ wanted)}"
    for gid, m in golden.all_matches():
        path = golden.path_for(gid, m)
        assert golden.render(load(gid, m)) == path.read_text(encoding="utf-8"), (
            f"{path.name} was edited by hand"
        )


@pytest.mark.parametrize(("game_id", "match"), MATCHES)
def test_transcripts_name_the_edition_of_the_rules_they_pin(game_id: str, match: Any) -> None:
    """A raised rules_revision comes with transcripts regenerated under it."""
    assert load(game_id, match)["rules_revision"] == get(game_id).info.rules_revision


def test_a_transcript_adjudicated_otherwise_is_rewritten_only_under_a_raised_edition(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, match = next((g, m) for g, m in golden.all_matches() if g == "montanas")
    game, data = get(game_id), load(game_id, match)

    def edition(revision: int) -> None:
        monkeypatch.setattr(game, "info", dataclasses.replace(game.info,
                                                              rules_revision=revision))

    edition(data["rules_revision"])
    assert golden.unannounced_change(game_id, data) is None  # it replays as it says
    first = game._apply
    monkeypatch.setattr(game, "_apply", lambda state, seat, action, rng: [
        *first(state, seat, action, rng), Event("ruled_anew", {})])
    why = golden.unannounced_change(game_id, data)
    assert why is not None and why.endswith(f"raise {game_id}'s GameInfo.rules_revision")
    edition(data["rules_revision"] + 1)
    assert golden.unannounced_change(game_id, data) is None
    monkeypatch.setattr(game, "legal_actions", lambda state, seat: [])  # each one refused now
    edition(data["rules_revision"])
    why = golden.unannounced_change(game_id, data)
    assert why is not None and "is not a legal action" in why
