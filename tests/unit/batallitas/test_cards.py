"""Event cards on attack rolls and re-rolls (Basic Game Concepts: Event cards, Repeating rolls;
Event Cards: ¡¡Preeet!!, La suerte del enano, ¡¡Cli-cli-clik!!), positions built directly, the
hands given, dice scripted (ScriptedRng() with no faces: no die may be rolled)."""

from partida.engine import LocalRng
from partida.games.batallitas.state import IN_PLAY

from .positions import ScriptedRng, acting, game_position, ids

OPEN = ["........"] * 8
FAN, MACUTE = ((3, 7), "N"), ((3, 2), "S")
HIT, MISS = (5, 1, 3), (2, 2, 3)  # a Fan's 2 shooting dice and the infernal die


def fan_shoots(papal=(), rebel=()):
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=(papal, rebel))
    acting(s, "s2.1")
    return game, s


def test_a_window_opens_for_any_holder_and_lists_only_what_fits():
    """Event cards: each card says when it is played; a window is offered whenever the enemy
    holds cards (RULES.md decision: the hand's size is public), passing being the default."""
    game, s = fan_shoots(papal=("papal_dwarf_luck",))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    assert game.to_act(s) == (0,) and ids(game, s) == ["pass"]  # nothing fits before the dice
    assert game.default_action(s, 0) == "pass"
    game.apply(s, 0, "pass", ScriptedRng(*HIT))
    assert ids(game, s) == ["pass", "play:papal_dwarf_luck"]
    game.apply(s, 0, "pass", ScriptedRng(1, 1))
    assert s.pending is None and game.to_act(s) == (1,)


def test_no_cards_no_windows():
    """Without cards in the enemy's hand the attack resolves at once."""
    game, s = fan_shoots()
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*HIT, 5, 5))
    assert s.nose("s0.1").status == "dead"


def test_the_whistle_makes_a_declared_shot_a_screw_up_without_dice():
    """¡¡Preeet!!: played before the dice, the shot counts as a screw-up: the weapon jams and
    the burst ends."""
    game, s = fan_shoots(papal=("papal_whistle",))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    assert ids(game, s, 0) == ["pass", "play:papal_whistle"]
    ev = game.apply(s, 0, "play:papal_whistle", ScriptedRng())
    assert [e.data["result"] for e in ev if e.kind == "shot"] == ["screw_up"]
    assert s.nose("s2.1").jammed == ["smg"] and s.burst is None and s.hands[0] == []


def test_the_whistle_on_a_blow_turns_it_back():
    """¡¡Preeet!! on a close-combat attack: a screw-up, so the defender strikes back (Close
    Combat)."""
    game, s = game_position(OPEN, {"s2.1": ((3, 4), "N"), "s0.1": ((3, 3), "S")},
                            hands=(("papal_whistle",), ()))
    acting(s, "s2.1")
    game.apply(s, 1, "attack:hand:3,3", ScriptedRng())
    ev = game.apply(s, 0, "play:papal_whistle", ScriptedRng(5, 1))
    assert [e.data["result"] for e in ev if e.kind == "blow"] == ["screw_up"]
    assert s.nose("s2.1").pajara  # the Macute's fist: a contusion


def test_dwarf_luck_turns_a_hit_into_a_plain_miss():
    """La suerte del enano: after the dice, the shot fails whatever they said; not a screw-up,
    so no jam and the burst goes on."""
    game, s = fan_shoots(papal=("papal_dwarf_luck",))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(*HIT))
    ev = game.apply(s, 0, "play:papal_dwarf_luck", ScriptedRng())
    assert [e.data["result"] for e in ev if e.kind == "shot"] == ["failure"]
    assert s.nose("s0.1").pupae == 2 and s.nose("s2.1").jammed == []
    assert s.burst is not None and s.burst["left"] == 1


def test_dwarf_luck_is_not_offered_on_a_failed_roll():
    game, s = fan_shoots(papal=("papal_dwarf_luck",))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(*MISS))
    assert ids(game, s, 0) == ["pass"]


def test_click_fails_and_jams_even_a_grenade_which_then_scatters():
    """¡¡Cli-cli-clik!!: the shot fails and the weapon jams, even one that never jams; it is not
    a screw-up, so the thrower picks the scatter (Area-Effect Weapons)."""
    game, s = game_position(OPEN, {"s2.0": FAN, "s0.1": ((3, 3), "S")},
                            hands=(("papal_click_1",), ()))
    acting(s, "s2.0")
    game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(5, 1, 1, 3))
    game.apply(s, 0, "play:papal_click_1", ScriptedRng(2))
    dj = s.nose("s2.0")
    assert dj.jammed == ["frag_grenade"] and dj.grenades == {"frag_grenade": 1}
    assert game.to_act(s) == (1,) and ids(game, s)[0] == "scatter:N"
    game.apply(s, 1, "scatter:N", LocalRng(0))  # two cells north of (3,3): nobody near
    assert not any(a.startswith("fire:frag_grenade") for a in ids(game, s))
    assert "unjam:frag_grenade" in ids(game, s)


