"""Divergences from the book found by a second audit, each pinned by a position built directly.
Each test names the rulebook section it checks; RULES.md records the readings chosen."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.geometry import line_of_sight
from partida.games.batallitas.state import GONE, TURN_START
from partida.games.batallitas.world import field_of

from .positions import ScriptedRng, acting, game_position, ids, scenario_position

OPEN = ["........"] * 8


def test_several_cards_may_be_played_at_the_start_of_one_turn():
    """Event Cards (Imagen de Milú, ¿Qué dice de los incineradores?): both are played at the
    start of a turn, before any marker is drawn, and nothing limits a seat to one of them; the
    seat's window stays open after a card until it passes (RULES.md decision)."""
    game, s = game_position(OPEN, {"s0.1": ((1, 1), "S"), "s0.2": ((2, 1), "S"),
                                   "s2.1": ((3, 7), "N")},
                            hands=((), ("rebel_milu", "rebel_incinerators")))
    T.start_turn(s, [])
    game.apply(s, 1, "play:rebel_milu", ScriptedRng(4, 5))  # a pupa each, no pájara
    assert s.phase == TURN_START and s.active_squad is None  # no marker drawn yet
    assert ids(game, s, 1) == ["pass", "play:rebel_incinerators"]
    game.apply(s, 1, "play:rebel_incinerators", LocalRng(0))
    game.apply(s, 1, "pick:s0.1", LocalRng(0))
    game.apply(s, 1, "pick:s0.2", LocalRng(0))
    assert s.nose("s0.1").pajara and s.nose("s0.2").pajara
    assert s.phase != TURN_START  # hand empty: the turn goes on


def test_the_turn_start_window_closes_when_its_seat_passes():
    """Event cards: the reopened window is the same moment; passing it draws the marker."""
    game, s = game_position(OPEN, {"s0.1": ((1, 1), "S"), "s2.1": ((3, 7), "N")},
                            hands=((), ("rebel_milu", "rebel_incinerators")))
    T.start_turn(s, [])
    game.apply(s, 1, "play:rebel_milu", ScriptedRng(1))
    assert ids(game, s, 1) == ["pass"]  # the only Macute already has a pájara
    game.apply(s, 1, "pass", LocalRng(0))
    assert s.phase != TURN_START and s.hands[1] == ["rebel_incinerators"]


def test_a_leader_that_leaves_the_board_is_replaced():
    """Leaders, rule 4, with scenario 3's leaving by the east side: a squad always has a leader;
    one that leaves the game by the board's edge is replaced at once by a provisional leader
    named by its owner, as if eliminated (RULES.md decision), so command distance still counts
    from someone."""
    game, s = scenario_position("drums", {"s0.0": ((11, 5), "E"), "s0.1": ((2, 5), "E"),
                                          "s0.3": ((1, 5), "E"), "s1.1": ((5, 0), "S")})
    game.apply(s, 0, "leave:east", LocalRng(0))
    assert s.nose("s0.0").status == GONE and s.squads[0].leader is None
    assert game.to_act(s) == (0,) and ids(game, s) == ["leader:s0.1", "leader:s0.3"]
    game.apply(s, 0, "leader:s0.1", LocalRng(0))
    assert s.squads[0].leader == "s0.1"
    s.nose("s0.3").pos = [7, 5]  # five cells from the new leader: beyond the scenario's four
    ev: list = []
    T.activate(s, s.squads[0], ev)
    assert [e.data["nose"] for e in ev if e.kind == "out_of_command"] == ["s0.3"]


def test_a_leader_through_the_secret_passage_is_replaced():
    """Leaders, rule 4, with scenario 4's secret passage: the agent (the Fans' leader) that
    escapes is out of the game; the Fans name a provisional leader (RULES.md decision)."""
    game, s = scenario_position("long_live_rock", {"s2.0": ((16, 5), "E"),
                                                   "s2.1": ((10, 5), "E"),
                                                   "s0.1": ((0, 11), "N")})
    s.markers = [{"kind": "secret_passage", "pos": [16, 5], "face_down": False,
                  "owner": "papal", "hidden": True}]
    s.turn = 3  # the agent may act
    game.apply(s, 1, "passage", LocalRng(0))
    assert s.nose("s2.0").status == GONE
    assert ids(game, s, 1) == ["leader:s2.1"]


def flamer(s, nid):
    n = s.nose(nid)
    n.weapons.append("flamethrower")
    n.ammo["flamethrower"], n.spares["flamethrower"] = 6, 1
    return n


def test_a_wiped_out_squads_flamethrower_template_goes_when_the_turn_ends():
    """Arsenal, Flamethrower: its marker lasts until the firing squad is next activated, in
    the following turn, never longer. A squad wiped out meanwhile is never activated again, so
    its template goes as the turn ends (RULES.md decision) instead of blocking the board for the
    rest of the game."""
    game, s = game_position(OPEN, {"s0.1": ((3, 0), "S"), "s1.1": ((0, 7), "N"),
                                   "s2.1": ((7, 7), "N")})
    flamer(s, "s0.1")
    acting(s, "s0.1")
    game.apply(s, 0, "fire:flamethrower:3,4", ScriptedRng(5, 1, 3))
    assert len(s.blasts) == 9 and not line_of_sight(field_of(s), (3, 7), (3, 1))
    T.hurt(s, s.nose("s0.1"), 9, [])  # its squad's only nose in play dies
    assert s.result is None  # the other Macute squad fights on
    T.end_turn(s, [])
    assert s.blasts == [] and line_of_sight(field_of(s), (3, 7), (3, 1))


def test_a_living_squads_template_outlasts_the_turn_end():
    """Arsenal, Flamethrower: with its squad still fighting, the template stays past the end of
    the turn it was laid in, until that squad's next activation."""
    game, s = game_position(OPEN, {"s0.1": ((3, 0), "S"), "s0.2": ((7, 0), "S"),
                                   "s2.1": ((7, 7), "N")})
    flamer(s, "s0.1")
    acting(s, "s0.1")
    game.apply(s, 0, "fire:flamethrower:3,4", ScriptedRng(5, 1, 3))
    T.end_turn(s, [])
    assert len(s.blasts) == 9
    acting(s, "s0.2")
    assert s.blasts == []


def test_the_owner_sees_the_hidden_markers_only_once_all_are_laid():
    """Scenario 4, The secret passage: the papal player lays the three markers without looking
    at which is which, and may look only once they are placed. Seeing each one as it went down
    would tell it what the last one is before it chooses that one's cell."""
    from partida.games.batallitas.rules import Batallitas

    game = Batallitas()
    s = game.new_state("long_live_rock", 2, {}, LocalRng(0))
    while s.setup[0]["kind"] != "hide":
        seat = game.to_act(s)[0]
        game.apply(s, seat, game.default_action(s, seat), LocalRng(1))
    for cell in ("14,5", "16,5"):
        game.apply(s, 0, f"hide:{cell}", LocalRng(2))
    assert {k["kind"] for k in game.view(s, 0)["markers"]} == {"face_down"}
    twin = game.determinize(s, 0, LocalRng(3))
    assert game.view(twin, 0) == game.view(s, 0)
    game.apply(s, 0, "hide:18,5", LocalRng(2))
    assert sorted(k["kind"] for k in game.view(s, 0)["markers"]) == [
        "decoy", "decoy", "secret_passage"]
    assert {k["kind"] for k in game.view(s, 1)["markers"]} == {"face_down"}
