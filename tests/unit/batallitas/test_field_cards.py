"""Event cards that change the field, each offered at its moment (Event Cards: ¿Quieres que te
lea tus derechos, escoria?, ¡¡Fuego al máximo!!, Líder nato, Traidor ajuqueroso, ¿Qué dice de
los incineradores?, ¡¡Envíen Refuerzos!!, ¡¡He dicho que bombardeen nuestra posición!!, Petardo
humano, Booby Trap). Positions built directly, hands given, dice scripted."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.state import IN_PLAY, RESERVE, SETUP, attr

from .positions import ScriptedRng, acting, game_position, ids, scenario_position, unframed

OPEN = ["........"] * 8
WALLED = ["+-+-+-+-+-+-+-+-+",
          "|. . . . . . . .|",
          "+               +",
          "|. . . . . . . .|",
          "+-+-+-+-+-+-+-+ +",
          "|. . . . . . . .|",
          "+               +",
          "|. . . . . . . .|",
          "+-+-+-+-+-+-+-+-+"]
MISS = (2, 2, 2, 3)  # a Fanhunter's three dice and the infernal one, no hit


def hunters(placed, hands=((), ()), rows=OPEN):
    """Scenario 2's forces (squad 0 Fanhunters: s0.0 the sergeant, s0.1-2 riflemen; squad 1
    Fans: s1.0 the Lethal Fan leader, s1.1-4 Fans) on a hand-built board."""
    return game_position(rows, placed, hands=hands, scenario="shopping")


def own_phase(state, squad):
    """Activate the squad and stand in its squad phase, activation windows passed."""
    T.activate(state, state.squads[squad], [])
    state.prompts = [p for p in state.prompts if p.get("timing") != "activation"]


# --- ¿Quieres que te lea tus derechos, escoria? -----------------------------------------------

def test_rights_answers_a_rebel_action_and_a_high_die_takes_the_fan_out():
    """¿Quieres que te lea tus derechos?: at any moment, even in the rebels' phase, on a Fan that
    sees a Fanhunter squad's leader: 5-6 it surrenders and counts as eliminated."""
    game, s = hunters({"s0.0": ((3, 1), "S"), "s1.1": ((3, 6), "N"), "s1.0": ((5, 6), "N")},
                      hands=(("papal_rights",), ()))
    acting(s, "s1.1")
    game.apply(s, 1, "turn:E", ScriptedRng())
    assert game.to_act(s) == (0,)
    assert ids(game, s) == ["pass", "play:papal_rights:s1.1"]  # not the Lethal Fan leader
    game.apply(s, 0, "play:papal_rights:s1.1", ScriptedRng(5))
    assert s.nose("s1.1").status == "dead" and s.counters["rebel_lost"] == 1


def test_rights_low_die_is_a_pajara_and_a_wall_hides_the_fan():
    """A 1-4 gives a pájara only; a Fan with no line of sight to the sergeant is no target."""
    game, s = hunters({"s0.0": ((3, 0), "S"), "s1.1": ((3, 1), "N"), "s1.2": ((3, 3), "N")},
                      hands=(("papal_rights",), ()), rows=WALLED)
    acting(s, "s1.2")
    game.apply(s, 1, "turn:E", ScriptedRng())
    assert ids(game, s) == ["pass", "play:papal_rights:s1.1"]
    game.apply(s, 0, "play:papal_rights:s1.1", ScriptedRng(4))
    assert s.nose("s1.1").pajara and s.nose("s1.1").status == IN_PLAY


def test_no_window_after_an_action_for_a_seat_without_cards():
    """The `any_time` window opens only for a seat holding cards (its hand size is public)."""
    game, s = hunters({"s0.0": ((3, 1), "S"), "s1.1": ((3, 6), "N")})
    acting(s, "s1.1")
    game.apply(s, 1, "turn:E", ScriptedRng())
    assert game.to_act(s) == (1,) and s.prompts == []


# --- ¡¡Fuego al máximo!! -------------------------------------------------------------------

