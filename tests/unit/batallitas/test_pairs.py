"""Two pistols or two submachine guns at once (Arsenal, "Rulebook: Pistols" and "Submachine
guns"; Shooting: Rate of Fire, Jamming and Unjamming). The pair is given through the content's
own path: the nose type's weapon list names the weapon twice, the content is validated, and
the nose is equipped from it as at set-up. Dice scripted: a Fan's two Shooting dice, then the
infernal die."""

import pytest

from partida.engine import LocalRng
from partida.games.batallitas import setup
from partida.games.batallitas import shooting as F
from partida.games.batallitas.adapter import event_to_proto, view_to_proto
from partida.games.batallitas.content import Content, load
from partida.games.batallitas.setup import nose_spec

from .positions import ScriptedRng, acting, game_position, ids

OPEN = ["........"] * 8
FAN, MACUTE, SPARE = ((3, 7), "N"), ((3, 2), "S"), ((7, 0), "S")
MISS, SCREW_UP = (2, 4, 3), (2, 4, 1)


def content_with(kind: str, weapons: tuple[str, ...]) -> Content:
    """The content with one nose type's weapons replaced, validated as squads.json is."""
    c = load()
    squad, _, nid = kind.partition("/")
    sq = c.squads[squad]
    noses = tuple(ns.model_copy(update={"weapons": weapons}) if ns.id == nid else ns
                  for ns in sq.noses)
    return Content(**{**dict(c), "squads": {**c.squads,
                                           squad: sq.model_copy(update={"noses": noses})}})


def arm(state, nid: str, *weapons: str):
    """Equip the nose from content whose nose type carries `weapons` (set-up's own code)."""
    n = state.nose(nid)
    c = content_with(n.kind, weapons)
    setup.equip(c, n, nose_spec(c, n.kind))
    return n


def fan_with_pair():
    """A Fan (Shooting 2) carrying two submachine guns, acting, with a Macute in its sights."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE, "s0.2": SPARE})
    fan = arm(s, "s2.1", "smg", "smg")
    acting(s, "s2.1")
    return game, s, fan


def jam_events(ev):
    return [dict(e.data) for e in ev if e.kind in ("jammed", "unjammed")]


def test_content_lists_a_pair_as_the_weapon_twice_and_only_for_dual_weapons():
    """Rulebook: Pistols and Submachine guns: only these two may be carried two at a time
    (RULES.md decision: a pair is the weapon listed twice in the nose type's weapons)."""
    assert content_with("fans/gamer", ("smg", "smg")).squads["fans"].noses[0].weapons == \
        ("smg", "smg")
    assert content_with("macutes/sergeant", ("pistol", "pistol", "katanote"))
    with pytest.raises(ValueError, match="too many blunderbuss"):
        content_with("fanhunters/rifleman", ("blunderbuss", "blunderbuss"))
    with pytest.raises(ValueError, match="too many pistol"):
        content_with("macutes/sergeant", ("pistol", "pistol", "pistol"))


def test_a_pair_adds_one_to_the_rate_of_fire():
    """Rulebook: Pistols (and Submachine guns, the same rule): a pair counts as one weapon with
    +1 RoF; on alert a shot is still a single one (Alert Shot)."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.0": MACUTE})
    fan = arm(s, "s2.1", "smg", "smg")
    sergeant = arm(s, "s0.0", "pistol", "pistol", "katanote")
    assert F.rate_of_fire(fan, F.weapon("smg")) == 2 + 1
    assert F.rate_of_fire(sergeant, F.weapon("pistol")) == 1 + 1
    assert F.rate_of_fire(fan, F.weapon("smg"), alert=True) == 1


def test_a_pair_fires_a_burst_of_one_more_shot():
    """Submachine guns, Rate of Fire: the pair's burst has three shots where one gun has two."""
    game, s, fan = fan_with_pair()
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*MISS))
    assert s.burst is not None and s.burst["left"] == 2
    game.apply(s, 1, "shot:3,2", ScriptedRng(*MISS))
    game.apply(s, 1, "shot:3,2", ScriptedRng(*MISS))
    assert s.burst is None and fan.spent == 2


