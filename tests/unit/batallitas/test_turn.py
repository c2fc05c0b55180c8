"""The turn: set-up choices, the initiative bag, squad and nose action phases, action points and
their sharing, the cost table, doors, views, determinization and scenario 1's end (Rules: Turn
Order, Initiative, Actions, Generic actions, Movement, Doors; Leaders; knacks and flaws;
Scenario 1)."""

import pytest

from partida.engine import IllegalAction, LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.rules import Batallitas
from partida.games.batallitas.state import CHOOSE, DEAD, NOSE, OVER, SETUP, SQUAD

from .positions import acting, game_position, ids, unframed

OPEN = ["........"] * 8
# A little club: indoor floor with a door in its east wall (a door letter on an edge).
CLUB = ["+-+-+-+-+-+-+",
        "|_ _ _|. . .|",
        "+     +     +",
        "|_ _ _d. . .|",
        "+     +     +",
        "|_ _ _|. . .|",
        "+-+-+-+-+-+-+"]


def test_set_up_choices_come_first_each_with_a_default():
    """Fans squad (*): the owner picks the Lethal Fan type of the leader; Atrophy: -1 to one
    attribute per nose; Grenades: the split is chosen; Scenario 1 Deployment: Fans inside the
    club, the leader in the toilet cell."""
    game = Batallitas()
    s = game.new_state("last_game", 2, {}, LocalRng(1))
    assert s.phase == SETUP and game.to_act(s) == (1,)
    assert ids(game, s) == ["leader_type:2:dj", "leader_type:2:otaku", "leader_type:2:rolmaster"]
    game.apply(s, 1, "leader_type:2:otaku", LocalRng(0))
    assert s.nose("s2.0").weapons == ["hand", "smg", "katanote"]
    assert game.to_act(s) == (0,) and game.default_action(s, 0) == "atrophy:s0.0:combat"
    game.apply(s, 0, "atrophy:s0.0:actions", LocalRng(0))
    assert s.nose("s0.0").attrs["actions"] == 4
    while s.setup[0]["kind"] == "atrophy":
        game.apply(s, 0, game.default_action(s, 0), LocalRng(0))
    assert s.setup[0] == {"seat": 1, "kind": "deploy", "nose": "s2.0"}  # no grenades: otaku
    toilet = {a.split(":")[2] for a in ids(game, s)}
    assert toilet == {"0,5"}  # board 1's toilet cell, the only spot for the leader
    game.apply(s, 1, "deploy:s2.0:0,5:E", LocalRng(0))
    spots = {a.split(":")[2] for a in ids(game, s)}
    assert "0,5" not in spots and "3,6" in spots and "10,0" not in spots  # inside, free cells


def test_a_painted_squad_gets_three_cards_and_an_inept_leader_one_fewer():
    """Event cards: two cards per squad, three if painted (option); Inept: one fewer."""
    game = Batallitas()
    plain = game.new_state("last_game", 2, {}, LocalRng(1))
    painted = game.new_state("last_game", 2, {"painted_squads": True}, LocalRng(1))
    assert [len(h) for h in plain.hands] == [2, 2]  # 2 Macute squads x (2 - 1); Fans 2
    assert [len(h) for h in painted.hands] == [6, 3]


def test_initiative_bag_one_marker_per_fighting_squad():
    """Initiative: a marker per squad in the hat; a squad wiped out loses its marker."""
    game, s = game_position(OPEN, {"s0.1": ((1, 1), "S"), "s2.1": ((5, 5), "N"),
                                   "s1.1": ((3, 3), "S")})
    ev: list = []
    T.start_turn(s, ev)
    assert s.turn == 4 and sorted(s.bag) == ["papal", "papal", "rebel"]
    s.nose("s1.1").status = DEAD
    T.start_turn(s, ev)
    assert sorted(s.bag) == ["papal", "rebel"]


def test_drawn_side_chooses_among_its_squads_not_yet_activated():
    """Initiative: the drawn side activates one of its squads; each squad once per turn."""
    game, s = game_position(OPEN, {"s0.1": ((1, 1), "S"), "s1.1": ((3, 3), "S"),
                                   "s2.1": ((5, 5), "N")})
    s.bag, s.turn = ["papal", "papal"], 5
    T.draw(s, LocalRng(0), [])
    assert s.phase == CHOOSE and game.to_act(s) == (0,)
    assert ids(game, s) == ["activate:0", "activate:1"]
    game.apply(s, 0, "activate:1", LocalRng(0))
    assert s.phase == SQUAD and s.active_squad == 1 and s.squads[1].activated
    game.apply(s, 0, "end_squad", LocalRng(0))  # the last papal marker: squad 0 only
    assert s.active_squad == 0 and s.phase == SQUAD


