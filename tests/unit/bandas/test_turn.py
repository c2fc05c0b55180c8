"""The turn (the book's opening paragraphs: initiative, alternating activation, clockwise with
three players; Acciones: actions by grade) and the end of the match (RULES.md: rout, limit)."""

import pytest

from partida.engine import IllegalAction

from .positions import GAME, ScriptedRng, act, activate, arena, kinds, of


def test_initiative_highest_roll_first_ties_reroll():
    """Opening paragraphs: one d6 per player, the highest activates first; a tie re-rolls."""
    state = arena(keep={"ch_jefa": (8, 30), "mu_grumo": (112, 30)})
    ev = []
    GAME._new_turn(state, ScriptedRng(4, 4, 2, 5), ev)
    assert of(ev, "initiative")[0]["rolls"] == [{"0": 4, "1": 4}, {"0": 2, "1": 5}]
    assert state.order == [1, 0] and GAME.to_act(state) == (1,)


def test_three_players_activate_clockwise_from_the_winner():
    """Opening paragraphs: with three players activation goes round clockwise (seat order)."""
    state = arena("scramble", 3, {"ch_jefa": (8, 25), "mu_grumo": (112, 25), "fe_nodo": (50, 83)})
    GAME._new_turn(state, ScriptedRng(2, 3, 6), [])
    assert state.order == [2, 0, 1]
    plan = ((2, "fe_nodo", ()), (0, "ch_jefa", ()), (1, "mu_grumo", (1, 6, 2)))
    for seat, unit, faces in plan:
        assert GAME.to_act(state) == (seat,)
        act(state, f"activate:{unit}")
        act(state, "end", *faces)          # the last one ends the turn: a new roll
    assert state.turn == 3 and state.order == [1, 2, 0]   # arena is turn 1, then 2, now 3


def test_activations_alternate_and_a_seat_without_units_is_passed_over():
    """Opening paragraphs: one unit of one side, then one of the other, until none is left."""
    state = arena(keep={"ch_jefa": (8, 30), "ch_pico": (8, 50), "mu_grumo": (112, 30)})
    act(state, "activate:ch_jefa")
    act(state, "end")
    assert GAME.to_act(state) == (1,)
    act(state, "activate:mu_grumo")
    act(state, "end")
    assert GAME.to_act(state) == (0,)      # seat 1 has nothing left: seat 0 goes on
    assert [a.id for a in GAME.legal_actions(state, 0)] == ["activate:ch_pico"]
    act(state, "activate:ch_pico")
    ev = act(state, "end", 3, 5)            # everyone has acted: a new initiative roll
    assert of(ev, "initiative")[0]["turn"] == 2 and GAME.to_act(state) == (1,)


@pytest.mark.parametrize(("unit", "actions"), [("ch_jefa", 3), ("ch_pico", 2), ("ch_lata", 2)])
def test_actions_by_grade(unit, actions):
    """Acciones / Tipos de tropas: veterans 3 actions, gangers and henchmen 2; the activation
    ends by itself when they are spent."""
    state = arena(keep={unit: (60, 80), "mu_grumo": (112, 30)})
    activate(state, unit)
    for k in range(actions):
        assert state.active is not None
        act(state, f"move:{60 + 2 * (k + 1)}.0,80.0")
    assert state.active is None and state.models[unit]["activated"]


def test_anything_but_the_activated_unit_is_refused():
    state = arena(keep={"ch_jefa": (60, 80), "ch_pico": (50, 80), "mu_grumo": (112, 30)})
    activate(state, "ch_jefa")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "activate:ch_pico", ScriptedRng())
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, "end", ScriptedRng())


def test_rout_at_the_end_of_the_turn_ends_a_two_gang_match():
    """RULES.md (the book has no rout): half the gang out of action at the end of a turn."""
    state = arena(keep={"ch_jefa": (8, 30), "ch_pico": (8, 50), "mu_grumo": (112, 30),
                        "mu_baba": (112, 50)})
    state.models["ch_pico"]["status"] = "out"
    for m in ("mu_grumo", "mu_baba"):
        state.models[m]["activated"] = True
    activate(state, "ch_jefa")
    ev = act(state, "end")
    assert "routed" in kinds(ev)
    assert GAME.outcome(state).winners == (1,)


def test_turn_limit_gives_the_match_to_the_gang_with_most_left():
    """RULES.md: at the table's turn limit the largest share of points still in action wins."""
    state = arena(keep={"ch_jefa": (8, 30), "ch_pico": (8, 50), "ch_lata": (8, 60),
                        "mu_grumo": (112, 30), "mu_baba": (112, 50), "mu_ojo": (112, 60)})
    state.models["mu_baba"]["status"] = "out"     # 1 of 3 out: no rout, but a loss of points
    state.turn = 8
    for m in state.models.values():
        m["activated"] = m["id"] != "ch_jefa"
    activate(state, "ch_jefa")
    act(state, "end")
    out = GAME.outcome(state)
    assert out.winners == (0,) and "turn limit" in out.reason


def test_resigning_routs_the_gang():
    state = arena("scramble", 3, {"ch_jefa": (8, 25), "mu_grumo": (112, 25), "fe_nodo": (50, 83)})
    GAME.resign(state, 0)
    assert GAME.outcome(state) is None and 0 in state.routed
    assert GAME.to_act(state) == (1,) and [a.id for a in GAME.legal_actions(state, 1)] == \
        ["continue"]
    act(state, "continue")                      # seat 1 goes on: its own activation
    assert GAME.to_act(state) == (1,) and state.active is None
    assert [a.id for a in GAME.legal_actions(state, 1)] == ["activate:mu_grumo"]
    GAME.resign(state, 2)
    assert GAME.outcome(state).winners == (1,)