def test_a_screw_up_jams_one_of_the_pair_and_the_other_keeps_firing_without_the_bonus():
    """Rulebook: Pistols / Submachine guns: a screw-up jams only one of the two, the nose may
    go on firing with the other, the +1 RoF lost (RULES.md decision: the burst under way goes
    on, one shot shorter)."""
    game, s, fan = fan_with_pair()
    ev = game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*SCREW_UP))
    assert fan.jammed == ["smg"] and F.usable(fan, F.weapon("smg"))
    assert jam_events(ev) == [{"nose": "s2.1", "weapon": "smg", "working": 1}]
    assert s.burst is not None and s.burst["left"] == 3 - 1 - 1
    game.apply(s, 1, "shot:3,2", ScriptedRng(*MISS))
    assert s.burst is None
    assert F.rate_of_fire(fan, F.weapon("smg")) == 2
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*MISS))  # the next burst: allowed, RoF 2
    assert s.burst is not None and s.burst["left"] == 1


def test_a_second_screw_up_jams_the_other_one_too():
    """Jamming and Unjamming with a pair (RULES.md decision): the gun left firing is a single
    gun, so a screw-up with it jams it as well and the nose cannot fire it."""
    game, s, fan = fan_with_pair()
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*SCREW_UP))
    ev = game.apply(s, 1, "shot:3,2", ScriptedRng(*SCREW_UP))
    assert fan.jammed == ["smg", "smg"] and s.burst is None
    assert jam_events(ev) == [{"nose": "s2.1", "weapon": "smg", "working": 0}]
    assert not [a for a in ids(game, s) if a.startswith("fire:smg")]
    assert [a for a in ids(game, s) if a.startswith("unjam")] == ["unjam:smg"]


def test_clearing_one_of_a_pair_costs_three_points_and_brings_back_the_bonus():
    """Rulebook: Pistols (the +1 returns once the jammed one is cleared) and Jamming and
    Unjamming (3 points): each clearing frees one gun of the pair (RULES.md decision)."""
    game, s, fan = fan_with_pair()
    fan.jammed = ["smg"]
    ev = game.apply(s, 1, "unjam:smg", LocalRng(0))
    assert fan.jammed == [] and fan.spent == 3
    assert jam_events(ev) == [{"nose": "s2.1", "weapon": "smg", "working": 2}]
    assert F.rate_of_fire(fan, F.weapon("smg")) == 3
    game, s, fan = fan_with_pair()
    fan.jammed = ["smg", "smg"]
    ev = game.apply(s, 1, "unjam:smg", LocalRng(0))
    assert fan.jammed == ["smg"] and fan.spent == 3
    assert jam_events(ev) == [{"nose": "s2.1", "weapon": "smg", "working": 1}]
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*MISS))
    assert s.burst is not None and s.burst["left"] == 1  # one gun: RoF 2


def test_an_alert_shot_with_a_pair_is_one_shot_and_a_screw_up_jams_one_gun():
    """Alert Shot with a pair (RULES.md decision): one shot, one die fewer, as with any weapon;
    its screw-up ends the alert and jams one gun, the other still fires."""
    game, s = game_position(OPEN, {"s0.1": ((3, 0), "S"), "s2.1": ((3, 6), "N"),
                                   "s0.2": SPARE})
    macute = arm(s, "s0.1", "smg", "smg")
    acting(s, "s2.1")
    macute.alert = True
    game.apply(s, 1, "move:3,5", LocalRng(0))
    ev = game.apply(s, 0, "alert:s0.1:smg", ScriptedRng(2, 1))  # one die, infernal 1
    assert [e.data["dice"] for e in ev if e.kind == "shot"] == [1]
    assert not macute.alert and macute.jammed == ["smg"]
    assert jam_events(ev) == [{"nose": "s0.1", "weapon": "smg", "working": 1}]
    assert F.usable(macute, F.weapon("smg"))


def test_a_single_pistol_jams_and_stops_as_before():
    """Rulebook: Pistols, Firing One Shot (screw-up): one pistol has RoF 1, jams on a screw-up
    and cannot fire until cleared; its event names no pair."""
    game, s = game_position(OPEN, {"s0.0": ((3, 0), "S"), "s2.1": ((3, 3), "N")})
    sergeant = arm(s, "s0.0", "pistol", "katanote")
    acting(s, "s0.0")
    assert F.rate_of_fire(sergeant, F.weapon("pistol")) == 1
    ev = game.apply(s, 0, "fire:pistol:3,3", ScriptedRng(*SCREW_UP))
    assert sergeant.jammed == ["pistol"] and s.burst is None
    assert jam_events(ev) == [{"nose": "s0.0", "weapon": "pistol"}]
    assert not [a for a in ids(game, s) if a.startswith("fire:pistol")]