def test_full_fire_is_a_free_burst_in_the_enemy_phase_that_jams_the_weapon():
    """¡¡Fuego al máximo!!: a Fanhunter with a short or long firearm fires a burst without
    spending points, even in the enemy's phase; its weapon jams once the burst is over."""
    game, s = hunters({"s0.1": ((3, 1), "S"), "s1.1": ((3, 6), "N")},
                      hands=(("papal_full_fire",), ()))
    acting(s, "s1.1")
    game.apply(s, 1, "turn:E", ScriptedRng())
    assert "play:papal_full_fire:s0.1:blunderbuss:3,6" in ids(game, s)
    game.apply(s, 0, "play:papal_full_fire:s0.1:blunderbuss:3,6", ScriptedRng(*MISS))
    rifleman = s.nose("s0.1")
    assert game.to_act(s) == (0,) and "shot:3,6" in ids(game, s)  # the burst's second shot
    game.apply(s, 0, "stop", ScriptedRng())
    assert rifleman.jammed == ["blunderbuss"] and rifleman.spent == 0
    assert game.to_act(s) == (1,) and s.phase == "nose"  # the Fan's phase goes on


def test_full_fire_burst_run_to_its_end_jams_too():
    """The jam comes whatever the burst did: here both shots are fired and miss."""
    game, s = hunters({"s0.1": ((3, 1), "S"), "s1.1": ((3, 6), "N")},
                      hands=(("papal_full_fire",), ()))
    own_phase(s, 0)
    assert "play:papal_full_fire:s0.1:blunderbuss:3,6" in ids(game, s)
    game.apply(s, 0, "play:papal_full_fire:s0.1:blunderbuss:3,6", ScriptedRng(*MISS))
    game.apply(s, 0, "shot:3,6", ScriptedRng(*MISS))
    assert s.nose("s0.1").jammed == ["blunderbuss"] and s.burst is None
    assert not any(p["kind"] == "burst" for p in s.prompts)


# --- Líder nato ---------------------------------------------------------------------------------

def test_born_leader_promotes_a_fans_provisional_leader_for_good():
    """Líder nato: on the provisional (not original) leader of a Fans squad: +1 action and the
    leadership knack until the match ends (it shares its points from the next activation,
    RULES.md decision)."""
    game, s = hunters({"s1.1": ((3, 6), "N"), "s1.2": ((4, 6), "N"), "s0.1": ((3, 1), "S")},
                      hands=((), ("rebel_born_leader",)))
    own_phase(s, 1)
    assert not any(a.startswith("play:") for a in ids(game, s))  # the original leader lives
    s.nose("s1.0").status = "dead"
    s.squads[1].leader = "s1.1"
    assert "play:rebel_born_leader:s1.1" in ids(game, s)
    game.apply(s, 1, "play:rebel_born_leader:s1.1", ScriptedRng())
    fan = s.nose("s1.1")
    assert attr(fan, "actions") == 6 and "leadership" in fan.knacks
    T.activate(s, s.squads[1], [])
    assert s.squads[1].pool_owner == "s1.1" and T.pool_left(s, s.squads[1]) == 6


# --- Traidor ajuqueroso -------------------------------------------------------------------------

def test_traitor_joins_a_fanhunter_squad_at_the_turn_start():
    """Traidor ajuqueroso: at a turn's start, a Fan without heavy weapons becomes a Fanhunter
    of the squad the papal player picks."""
    game, s = hunters({"s1.1": ((3, 6), "N"), "s1.0": ((5, 6), "N"), "s0.1": ((3, 1), "S")},
                      hands=(("papal_traitor",), ()))
    T.start_turn(s, [])
    assert ids(game, s) == ["pass", "play:papal_traitor:s1.1:0"]
    game.apply(s, 0, "play:papal_traitor:s1.1:0", ScriptedRng())
    fan = s.nose("s1.1")
    assert fan.squad == 0 and s.side_of(fan) == "papal" and fan.weapons == ["hand", "smg"]


def test_traitor_without_fanhunters_makes_a_squad_of_its_own_and_a_papal_marker():
    """With no Fanhunter squad in play, the traitor is a squad of one, with one more papal
    initiative marker in the hat."""
    game, s = game_position(OPEN, {"s2.1": ((3, 6), "N"), "s2.2": ((5, 6), "N"),
                                   "s0.1": ((3, 1), "S")},
                            hands=(("papal_traitor",), ("rebel_dwarf_luck",)))
    T.start_turn(s, [])  # the rebel window waits under the papal one: no marker drawn yet
    before = s.bag.count("papal")
    game.apply(s, 0, "play:papal_traitor:s2.1:new", ScriptedRng())
    fan = s.nose("s2.1")
    assert fan.squad == 3 and s.squads[3].side == "papal" and s.squads[3].leader == "s2.1"
    assert s.bag.count("papal") == before + 1
    T.end_turn(s, [])
    T.start_turn(s, [])
    assert s.bag.count("papal") == 2  # the Macute squad still fighting, and the traitor's


# --- ¿Qué dice de los incineradores? --------------------------------------------------------

