"""Scenario 3, Drums in the Dark, on the (reconstructed) board 3: the Fanhunters' short
command distance and their way out by the east side (Scenario 3: "This place gives me the
creeps", "Objectives and victory conditions"). Squad 0 is the Fanhunters (s0.0 the sergeant),
squad 1 the Lethal Fans. Positions built directly."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.rules import INFO
from partida.games.batallitas.state import GONE

from .positions import ids, scenario_position

SARGE, HUNTER, HUNTER2, LETHAL = "s0.0", "s0.1", "s0.2", "s1.1"


def test_scenario_3_is_offered():
    assert "drums" in [sc.id for sc in INFO.scenarios]


def test_the_fanhunters_command_reaches_only_four_cells():
    """This place gives me the creeps: the Fanhunters' command distance is four all game."""
    game, s = scenario_position("drums", {SARGE: ((1, 6), "E"), HUNTER: ((5, 6), "E"),
                                          HUNTER2: ((6, 6), "E"), LETHAL: ((11, 0), "S")})
    assert s.squads[0].command == 4
    T.activate(s, s.squads[0], [])
    assert not s.nose(HUNTER).pajara and s.nose(HUNTER2).pajara


def test_fanhunters_leave_by_the_east_side_only():
    """They must leave by the side opposite their entry (east); leaving costs a forward step
    facing out (RULES.md decision); the Lethal Fans have no way out."""
    game, s = scenario_position("drums", {HUNTER: ((11, 6), "E"), LETHAL: ((11, 0), "E"),
                                          SARGE: ((0, 6), "W")})
    assert [a for a in ids(game, s) if a.startswith("leave:")] == ["leave:east"]
    game.apply(s, 0, "leave:east", LocalRng(0))
    assert s.nose(HUNTER).status == GONE and s.nose(HUNTER).spent == 1 and s.result is None
    game.apply(s, 0, f"act:{SARGE}", LocalRng(0))
    assert not any(a.startswith("leave:") for a in ids(game, s))  # on the west edge
    s.nose(LETHAL).pos = [11, 1]
    s.active_squad, s.active_nose = 1, LETHAL
    assert not any(a.startswith("leave:") for a in ids(game, s))


def test_two_fanhunters_out_win_for_the_papal_side():
    game, s = scenario_position("drums", {HUNTER: ((11, 6), "E"), HUNTER2: ((11, 7), "N"),
                                          LETHAL: ((2, 0), "S")})
    game.apply(s, 0, "leave:east", LocalRng(0))
    game.apply(s, 0, f"act:{HUNTER2}", LocalRng(0))
    game.apply(s, 0, "leave:east", LocalRng(0))
    assert s.nose(HUNTER2).spent == 2  # facing north: a sideways step out
    assert s.result is not None and s.result["side"] == "papal"


def test_the_rebels_win_once_two_cannot_get_out_or_time_runs_out():
    """The rebels win by preventing it: when fewer than two Fanhunters remain to leave, or
    when the turn limit option ends the game (RULES.md decision)."""
    game, s = scenario_position("drums", {HUNTER: ((5, 6), "E"), HUNTER2: ((6, 6), "E"),
                                          LETHAL: ((2, 0), "S")})
    T.hurt(s, s.nose(HUNTER), 5, [])
    assert s.result is not None and s.result["side"] == "rebel"
    game, s = scenario_position("drums", {HUNTER: ((5, 6), "E"), HUNTER2: ((6, 6), "E"),
                                          LETHAL: ((2, 0), "S")}, turn=12)
    T.end_turn(s, [])
    assert s.result is not None and s.result["side"] == "rebel"
