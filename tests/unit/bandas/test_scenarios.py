"""The authored tables' objectives (ours; RULES.md, objectives and turn limit)."""

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
