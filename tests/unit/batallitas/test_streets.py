"""Scenario 6, Streets of Fire (Boards, Deployment, The secret passage, Objectives and victory
conditions): the four boards laid in turn, the entry edges, the face-down markers and the papal
search. Positions built directly."""

from partida.engine import LocalRng
from partida.games.batallitas import placement
from partida.games.batallitas.rules import Batallitas
from partida.games.batallitas.state import BatallitasState
from partida.games.batallitas.turn import activate
from partida.games.batallitas.world import state_map

from .positions import ScriptedRng, ids, scenario_position

SCENARIO = "streets_of_fire"
SQUARE = ((6, 0, 0), (1, 1, 0), (2, 0, 1), (3, 1, 1))  # board 6 north-west, 1, 2, 3


def test_the_players_lay_four_boards_in_turn_papal_first_as_a_rectangle():
    """Boards: the papal player places a board, then the rebel player one joined to it by a
    whole side, and so on to four. RULES.md decision: the four make a rectangle, so after an L
    of three only the square's last corner is offered."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    assert game.to_act(s) == (0,) and ids(game, s) == [f"board:{b}:0,0" for b in range(1, 9)]
    game.apply(s, 0, "board:6:0,0", LocalRng(1))
    assert game.to_act(s) == (1,)
    assert {a.split(":", 2)[2] for a in ids(game, s)} == {"1,0", "-1,0", "0,1", "0,-1"}
    assert not any(a.startswith("board:6:") for a in ids(game, s))
    game.apply(s, 1, "board:1:1,0", LocalRng(1))
    game.apply(s, 0, "board:2:0,1", LocalRng(1))
    assert {a.split(":", 2)[2] for a in ids(game, s)} == {"1,1"}
    game.apply(s, 1, "board:3:1,1", LocalRng(1))
    assert sorted(map(tuple, s.boards)) == sorted(SQUARE)
    assert s.setup[0]["kind"] != "board"


def test_no_board_is_laid_where_a_wall_would_meet_a_door():
    """Boards (RULES.md decision): board 4's east side has doors, boards 1 and 2 a walled west
    side; neither is offered east of board 4, though both are elsewhere round it, and the map
    laid is always one that joins."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    game.apply(s, 0, "board:4:0,0", LocalRng(1))
    offered = set(ids(game, s))
    assert {"board:1:1,0", "board:2:1,0"}.isdisjoint(offered)
    assert {"board:1:-1,0", "board:2:0,1", "board:3:1,0"} <= offered
    assert placement.clashes([[4, 0, 0], [1, 1, 0]])
    assert not placement.clashes([[1, 0, 0], [4, 1, 0]])


def test_a_board_laid_west_or_north_shifts_the_layout():
    """Placements are counted from the first board; the stored layout starts at 0."""
    s = BatallitasState(scenario=SCENARIO, seats=2, sides=["papal", "rebel"], options={},
                        squads=[], noses=[])
    placement.place(s, 6, 0, 0, [])
    placement.place(s, 1, -1, 0, [])
    assert s.boards == [[6, 1, 0], [1, 0, 0]]
    placement.place(s, 2, 2, 0, [])
    placement.place(s, 3, 3, 0, [])
    assert placement.spots(s) == []


def test_the_rebels_hide_four_markers_on_one_board():
    """The secret passage: two decoys, the teddy bear and the passage face down on four empty
    cells of one board of the rebel player's choice."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    while s.setup[0]["kind"] != "hide":
        seat = game.to_act(s)[0]
        game.apply(s, seat, game.default_action(s, seat), LocalRng(1))
    assert game.to_act(s) == (1,)
    m = state_map(s)
    boards = {m.board(cell(a)) for a in ids(game, s)}
    assert len(boards) == 4
    game.apply(s, 1, ids(game, s)[-1], LocalRng(1))
    first = m.board(tuple(s.markers[0]["pos"]))
    assert {m.board(cell(a)) for a in ids(game, s)} == {first}
    for _ in range(3):
        game.apply(s, 1, ids(game, s)[0], LocalRng(2))
    assert sorted(k["kind"] for k in s.markers) == [
        "decoy", "decoy", "secret_passage", "teddy_bear"]
    assert all(k["face_down"] and k["owner"] == "rebel" for k in s.markers)


def cell(action_id):
    x, y = action_id.split(":")[1].split(",")
    return (int(x), int(y))


def test_the_first_side_to_come_on_picks_its_edge_the_other_the_opposite():
    """Deployment: the side that goes first picks an edge of the map for all its squads; the
    other side's squads enter by the opposite edge (RULES.md decision: picked by its first
    nose's entry)."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    s.setup, s.boards = [], [list(b) for b in SQUARE]
    activate(s, s.squads[0], [])
    s.prompts = []
    game.apply(s, 0, "act:s0.1", LocalRng(1))
    assert {a.split(":")[1] for a in ids(game, s) if a.startswith("enter")} == {
        "north", "east", "south", "west"}
    game.apply(s, 0, "enter:north:5,0", LocalRng(1))
    activate(s, s.squads[3], [])
    s.prompts = []
    game.apply(s, 1, "act:s3.1", LocalRng(1))
    assert {a.split(":")[1] for a in ids(game, s) if a.startswith("enter")} == {"south"}


def searched(kind):
    game, s = scenario_position(SCENARIO, {"s0.1": ((5, 5), "N"), "s3.1": ((5, 6), "N")},
                                boards=SQUARE)
    s.markers = [{"kind": kind, "pos": [5, 5], "face_down": True, "owner": "rebel",
                  "hidden": True}]
    return game, s


def test_a_papal_nose_turns_over_a_decoy_by_a_generic_action():
    """The secret passage: a Macute or Fanhunter on a marker reveals it by a generic action; a
    decoy is removed."""
    game, s = searched("decoy")
    assert "search" in ids(game, s)
    game.apply(s, 0, "search", ScriptedRng())
    assert s.markers == [] and s.nose("s0.1").spent == 2 and s.result is None


def test_the_teddy_bear_goes_off_as_a_fragmentation_grenade():
    """The teddy bear marker is a booby trap: a fragmentation grenade's blast on its cell."""
    game, s = searched("teddy_bear")
    game.apply(s, 0, "search", ScriptedRng(5, 5, 1, 1, 5, 5, 5))  # 4 dice centre, 3 beside
    assert s.markers == [] and s.nose("s0.1").status == "dead"
    assert s.nose("s3.1").status == "dead"  # the Fan next to it took three


def test_finding_the_passage_wins_for_the_papal_side():
    """Objectives: a Macute or Fanhunter revealing the secret passage wins the game."""
    game, s = searched("secret_passage")
    game.apply(s, 0, "search", ScriptedRng())
    assert s.result == {"side": "papal",
                        "reason": "a Macute or Fanhunter reveals the secret passage"}


def test_rebels_do_not_search():
    """Only papal noses reveal the markers in this scenario."""
    game, s = scenario_position(SCENARIO, {"s3.1": ((5, 5), "N"), "s0.1": ((0, 11), "N")},
                                boards=SQUARE)
    s.markers = [{"kind": "decoy", "pos": [5, 5], "face_down": True, "owner": "rebel",
                  "hidden": True}]
    assert "search" not in ids(game, s)