def test_points_do_not_carry_over_and_a_nose_acts_once():
    """Actions: noses act one at a time; a finished nose cannot act again; unspent points are
    lost at the next activation."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s2.2": ((4, 4), "N"),
                                   "s0.1": ((7, 7), "N")})
    acting(s, "s2.1")
    s.squads[2].pool_owner = None  # no shared points in this test
    game.apply(s, 1, "move:3,2", LocalRng(0))  # forward: 1
    game.apply(s, 1, "move:2,2", LocalRng(0))  # sideways: 2
    assert s.nose("s2.1").spent == 3
    game.apply(s, 1, "done", LocalRng(0))
    assert s.phase == SQUAD and "act:s2.1" not in ids(game, s) and "act:s2.2" in ids(game, s)
    acting(s, "s2.1")
    assert s.nose("s2.1").spent == 0 and not s.nose("s2.1").done


def test_costs_forward_back_turn_and_limits():
    """Actions (cost table): forward 1, back or side 2, each 90° turn 1; no action beyond the
    points left."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((7, 7), "N")})
    acting(s, "s2.1")
    s.squads[2].pool_owner = None
    n = s.nose("s2.1")
    n.spent = 4  # one point left of 5
    options = ids(game, s)
    assert "move:3,2" in options and "move:2,2" in options  # forward diagonal is forward
    assert "move:3,4" not in options and "move:2,3" not in options
    assert "turn:E" in options and "turn:S" not in options  # a half turn costs 2


def test_leadership_shares_the_leaders_points_with_the_squad():
    """Leadership: the leader's points may be spent by any member, mixed with its own, and are
    lost at the end of the squad phase."""
    game, s = game_position(OPEN, {"s0.0": ((1, 1), "S"), "s0.1": ((2, 1), "S"),
                                   "s2.1": ((7, 7), "N")})
    acting(s, "s0.1")
    sq = s.squads[0]
    assert sq.pool_owner == "s0.0" and T.available(s, s.nose("s0.1")) == 4 + 5
    for step in ("2,0", "3,0", "4,0"):  # back, side, side: 2 each = 6 of 9
        game.apply(s, 0, f"move:{step}", LocalRng(0))
    assert s.nose("s0.1").spent == 4 and sq.pool_spent == 2
    assert T.available(s, s.nose("s0.0")) == 3  # the leader spends from the same pool


def test_the_fans_leader_is_busy_in_the_toilet_for_two_turns():
    """Scenario 1, For a laugh: turns 1-2 the Fans' leader takes no paid action and shares no
    points; from turn 3 it does."""
    game, s = game_position(OPEN, {"s2.0": ((3, 3), "N"), "s2.1": ((4, 4), "N"),
                                   "s0.1": ((7, 7), "N")}, turn=2)
    acting(s, "s2.0")
    assert ids(game, s) == ["done"] and s.squads[2].pool_owner is None
    s.turn = 3
    acting(s, "s2.0")
    assert "move:3,2" in ids(game, s) and s.squads[2].pool_owner == "s2.0"


def test_out_of_command_noses_get_a_pajara_on_activation():
    """Rule number 2, Command distance: more than 6 cells from the leader at activation gives a
    pájara; the leader is always within command of itself."""
    rows = ["." * 10] * 3
    game, s = game_position(rows, {"s0.0": ((0, 0), "E"), "s0.1": ((6, 2), "E"),
                                   "s0.2": ((7, 0), "E"), "s2.1": ((9, 2), "W")})
    acting(s, "s0.1")
    assert not s.nose("s0.1").pajara and s.nose("s0.2").pajara and not s.nose("s0.0").pajara


def test_clumsy_nose_sticks_to_one_group_of_actions(monkeypatch):
    """Clumsy (reconstruction, RULES.md): the first paid action fixes the group for the turn."""
    game, s = game_position(OPEN, {"s0.1": ((3, 3), "N"), "s2.1": ((3, 0), "S")})
    acting(s, "s0.1")
    game.apply(s, 0, "move:3,2", LocalRng(0))  # movement
    options = ids(game, s)
    assert "turn:E" in options and not any(a.startswith(("fire:", "alert")) for a in options)


