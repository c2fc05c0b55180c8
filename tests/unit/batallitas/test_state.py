"""The match state: noses, squads, markers, hidden hands, the bag and counters serialize without
loss and clone cheaply and independently (ARCHITECTURE.md, "The engine contract")."""

import json

import pytest

from partida.engine import LocalRng
from partida.games.batallitas import setup
from partida.games.batallitas.content import load
from partida.games.batallitas.state import BatallitasState


@pytest.fixture(scope="module")
def state():
    c = load()
    squads, noses = setup.build_squads(c, c.scenario("last_game"))
    s = BatallitasState("last_game", 2, list(setup.SIDES), {}, squads, noses)
    setup.deal(c, s, LocalRng(4), [])
    s.markers.append({"kind": "decoy", "pos": [3, 3], "face_down": True, "owner": "papal"})
    s.blasts.append({"pos": [1, 1], "kind": "slows", "squad": 0})
    s.counters["papal_lost"] = 2
    s.noses[0].jammed.append("pistol")
    return s


def test_round_trip_through_json_is_lossless(state):
    text = json.dumps(state.to_dict(), sort_keys=True)
    back = BatallitasState.from_dict(json.loads(text))
    assert json.dumps(back.to_dict(), sort_keys=True) == text
    assert back.nose("s0.0").jammed == ["pistol"] and back.squads[2].spec == "fans"


def test_clone_is_equal_and_independent(state):
    twin = state.clone()
    assert twin.to_dict() == state.to_dict()
    twin.noses[0].ammo["x"] = 1
    twin.noses[0].attrs["actions"] = 0
    twin.hands[0].append("extra")
    twin.markers[0]["kind"] = "secret_passage"
    twin.squads[0].leader = None
    assert "x" not in state.noses[0].ammo and state.noses[0].attrs["actions"] == 5
    assert "extra" not in state.hands[0] and state.markers[0]["kind"] == "decoy"
    assert state.squads[0].leader == "s0.0"


def test_unknown_fields_are_refused(state):
    data = state.to_dict()
    data["surprise"] = 1
    with pytest.raises(ValueError):
        BatallitasState.from_dict(data)


def test_scenario_one_forces_and_hands(state):
    """Scenario 1, Forces: two Macute squads against one Fans squad led by a Lethal Fan;
    Event cards: two per squad, one fewer for the Macutes' inept sergeant."""
    assert [(sq.spec, sq.side) for sq in state.squads] == [
        ("macutes", "papal"), ("macutes", "papal"), ("fans", "rebel")]
    assert [len(state.members(i)) for i in range(3)] == [5, 5, 5]
    assert state.nose("s2.0").kind.startswith("lethal_fans/")
    assert [len(h) for h in state.hands] == [2, 2]
    assert [len(h) + len(d) for h, d in zip(state.hands, state.decks, strict=True)] == [12, 12]