def test_a_card_jam_takes_one_of_the_pair():
    """¡¡Cli-cli-clik!! against a pair (RULES.md decision): the card jams the weapon, and a
    pair's weapon jams one gun at a time, as with a screw-up; the shot fails, the burst goes on
    one shot shorter."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE, "s0.2": SPARE},
                            hands=(("papal_click_1",), ()))
    fan = arm(s, "s2.1", "smg", "smg")
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(5, 5, 3))  # a hit, until the card
    game.apply(s, 0, "play:papal_click_1", ScriptedRng())
    assert fan.jammed == ["smg"] and s.nose("s0.1").pupae == 2
    assert s.burst is not None and s.burst["left"] == 1


def test_kaboom_on_a_pair_destroys_the_jammed_gun_only():
    """¡¡Ka-boom!! on one of a pair (RULES.md decision): the gun that jammed bursts, the other
    stays in hand, a single gun from then on."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE, "s0.2": SPARE},
                            hands=(("papal_kaboom",), ()))
    fan = arm(s, "s2.1", "smg", "smg")
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(*SCREW_UP))
    game.apply(s, 0, "pass", ScriptedRng())
    assert fan.jammed == ["smg"] and "play:papal_kaboom" in ids(game, s, 0)
    game.apply(s, 0, "play:papal_kaboom", ScriptedRng(2, 2))  # no pupa
    assert fan.weapons.count("smg") == 1 and fan.jammed == []
    assert F.usable(fan, F.weapon("smg")) and F.rate_of_fire(fan, F.weapon("smg")) == 2


def test_kaboom_answers_the_second_gun_of_a_pair_jamming_too():
    """¡¡Ka-boom!! answers every fresh jam of a short or long firearm, the second gun of a pair
    included; it destroys that gun and the first stays jammed in hand (RULES.md decision)."""
    game, s = game_position(OPEN, {"s2.1": FAN, "s0.1": MACUTE, "s0.2": SPARE},
                            hands=(("papal_kaboom",), ()))
    fan = arm(s, "s2.1", "smg", "smg")
    fan.jammed = ["smg"]
    acting(s, "s2.1")
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng())
    game.apply(s, 0, "pass", ScriptedRng(*SCREW_UP))
    game.apply(s, 0, "pass", ScriptedRng())
    assert fan.jammed == ["smg", "smg"] and "play:papal_kaboom" in ids(game, s, 0)
    game.apply(s, 0, "play:papal_kaboom", ScriptedRng(2, 2))
    assert fan.weapons.count("smg") == 1 and fan.jammed == ["smg"]
    assert not F.usable(fan, F.weapon("smg"))
    game.apply(s, 0, "pass", ScriptedRng())  # the holder's any-time window
    assert "unjam:smg" in ids(game, s, 1)


def test_full_fire_with_a_pair_has_its_bonus_and_jams_one_gun():
    """¡¡Fuego al máximo!! with a pair (RULES.md decision): the free burst has the pair's rate
    of fire, and the jam it ends with takes one gun of the two."""
    game, s = game_position(OPEN, {"s0.1": ((3, 1), "S"), "s1.1": ((3, 6), "N")},
                            hands=(("papal_full_fire",), ()), scenario="shopping")
    hunter = arm(s, "s0.1", "smg", "smg")  # a Fanhunter rifleman, Shooting 3
    acting(s, "s1.1")
    game.apply(s, 1, "turn:E", ScriptedRng())
    game.apply(s, 0, "play:papal_full_fire:s0.1:smg:3,6", ScriptedRng(2, 2, 2, 3))
    assert s.burst is not None and s.burst["left"] == 3 - 1
    game.apply(s, 0, "stop", ScriptedRng())
    assert hunter.jammed == ["smg"] and F.usable(hunter, F.weapon("smg"))


def test_views_and_typed_forms_show_a_half_jammed_pair():
    """The view lists a pair's weapon twice and a half-jammed pair's once among the jammed; the
    typed event says how many of the two still fire."""
    game, s, fan = fan_with_pair()
    ev = game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*SCREW_UP))
    view = game.view(s, 0)
    mine = next(n for n in view["noses"] if n["id"] == "s2.1")
    assert mine["weapons"] == ["hand", "smg", "smg"] and mine["jammed"] == ["smg"]
    typed = next(n for n in view_to_proto(view).noses if n.id == "s2.1")
    assert list(typed.weapons) == ["hand", "smg", "smg"] and list(typed.jammed) == ["smg"]
    jammed = next(e for e in ev if e.kind == "jammed")
    msg = event_to_proto(jammed.kind, jammed.data).jammed
    assert msg.HasField("working") and msg.working == 1
    single = event_to_proto("jammed", {"nose": "s2.1", "weapon": "pistol"}).jammed
    assert not single.HasField("working")
