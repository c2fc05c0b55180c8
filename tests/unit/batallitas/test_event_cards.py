"""Event cards beyond the attack rolls (Event Cards: ¡¡Ka-boom!!, Si alguien encuentra mi brazo,
recuperad el Rolex, Furia sesina, Imagen de Dick, ¡¡Vamos nenes, por el sargento!!) and the
temporary modifiers three of them need; positions built directly, the hands given, dice
scripted (ScriptedRng() with no faces: no die may be rolled)."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.state import ATTRIBUTES, attr, has_flaw

from .positions import ScriptedRng, acting, game_position, ids

OPEN = ["........"] * 8
FAN, MACUTE = ((3, 7), "N"), ((3, 2), "S")
SCREW_UP = (1, 2, 1)  # two dice without a 5 or 6, the infernal die on 1
HIT = (5, 1, 3)


def test_kaboom_blows_up_a_jammed_firearm_in_its_wielders_hands():
    """¡¡Ka-boom!!: when a short or long firearm jams, the enemy may play it: the wielder takes
    the weapon's pupae dice and never uses the weapon again."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=(("papal_kaboom",), ()))
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(*SCREW_UP))  # before the dice (nothing fits)
    game.apply(s, 0, "pass", ScriptedRng())  # after them
    fan = s.nose("s2.1")
    assert fan.jammed == ["smg"] and game.to_act(s) == (0,)
    assert ids(game, s) == ["pass", "play:papal_kaboom"]
    ev = game.apply(s, 0, "play:papal_kaboom", ScriptedRng(5, 2))  # the smg's 2 pupae dice
    assert [e.data["pupae"] for e in ev if e.kind == "kaboom"] == [1]
    assert fan.pupae == 1 and "smg" not in fan.weapons and fan.jammed == []
    assert not any(a.startswith("unjam") or a.startswith("fire") for a in ids(game, s, 1))


def test_kaboom_is_not_offered_on_ones_own_jam_nor_without_a_jam():
    """¡¡Ka-boom!! answers an enemy's jam only (RULES.md decision); a shot that does not jam
    opens no window for it."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=(("papal_kaboom",), ()))
    acting(s, "s0.1")
    game.apply(s, 0, "fire:smg:3,7", ScriptedRng(*SCREW_UP))
    game.apply(s, 0, "keep", ScriptedRng())  # its own re-roll window (Repeating rolls)
    assert s.nose("s0.1").jammed == ["smg"] and s.prompts == []
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=(("papal_kaboom",), ()))
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(2, 2, 3))  # a plain miss
    game.apply(s, 0, "pass", ScriptedRng())
    assert not any(p.get("timing") == "on_jam" for p in s.prompts)


def rolex_position():
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=((), ("rebel_rolex",)))
    acting(s, "s0.1")
    game.apply(s, 0, "fire:smg:3,7", ScriptedRng())
    game.apply(s, 1, "pass", ScriptedRng(*HIT))
    game.apply(s, 1, "pass", ScriptedRng(5, 5))  # the hit's pupae roll: two pupae
    return game, s


def test_rolex_lets_a_fan_ignore_the_pupae_it_just_took():
    """Si alguien encuentra mi brazo: a Fan that loses pupae to a shot takes none of them."""
    game, s = rolex_position()
    assert s.nose("s2.1").pupae == 2 and game.to_act(s) == (1,)
    assert ids(game, s) == ["pass", "play:rebel_rolex"]
    ev = game.apply(s, 1, "play:rebel_rolex", ScriptedRng())
    assert [e.data["pupae"] for e in ev if e.kind == "pupae_ignored"] == [2]
    assert s.nose("s2.1").pupae == 2 and s.nose("s2.1").status == "in_play"


def test_rolex_passed_the_pupae_land():
    """Passing the window, the pupae are lost as usual (Pupae)."""
    game, s = rolex_position()
    game.apply(s, 1, "pass", ScriptedRng())
    assert s.nose("s2.1").status == "dead"


def test_fury_boosts_a_fan_until_its_squad_is_activated_again_then_a_pajara():
    """Furia sesina: played on a Fan when its own squad is activated: +2 to every attribute
    until the squad's next activation, which ends the boost with a pájara."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s2.2": ((5, 7), "N"), "s0.1": MACUTE},
                            hands=((), ("rebel_fury",)))
    T.activate(s, s.squads[2], [])
    assert game.to_act(s) == (1,)
    assert ids(game, s) == ["pass", "play:rebel_fury:s2.1", "play:rebel_fury:s2.2"]
    game.apply(s, 1, "play:rebel_fury:s2.1", ScriptedRng())
    fan = s.nose("s2.1")
    assert [attr(fan, a) - fan.attrs[a] for a in ATTRIBUTES] == [2] * 5
    assert fan.pupae == 4 and T.available(s, fan) == 7
    T.end_turn(s, [])
    assert attr(fan, "shooting") == 4  # it outlasts the turn
    fan.pupae = 3  # one pupa taken while furious
    T.activate(s, s.squads[2], [])
    assert fan.mods == [] and fan.pajara and fan.pupae == 1