def test_entering_from_an_edge_one_edge_per_squad():
    """Scenario 1 Deployment: Macutes enter by a marked side, a whole squad by the same side;
    entering is a forward step onto the board (RULES.md decision), facing inwards."""
    game, s = game_position(unframed(OPEN), {"s2.1": ((4, 4), "N")})
    for n in s.members(0):
        n.status = "reserve"
    acting(s, "s0.1")
    options = ids(game, s)
    assert "enter:north:0,0" in options and "enter:east:7,7" in options
    assert "enter:north:7,0" in options and "enter:east:7,0" in options  # the corner: both
    assert not any(a.startswith("enter:") and ":0,7" in a for a in options)  # west/south: no
    game.apply(s, 0, "enter:east:7,3", LocalRng(0))
    n = s.nose("s0.1")
    assert n.cell == (7, 3) and n.facing == "W" and n.spent == 1
    game.apply(s, 0, "done", LocalRng(0))
    game.apply(s, 0, "act:s0.2", LocalRng(0))
    assert all(":north:" not in a for a in ids(game, s))


def test_doors_open_facing_them_and_close_from_in_front():
    """Doors: opening needs the nose in front of the door and facing it, a generic action
    (2 points); closing only needs it in front; an open door lets noses through."""
    game, s = game_position(CLUB, {"s2.1": ((2, 1), "N"), "s0.1": ((5, 0), "W")})
    s.nose("s2.1").flaws.remove("hate")  # about doors: the Macute would draw a hateful charge
    acting(s, "s2.1")
    assert "open:0" not in ids(game, s) and "move:3,1" not in ids(game, s)
    game.apply(s, 1, "turn:E", LocalRng(0))
    game.apply(s, 1, "open:0", LocalRng(0))
    assert s.open_doors == [0] and s.nose("s2.1").spent == 3
    assert "move:3,1" in ids(game, s)
    game.apply(s, 1, "turn:S", LocalRng(0))  # no longer facing it: may still close it
    s.nose("s2.1").spent = 0
    assert "close:0" in ids(game, s)


def test_the_secret_door_opens_from_inside_and_only_for_fans():
    """Scenario 1, The secret door: opened only from inside the building, and only a Fan or a
    Lethal Fan opens or closes it."""
    grid = [r.replace("d", "s") for r in CLUB]
    game, s = game_position(grid, {"s2.1": ((2, 1), "E"), "s0.1": ((3, 1), "W"),
                                   "s2.2": ((2, 2), "N")})
    acting(s, "s0.1")
    assert "open:0" not in ids(game, s)  # a Macute, and from outside
    acting(s, "s2.1")
    game.apply(s, 1, "open:0", LocalRng(0))
    acting(s, "s0.1")
    assert "close:0" not in ids(game, s)
    s.open_doors = []
    s.nose("s2.1").pos, s.nose("s0.1").status = [3, 1], "gone"
    s.nose("s2.1").facing = "W"
    acting(s, "s2.1")
    assert "open:0" not in ids(game, s)  # a Fan, but from outside


def test_going_on_alert_costs_three_one_more_under_an_inept_leader():
    """Actions: alert 3; Inept: the squad pays one more while the inept leader lives."""
    game, s = game_position(OPEN, {"s0.0": ((0, 0), "S"), "s0.1": ((3, 3), "N"),
                                   "s2.1": ((7, 7), "N")})
    acting(s, "s0.1")
    game.apply(s, 0, "alert", LocalRng(0))
    assert s.nose("s0.1").spent == 4 and s.nose("s0.1").alert
    s.nose("s0.0").status = DEAD
    acting(s, "s0.1")
    game.apply(s, 0, "alert", LocalRng(0))
    assert s.nose("s0.1").spent == 3


def test_paid_actions_end_the_alert_and_activation_ends_it_too():
    """Alert Shot: a nose stops being on alert when it spends points or its squad is next
    activated."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((7, 7), "N")})
    acting(s, "s2.1")
    game.apply(s, 1, "alert", LocalRng(0))
    game.apply(s, 1, "turn:E", LocalRng(0))
    assert not s.nose("s2.1").alert
    s.nose("s2.1").alert = True
    acting(s, "s2.1")
    assert not s.nose("s2.1").alert


def test_pajara_costs_four_to_remove_and_stops_shooting():
    """The Pájara: removed for 4 points; a nose with one may not shoot; a second is a pupa."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((3, 0), "S")})
    acting(s, "s2.1")
    s.nose("s2.1").pajara = True
    assert not any(a.startswith("fire:") for a in ids(game, s))
    game.apply(s, 1, "rally", LocalRng(0))
    assert not s.nose("s2.1").pajara and s.nose("s2.1").spent == 4
    T.give_pajara(s, s.nose("s2.1"), [])
    T.give_pajara(s, s.nose("s2.1"), [])
    assert s.nose("s2.1").pajara and s.nose("s2.1").pupae == 1