def test_a_failed_roll_may_be_rolled_again_once_by_discarding_a_card():
    """Repeating rolls: after one's own roll, discarding any card voids it and rolls again; the
    same roll is never repeated twice."""
    game, s = fan_shoots(rebel=("rebel_milu", "rebel_fury"))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*MISS))
    assert game.to_act(s) == (1,)
    assert ids(game, s) == ["keep", "reroll:rebel_fury", "reroll:rebel_milu"]
    assert game.default_action(s, 1) == "keep"
    ev = game.apply(s, 1, "reroll:rebel_milu", ScriptedRng(*MISS))
    assert [e.kind for e in ev if e.kind in ("reroll", "shot")] == ["reroll", "shot"]
    assert s.hands[1] == ["rebel_fury"] and s.pending is None
    assert s.burst is not None  # the second shot of the burst: a new roll, a new chance
    game.apply(s, 1, "shot:3,2", ScriptedRng(*MISS))
    assert ids(game, s)[0] == "keep"


def test_a_success_is_not_offered_a_reroll():
    game, s = fan_shoots(rebel=("rebel_milu",))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*HIT, 1, 1))
    assert s.pending is None and game.to_act(s) == (1,) and "keep" not in ids(game, s)


def test_a_roll_the_enemy_forced_may_be_rolled_again():
    """Repeating rolls: even a screw-up imposed by the enemy's card may be repeated."""
    game, s = fan_shoots(papal=("papal_whistle",), rebel=("rebel_milu",))
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "play:papal_whistle", ScriptedRng())
    assert game.to_act(s) == (1,) and "reroll:rebel_milu" in ids(game, s)
    game.apply(s, 1, "reroll:rebel_milu", ScriptedRng(*HIT, 5, 5))
    assert s.nose("s0.1").status == "dead" and s.nose("s2.1").jammed == []


def test_an_alert_shot_waits_for_the_cards_too():
    """Alert Shot with ¡¡Preeet!!: the alert shot becomes a screw-up, which jams the weapon and
    ends the alert; the moving nose carries on."""
    game, s = game_position(OPEN, {"s2.1": ((3, 4), "N"), "s0.1": ((3, 0), "S")},
                            hands=((), ("rebel_whistle",)))
    s.nose("s0.1").alert = True
    acting(s, "s2.1")
    s.nose("s0.1").alert = True
    game.apply(s, 1, "move:3,3", LocalRng(0))
    game.apply(s, 0, "alert:s0.1:smg", ScriptedRng())
    assert game.to_act(s) == (1,) and "play:rebel_whistle" in ids(game, s)
    game.apply(s, 1, "play:rebel_whistle", ScriptedRng())
    macute = s.nose("s0.1")
    assert macute.jammed == ["smg"] and not macute.alert and macute.status == IN_PLAY
    assert s.prompts == [] and game.to_act(s) == (1,)


def test_hudson_on_the_enemys_activation_stuns_its_leader_and_takes_its_leadership():
    """¿Hudson? ¿Apone?: played when an enemy squad is activated, its leader takes a pájara and
    shares no points this turn (Leadership); the window is the enemy's, not the owner's."""
    from partida.games.batallitas import turn as T

    game, s = game_position(OPEN, {"s2.0": FAN, "s2.1": ((5, 7), "N"), "s0.1": MACUTE},
                            hands=(("papal_hudson",), ()))
    T.activate(s, s.squads[2], [])
    assert game.to_act(s) == (0,) and ids(game, s) == ["pass", "play:papal_hudson"]
    game.apply(s, 0, "play:papal_hudson", ScriptedRng())
    dj, sq = s.nose("s2.0"), s.squads[2]
    assert dj.pajara and sq.pool_owner is None
    assert T.available(s, s.nose("s2.1")) == 5 and T.available(s, dj) == 6
    assert game.to_act(s) == (1,) and s.hands[0] == []
    T.activate(s, s.squads[0], [])
    assert s.prompts == []  # the papal squad's activation is answered by the rebels (no cards)


def test_hudson_needs_a_leader_in_play():
    from partida.games.batallitas import turn as T

    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=(("papal_hudson",), ()))
    T.activate(s, s.squads[2], [])
    assert ids(game, s, 0) == ["pass"]


def test_turn_start_windows_come_before_the_first_marker_papal_first():
    """Imagen de Milú, played at the start of a turn before any marker is drawn: a die per
    Macute in play, 1-3 a pájara, 4-5 a pupa, 6 out of the game; the papal window opens first
    (RULES.md decision)."""
    from partida.games.batallitas import turn as T
    from partida.games.batallitas.state import TURN_START

    game, s = game_position(OPEN, {"s0.1": ((1, 1), "S"), "s0.2": ((2, 1), "S"),
                                   "s0.3": ((3, 1), "S"), "s2.1": FAN},
                            hands=(("papal_whistle",), ("rebel_milu",)))
    T.start_turn(s, [])
    assert s.phase == TURN_START and game.to_act(s) == (0,) and ids(game, s) == ["pass"]
    game.apply(s, 0, "pass", ScriptedRng())
    assert game.to_act(s) == (1,) and ids(game, s) == ["pass", "play:rebel_milu"]
    game.apply(s, 1, "play:rebel_milu", ScriptedRng(2, 4, 6, 1, 1, 1, 1))
    assert s.nose("s0.1").pajara and s.nose("s0.2").pupae == 1
    assert s.nose("s0.3").status == "dead"
    assert s.phase != TURN_START and s.active_squad is not None  # a marker was drawn