def test_the_end_of_a_pupae_boost_kills_nobody():
    """Furia sesina's end takes back its pupae but leaves at least one (RULES.md decision)."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE}, hands=((), ("rebel_fury",)))
    T.activate(s, s.squads[2], [])
    game.apply(s, 1, "play:rebel_fury:s2.1", ScriptedRng())
    fan = s.nose("s2.1")
    fan.pupae = 1
    T.activate(s, s.squads[2], [])
    assert fan.status == "in_play" and fan.pupae == 1 and fan.pajara


def test_fury_and_hudson_each_answer_their_own_windows():
    """Furia sesina is the activated squad owner's card, ¿Hudson? ¿Apone? the enemy's: the
    enemy's window comes first (RULES.md decision), neither lists the other's card."""
    game, s = game_position(OPEN, {"s2.0": ((1, 7), "N"), "s2.1": FAN, "s0.1": MACUTE},
                            hands=(("papal_hudson",), ("rebel_fury",)))
    T.activate(s, s.squads[2], [])
    assert game.to_act(s) == (0,) and ids(game, s) == ["pass", "play:papal_hudson"]
    game.apply(s, 0, "pass", ScriptedRng())
    assert game.to_act(s) == (1,) and "play:rebel_fury:s2.1" in ids(game, s)
    game.apply(s, 1, "pass", ScriptedRng())
    T.activate(s, s.squads[0], [])  # a Macute squad: Fury cannot aim at it
    assert game.to_act(s) == (1,) and ids(game, s) == ["pass"]


def test_dick_gives_every_macute_one_more_in_everything_for_the_turn():
    """Imagen de Dick: at the start of a turn, every Tintín Macute in play, sergeants too, has
    +1 to all attributes until the turn ends."""
    game, s = game_position(OPEN, {"s0.0": ((1, 1), "S"), "s0.1": MACUTE, "s2.1": FAN},
                            hands=(("papal_dick",), ()))
    T.start_turn(s, [])
    assert ids(game, s) == ["pass", "play:papal_dick"]
    game.apply(s, 0, "play:papal_dick", LocalRng(1))
    sarge, gunner, fan = s.nose("s0.0"), s.nose("s0.1"), s.nose("s2.1")
    assert [attr(sarge, a) - sarge.attrs[a] for a in ATTRIBUTES] == [1] * 5
    assert attr(gunner, "shooting") == 3 and gunner.pupae == 3 and fan.mods == []
    T.end_turn(s, [])
    assert gunner.mods == [] and attr(gunner, "shooting") == 2 and gunner.pupae == 2


def test_for_the_sarge_needs_a_squad_that_lost_its_original_leader():
    """¡¡Vamos nenes, por el sargento!!: at a turn's start, a Fans or Lethal Fans squad whose
    original leader is gone: every nose +3 actions and clumsy until the turn ends."""
    game, s = game_position(OPEN, {"s2.0": ((1, 7), "N"), "s2.1": FAN, "s0.1": MACUTE},
                            hands=((), ("rebel_for_sarge",)))
    T.start_turn(s, [])
    assert ids(game, s) == ["pass"]  # the Fans' leader still stands
    s.prompts.clear()
    s.nose("s2.0").status = "dead"
    T.start_turn(s, [])
    assert ids(game, s) == ["pass", "play:rebel_for_sarge:2"]
    game.apply(s, 1, "play:rebel_for_sarge:2", LocalRng(1))
    fan = s.nose("s2.1")
    assert attr(fan, "actions") == 8 and has_flaw(fan, "clumsy") and "clumsy" not in fan.flaws
    T.end_turn(s, [])
    assert attr(fan, "actions") == 5 and not has_flaw(fan, "clumsy")