def test_view_hides_the_other_hand_and_face_down_markers_and_determinize_resamples():
    """Event cards and the scenarios' face-down markers are hidden from the other side; the
    view stays the same when what is hidden is resampled."""
    game = Batallitas()
    s = game.new_state("last_game", 2, {}, LocalRng(2))
    s.markers = [{"kind": "secret_passage", "pos": [1, 1], "face_down": True, "owner": "papal"},
                 {"kind": "decoy", "pos": [2, 2], "face_down": True, "owner": "papal"}]
    rebel = game.view(s, 1)
    assert rebel["hand"] == s.hands[1] and rebel["hand_counts"] == [2, 2]
    assert "hands" not in rebel and "decks" not in rebel
    assert {m["kind"] for m in rebel["markers"]} == {"face_down"}
    assert {m["kind"] for m in game.view(s, 0)["markers"]} == {"secret_passage", "decoy"}
    seen_hands, seen_kinds = set(), set()
    for seed in range(30):
        d = game.determinize(s, 1, LocalRng(seed))
        assert game.view(d, 1) == rebel and d.hands[1] == s.hands[1]
        seen_hands.add(tuple(d.hands[0]))
        seen_kinds.add(d.markers[0]["kind"])
    assert len(seen_hands) > 5 and seen_kinds == {"secret_passage", "decoy"}


def test_scenario_one_ends_when_the_fans_are_wiped_out():
    """Scenario 1 victory: the papal side wins if every Fan is dead before turn 12 ends."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((3, 0), "S")})
    acting(s, "s0.1")
    T.hurt(s, s.nose("s2.1"), 2, [])
    assert s.phase == OVER and game.outcome(s).winners == (0,)
    assert game.to_act(s) == () and game.legal_actions(s, 0) == []


def test_scenario_one_rebels_win_when_turn_twelve_ends_or_both_macute_squads_die():
    """Scenario 1 victory: a Fan standing when turn 12 ends, or both Macute squads dead."""
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((3, 0), "S"),
                                   "s1.1": ((0, 0), "S")}, turn=12)
    s.bag = []
    T.draw(s, LocalRng(0), [])
    assert game.outcome(s).winners == (1,) and "turn 12" in game.outcome(s).reason
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((3, 0), "S"),
                                   "s1.1": ((0, 0), "S")})
    T.hurt(s, s.nose("s0.1"), 2, [])
    assert game.outcome(s) is None  # one squad left
    T.hurt(s, s.nose("s1.1"), 2, [])
    assert game.outcome(s).winners == (1,)


def test_a_dead_leader_is_replaced_by_its_owner():
    """Rule number 4: when the leader dies its owner names a provisional leader at once,
    among the intact members (RULES.md decision)."""
    game, s = game_position(OPEN, {"s0.0": ((3, 0), "S"), "s0.1": ((2, 0), "S"),
                                   "s0.2": ((1, 0), "S"), "s2.1": ((3, 3), "N")})
    acting(s, "s2.1")
    s.nose("s0.2").pupae = 1
    T.hurt(s, s.nose("s0.0"), 2, [])
    assert game.to_act(s) == (0,) and ids(game, s) == ["leader:s0.1"]
    game.apply(s, 0, "leader:s0.1", LocalRng(0))
    assert s.squads[0].leader == "s0.1" and game.to_act(s) == (1,) and s.phase == NOSE


def test_illegal_actions_leave_the_state_alone():
    game, s = game_position(OPEN, {"s2.1": ((3, 3), "N"), "s0.1": ((3, 0), "S")})
    acting(s, "s2.1")
    before = s.to_dict()
    for bad in ("move:3,9", "turn:N", "open:0", "act:s2.1", "fire:smg:3,5"):
        with pytest.raises(IllegalAction):
            game.apply(s, 1, bad, LocalRng(0))
    assert s.to_dict() == before


def test_a_leader_prompt_goes_once_nobody_is_left_to_name():
    """Leaders, provisional leader: when the leader falls its side names an heir; when the heirs
    fall too before it is answered (Imagen de Milú can take a whole squad in one go), the
    prompt goes rather than leaving the side a decision with no choice."""
    from .positions import scenario_position

    _, s = scenario_position("last_game", {"s0.0": ((1, 8), "N"), "s0.1": ((2, 8), "N"),
                                           "s1.0": ((6, 8), "N"), "s2.1": ((5, 3), "S")})
    s.prompts = []
    T.hurt(s, s.nose("s0.0"), 10, [])
    assert [q["kind"] for q in s.prompts] == ["leader"]
    T.hurt(s, s.nose("s0.1"), 10, [])
    assert s.prompts == [] and s.result is None