def test_incinerators_hand_out_up_to_three_pajaras_one_per_nose():
    """¿Qué dice de los incineradores?: at a turn's start, up to three pájaras on Macutes and/or
    Fanhunters, none on a nose that has one."""
    placed = {f"s0.{i}": ((i, 1), "S") for i in range(5)}
    placed["s2.1"] = ((3, 6), "N")
    game, s = game_position(OPEN, placed, hands=((), ("rebel_incinerators",)))
    s.nose("s0.4").pajara = True
    T.start_turn(s, [])
    game.apply(s, 1, "play:rebel_incinerators", ScriptedRng())
    assert ids(game, s) == ["stop", "pick:s0.0", "pick:s0.1", "pick:s0.2", "pick:s0.3"]
    for nid in ("s0.0", "s0.2", "s0.3"):
        game.apply(s, 1, f"pick:{nid}", LocalRng(1))  # the last one lets the draw go on
    assert [n.id for n in s.noses if n.pajara] == ["s0.0", "s0.2", "s0.3", "s0.4"]
    assert not any(p["kind"] == "pick" for p in s.prompts)
    assert s.nose("s0.4").pupae == 2  # no second pájara, so no pupa from it


# --- ¡¡Envíen Refuerzos!! -----------------------------------------------------------------

def test_reinforcements_join_the_acting_squad_by_a_side_the_enemy_picks():
    """¡¡Envíen Refuerzos!!: in a Macute squad's phase, two more Macutes (no sergeant, no heavy
    weapon) join it, coming on by a side the rebel player chooses; they may act at once."""
    game, s = game_position(unframed(OPEN), {"s0.1": ((3, 1), "S"), "s2.1": ((3, 6), "N")},
                            hands=(("papal_reinforcements",), ()))
    own_phase(s, 0)
    assert "play:papal_reinforcements" in ids(game, s)
    game.apply(s, 0, "play:papal_reinforcements", ScriptedRng())
    assert game.to_act(s) == (1,)
    assert ids(game, s) == ["pick:north", "pick:east", "pick:south", "pick:west"]
    game.apply(s, 1, "pick:south", ScriptedRng())
    new = [n for n in s.members(0) if n.status == RESERVE and n.edge == "south"]
    assert len(new) == 2 and all(n.kind == "macutes/gunner" for n in new)
    assert all(n.attrs["combat"] == 1 for n in new)  # atrophy as the default (RULES.md)
    game.apply(s, 0, f"act:{new[0].id}", ScriptedRng())
    assert {a.split(":")[1] for a in ids(game, s) if a.startswith("enter:")} == {"south"}


# --- ¡¡He dicho que bombardeen nuestra posición!! -----------------------------------------

def test_bombard_three_grenades_on_outdoor_cells_each_rolled():
    """¡¡He dicho que bombardeen...!!: in a Fanhunter squad's phase, up to three fragmentation
    grenades on outdoor cells; 1-3 on the cell, 4-5 a miss (the papal side steers the scatter),
    6 a screw-up (the rebels steer it)."""
    game, s = hunters({"s0.1": ((0, 0), "S"), "s1.1": ((4, 5), "N")},
                      hands=(("papal_bombard",), ()))
    own_phase(s, 0)
    game.apply(s, 0, "play:papal_bombard", ScriptedRng())
    assert "pick:4,5" in ids(game, s) and "pick:7,7" not in ids(game, s)
    game.validate(s, 0, "pick:7,7")  # any outdoor cell, listed or not
    game.apply(s, 0, "pick:4,5", ScriptedRng(2, 2, 2, 2, 2))  # on the cell; 4 pupae dice, none
    assert any(p["kind"] == "pick" and p["left"] == 2 for p in s.prompts)
    game.apply(s, 0, "pick:4,5", ScriptedRng(4, 3))  # a miss flying 3 cells
    assert s.prompts[-1]["kind"] == "scatter" and game.to_act(s) == (0,)
    game.apply(s, 0, "scatter:E", ScriptedRng())  # lands at 7,5: nobody there
    game.apply(s, 0, "pick:4,5", ScriptedRng(6, 2))  # a screw-up: the rebels steer it
    assert s.prompts[-1]["kind"] == "scatter" and game.to_act(s) == (1,)
    game.apply(s, 1, "scatter:W", ScriptedRng())
    assert not any(p["kind"] == "pick" for p in s.prompts)


