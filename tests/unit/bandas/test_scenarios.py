"""The authored tables' objectives (ours; RULES.md, objectives and turn limit)."""

import pytest

from partida.engine import BadSetup, LocalRng
from partida.engine import conformance as kit
from partida.games.bandas import combat as C

from .positions import GAME, act, activate, arena, of


def test_scramble_crates_are_picked_up_dropped_and_two_win():
    """Scramble: a move ending within 2 cm of a crate takes it; out of action drops it."""
    state = arena("scramble", 3, {"ch_jefa": (52, 55), "mu_grumo": (112, 25),
                                  "fe_nodo": (50, 83), "ch_pico": (57, 40)})
    activate(state, "ch_jefa")
    ev = act(state, "move:54.0,55.0")
    assert of(ev, "loot_taken")[0]["at"] == [55.0, 55.0] and state.models["ch_jefa"]["loot"] == 1
    C.worsen(state, "ch_jefa", "out", [])
    assert [54.0, 55.0] in state.loot and state.models["ch_jefa"]["loot"] == 0
    state.models["ch_pico"]["loot"] = 1
    activate(state, "ch_pico")
    act(state, "move:59.0,44.0")
    assert GAME.outcome(state).winners == (0,)


def test_convoy_turn_limit_goes_to_the_ambushers():
    state = arena("convoy_ambush", keep={"em_rata": (65, 40)},
                  vehicles={"ca_camion": (12, 45, 0)})
    state.turn = 6
    for m in state.models.values():
        m["activated"] = True
    activate(state, "ca_camion")
    act(state, "end")
    out = GAME.outcome(state)
    assert out.winners == (1,) and "did not get through" in out.reason


CUSTOM = {"id": "propia", "name": "Mi Banda", "points_limit": 175,
          "models": [{"id": "yo_jefe", "name": "Jefe", "grade": "veteran",
                      "weapons": ["laser_rifle", "sabre"], "armour": "composite"},
                     {"id": "yo_conductor", "name": "Volante", "grade": "henchman",
                      "weapons": ["pistol"]},
                     {"id": "yo_perro", "name": "Perro", "grade": "animal",
                      "weapons": ["spear", "sabre"]}],
          "vehicles": [{"id": "yo_bugi", "name": "Bugi", "kind": "buggy", "armour": "light",
                        "driver": "yo_conductor"}]}


def test_a_gang_sheet_submitted_as_data_is_set_up_in_its_deployment_zone():
    """Gangs as data (issue 8): a legal sheet replaces the side's ready-made gang."""
    state = GAME.new_state("street_fight", 2, {"gangs": {"oeste": CUSTOM}}, LocalRng(0))
    mine = {mid for mid, m in state.models.items() if m["seat"] == 0}
    assert mine == {"yo_jefe", "yo_conductor", "yo_perro"}
    assert state.models["yo_conductor"]["vehicle"] == "yo_bugi"
    assert all(2 <= m["x"] <= 20 for mid, m in state.models.items() if mid in mine)
    p = kit.random_playout(GAME, "street_fight", 2, 3, 3000, {"gangs": {"oeste": CUSTOM}})
    kit.check_terminates(p)
    kit.check_replay(p)


@pytest.mark.parametrize(("gangs", "message"), [
    ({"oeste": {**CUSTOM, "points_limit": 500}}, "allows 175 points"),
    ({"norte": CUSTOM}, "no side 'norte'"),
    ({"oeste": {**CUSTOM, "models": [{**CUSTOM["models"][0], "skills": ["winged"] * 3}]}},
     "skill winged taken twice"),
    ({"oeste": {**CUSTOM, "models": [{**CUSTOM["models"][0], "id": "mu_grumo"}],
                "vehicles": []}}, "ids used by two gangs"),
    ("a gang", "maps a side id"),
])
def test_illegal_submitted_gangs_are_refused_with_the_reason(gangs, message):
    with pytest.raises(BadSetup, match=message):
        GAME.new_state("street_fight", 2, {"gangs": gangs}, LocalRng(0))