def test_bombard_refuses_indoor_cells_and_other_squads():
    """Never inside buildings; and only in a Fanhunter squad's phase."""
    rows = ["__......"] + ["........"] * 7
    game, s = hunters({"s0.1": ((7, 7), "S"), "s1.1": ((0, 0), "S")},
                      hands=(("papal_bombard",), ()), rows=rows)
    own_phase(s, 0)
    game.apply(s, 0, "play:papal_bombard", ScriptedRng())
    assert ids(game, s) == ["stop", "pick:0,1", "pick:1,1"]  # not 0,0 nor 1,0, indoors
    game2, s2 = game_position(OPEN, {"s0.1": ((3, 1), "S"), "s2.1": ((3, 6), "N")},
                              hands=(("papal_bombard",), ()))
    own_phase(s2, 0)  # a Macute squad
    assert not any(a.startswith("play:") for a in ids(game2, s2))


# --- Petardo humano -----------------------------------------------------------------------

def test_human_bomb_is_a_lethal_fans_flamethrower_blast_on_itself():
    """Petardo humano: in its own action phase a Lethal Fan blows up: a flamethrower's
    overheating centred on it (it takes four pupae; the others under the template roll)."""
    game, s = game_position(OPEN, {"s2.0": ((3, 5), "N"), "s2.1": ((7, 7), "N"),
                                   "s0.1": ((3, 4), "S")}, hands=((), ("rebel_human_bomb",)))
    acting(s, "s2.1")
    assert not any(a.startswith("play:") for a in ids(game, s))  # a Fan, not a Lethal Fan
    game.apply(s, 1, "done", ScriptedRng())
    game.apply(s, 1, "act:s2.0", ScriptedRng())
    assert "play:rebel_human_bomb:s2.0" in ids(game, s)
    game.apply(s, 1, "play:rebel_human_bomb:s2.0", ScriptedRng(5, 5, 1))  # the Macute's 3 dice
    assert s.nose("s2.0").status == "dead" and s.nose("s0.1").status == "dead"
    assert s.blasts  # the flamethrower's template lingers


# --- Booby Trap ---------------------------------------------------------------------------

def trap_position():
    game, s = game_position(OPEN, {"s0.1": ((0, 0), "S"), "s2.1": ((7, 7), "N")},
                            hands=((), ("rebel_booby_trap",)))
    s.phase, s.turn = SETUP, 0
    s.counters.pop("pre_game", None)
    game._settle(s, ScriptedRng(), [])
    return game, s


def test_booby_trap_is_offered_once_set_up_is_done_on_empty_unobstructed_cells():
    """Booby Trap: before the game begins, the teddy bear goes on an empty cell with no
    obstruction."""
    game, s = trap_position()
    assert game.to_act(s) == (1,) and s.prompts[-1]["timing"] == "pre_game"
    listed = ids(game, s)
    assert "play:rebel_booby_trap:3,3" in listed and "play:rebel_booby_trap:7,7" not in listed
    game.apply(s, 1, "play:rebel_booby_trap:2,2", LocalRng(3))
    assert [m["kind"] for m in s.markers] == ["teddy_bear"] and s.turn == 1


def test_booby_trap_goes_off_on_a_five_when_an_enemy_comes_next_to_it():
    """An enemy entering the bear's cell or a neighbour rolls a die: 1-4 nothing, 5-6 it goes
    off as a fragmentation grenade on the bear's cell."""
    game, s = game_position(OPEN, {"s0.1": ((0, 0), "E"), "s2.1": ((7, 7), "N")})
    s.markers.append({"kind": "teddy_bear", "pos": [2, 1], "face_down": False,
                      "owner": "rebel", "trap": True})
    acting(s, "s0.1")
    game.apply(s, 0, "move:1,0", ScriptedRng(4))  # next to it: a 4, nothing
    assert s.markers and s.nose("s0.1").pupae == 2
    game.apply(s, 0, "move:2,0", ScriptedRng(5, 5, 5, 2))  # a 5: boom, 3 dice next to it
    assert s.markers == [] and s.nose("s0.1").status == "dead"


def test_human_bomb_needs_the_lethal_fan_on_the_board():
    """Petardo humano centres on the Lethal Fan: one still waiting to enter cannot play it."""
    game, s = scenario_position("drums", {"s1.1": ((5, 0), "S"), "s0.1": ((0, 11), "E")})
    s.hands[1] = ["rebel_human_bomb"]
    assert "play:rebel_human_bomb:s1.1" in ids(game, s)
    s.nose("s1.2").status = RESERVE
    s.active_nose = "s1.2"
    listed = ids(game, s)
    assert any(a.startswith("enter:") for a in listed) and not any(
        a.startswith("play:") for a in listed)
