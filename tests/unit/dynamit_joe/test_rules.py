"""Rule tests on positions built directly; each names the rulebook section it checks."""

from __future__ import annotations

import pytest

from partida.engine import IllegalAction, LocalRng
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe import actions as A
from partida.games.dynamit_joe.geometry import geometry
from tests.unit.dynamit_joe.positions import (
    act,
    clear_zone_of_others,
    gun,
    ids,
    make,
    put,
    stack,
    stack_panic,
    turn,
)

# ----- 6 Line of sight -----------------------------------------------------------------

def test_walls_block_the_line_between_centres() -> None:
    """6.1: a wall between the two centres blocks sight (bank hall to the saloon)."""
    assert not geometry().sight("st_s4", "saloon_floor").visible
    assert geometry().sight("st_n1", "st_n3").visible


def test_a_character_blocks_only_when_the_line_crosses_his_centre() -> None:
    """6.1: someone standing in st_n2 blocks st_n1 -> st_n3; nobody there, the line is clear."""
    geo = geometry()
    assert not geo.sight("st_n1", "st_n3", occupied={"st_n2"}).visible
    assert geo.sight("st_n1", "st_n3", occupied={"st_s2"}).visible


def test_target_behind_a_door_seen_from_the_adjacent_zone() -> None:
    """6.2 B, first case: right across the saloon door the target is visible, and behind it."""
    s = geometry().sight("st_n1", "saloon_floor")
    assert s.visible and s.behind_opening


def test_target_behind_a_door_from_afar_needs_to_have_fired_outside() -> None:
    """6.2 B, second case: from two zones away only a target that fired outside is seen."""
    geo = geometry()
    assert not geo.sight("st_n3", "saloon_floor").visible
    assert geo.sight("st_n3", "saloon_floor", fired_outside=True).visible


def test_shooting_out_from_behind_a_window() -> None:
    """6.2 A: from the zone holding the window, the line runs from the window's centre."""
    s = geometry().sight("saloon_floor", "st_s2")
    assert s.visible and not s.behind_opening


def test_dynamite_flies_over_fences_but_bullets_do_not() -> None:
    """6.3: a fence blocks sight except for throwing dynamite."""
    geo = geometry()
    assert not geo.sight("st_n4", "st_s4").visible
    assert geo.sight("st_n4", "st_s4", over_fences=True).visible


def test_blast_is_stopped_by_trees_and_walls() -> None:
    """7.3: the blast reaches open neighbours, not past the tree between st_s2 and st_s3, not
    through the saloon door."""
    blast = geometry().blast_zones("st_s2")
    assert "st_s1" in blast and "st_n2" in blast
    assert "st_s3" not in blast and "blanch_front" not in blast


# ----- 7.1 chance to hit -----------------------------------------------------------------

def test_three_disadvantages_pick_the_pile() -> None:
    """7.1: none easy, one average, two or more hard."""
    s = make()
    put(s, "st_n1", "Jake")
    assert A.level(s, "Jake", "st_n2", False) == 0
    assert A.level(s, "Jake", "st_n3", False) == 1
    assert A.level(s, "Jake", "st_n3", True) == 2
    s.chars["Jake"]["wounds"] = 1
    assert A.level(s, "Jake", "st_n2", False) == 1


# ----- 4 and 5 actions -----------------------------------------------------------------

def test_moving_costs_one_point_and_an_impossible_action_costs_nothing() -> None:
    """4.2 and 5 (intro): a move spends one point; a refused action changes nothing."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake"})
    put(s, "st_n1", "Jake")
    act(s, "move:st_n2")
    assert (s.chars["Jake"]["zone"], s.ap) == ("st_n2", 3)
    before = s.to_dict()
    with pytest.raises(IllegalAction):
        GAME.apply(s, s.chars["Jake"]["seat"], "move:coffre", LocalRng(0))
    assert s.to_dict() == before


def test_reload_adds_one_bullet_up_to_the_capacity() -> None:
    """5.3: one bullet per point; never above the gun's maximum."""
    s = turn(make(), "Jake")
    g = gun(s, "Jake")
    s.objects[g]["ammo"] = 7
    act(s, f"reload:{g}")
    assert s.objects[g]["ammo"] == 8 and s.ap == 3
    act(s, f"reload:{g}")
    assert f"reload:{g}" not in ids(s)


def test_laying_an_ambush_costs_two_points() -> None:
    """4.2: the ambush is the one action costing two points."""
    s = turn(make(), "Jake", ap=2)
    act(s, "ambush")
    assert s.chars["Jake"]["ambush"] and s.ap == 0


def test_whisky_heals_one_wound() -> None:
    """5.9: drinking removes one wound and the bottle."""
    s = turn(make(), "Billy")
    s.chars["Billy"]["wounds"] = 2
    bottle = next(o for o in s.chars["Billy"]["objects"] if A.kind(s, o) == "whisky") \
        if any(A.kind(s, o) == "whisky" for o in s.chars["Billy"]["objects"]) else None
    if bottle is None:
        bottle = GAME._new_object(s, "whisky", zone=None)
        s.chars["Billy"]["objects"][0] = bottle
        s.objects[bottle]["holder"] = "Billy"
    act(s, f"drink:{bottle}")
    assert s.chars["Billy"]["wounds"] == 1 and bottle not in s.chars["Billy"]["objects"]


def test_two_objects_at_most_and_a_dropped_gun_keeps_its_bullets() -> None:
    """5.6: a full character must drop first (free); the dropped gun remembers its ammo."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave"})
    knife = GAME._new_object(s, "knife", zone=s.chars["Dave"]["zone"])
    assert f"pick:{knife}" not in ids(s)
    first = s.chars["Dave"]["objects"][0]
    act(s, f"drop:{first}")
    assert s.ap == 4 and s.objects[first]["zone"] == s.chars["Dave"]["zone"]
    act(s, f"pick:{knife}")
    assert knife in s.chars["Dave"]["objects"]
    g = gun(s, "Dave")
    s.objects[g]["ammo"] = 2
    s.objects[knife]["zone"] = None  # make room in the zone's list, then drop the colt
    A._release(s, "Dave", g, s.chars["Dave"]["zone"])
    assert s.objects[g]["ammo"] == 2 and s.objects[g]["zone"] == s.chars["Dave"]["zone"]


def test_friends_in_one_zone_give_objects() -> None:
    """5.6: two friendly characters in the same zone may hand over an object."""
    s = turn(make(), "Jake")
    put(s, "st_n1", "Jake", "Dave")
    s.chars["Dave"]["objects"] = s.chars["Dave"]["objects"][:1]
    knife = s.chars["Jake"]["objects"][0]
    act(s, f"give:{knife}:Dave")
    assert knife in s.chars["Dave"]["objects"] and s.ap == 3


# ----- 5.2, 7.2 shooting and its results ----------------------------------------

def _duel(result: str, pile: str = "easy") -> tuple:  # type: ignore[type-arg]
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, "st_n2", "Billy")
    stack(s, pile, result, "rifle")
    return s, gun(s, "Jake")


def test_a_shot_spends_a_bullet_and_a_wound_card_wounds() -> None:
    """2.6, 5.2, 7.2: the marker moves one towards 0; a minor injury is one wound."""
    s, g = _duel("wound1")
    act(s, f"shoot:{g}:Billy")
    assert s.objects[g]["ammo"] == 8 and s.chars["Billy"]["wounds"] == 1


def test_a_jam_spends_no_bullet_and_blocks_the_gun_until_cleared() -> None:
    """7.2 weapon jam, 5.2, 5.4: no bullet spent, no shot until the jam is removed."""
    s, g = _duel("jam")
    act(s, f"shoot:{g}:Billy")
    assert s.objects[g]["ammo"] == 9 and s.objects[g]["jammed"]
    assert not any(a.startswith(f"shoot:{g}") for a in ids(s))
    act(s, f"unjam:{g}")
    assert not s.objects[g]["jammed"]


def test_three_wounds_kill_and_the_body_keeps_its_objects_in_the_zone() -> None:
    """2.5, 7.2, 7.7: the third wound kills; the figure and its objects stay in the zone."""
    s, g = _duel("wound2")
    s.chars["Billy"]["wounds"] = 1
    held = s.held("Billy")
    act(s, f"shoot:{g}:Billy")
    assert s.chars["Billy"]["dead"] and s.chars["Billy"]["zone"] == "st_n2"
    assert all(s.objects[o]["zone"] == "st_n2" for o in held)


def test_out_of_range_is_not_a_legal_shot() -> None:
    """5.2: the knife reaches one zone; no throw at two zones."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, "st_n3", "Billy")
    assert not any(a.startswith("knife:") for a in ids(s))
    put(s, "st_n2", "Billy")
    assert any(a.startswith("knife:") for a in ids(s))


def test_a_miss_at_a_crowded_zone_may_hit_another() -> None:
    """7.5: after a miss a new card goes to a random other character in the zone."""
    s, g = _duel("miss")
    put(s, "st_n2", "Billy", "Luke")
    ev = act(s, f"shoot:{g}:Billy")
    cards = [e for e in ev if e.kind == "marksmen_card"]
    assert len(cards) == 2 and cards[1].data["target"] == "Luke"


def test_double_barrel_draws_two_cards_and_spends_two_shells() -> None:
    """7.4: both barrels with one action, two cards, ammunition per shot."""
    s = turn(make(), "Bob")
    clear_zone_of_others(s, {"Bob", "Billy"})
    put(s, "st_n1", "Bob")
    put(s, "st_n2", "Billy")
    stack(s, "easy", "miss", "shotgun", times=2)
    g = gun(s, "Bob")
    ev = act(s, f"double:{g}:Billy")
    assert len([e for e in ev if e.kind == "marksmen_card"]) == 2
    assert s.objects[g]["ammo"] == 0 and s.ap == 3


# ----- 7.6 panic -----------------------------------------------------------------

def test_flight_ends_out_of_sight_and_never_in_an_enemy_zone() -> None:
    """7.6: the panicked character runs until no enemy sees him, avoiding enemy zones."""
    s, g = _duel("panic")
    stack_panic(s, "flight_3")
    act(s, f"shoot:{g}:Billy")
    z = s.chars["Billy"]["zone"]
    assert z != "st_n2" and z != "st_n1"
    assert not A.sees(s, "Jake", "Billy").visible


def test_total_panic_skips_the_next_action_phase() -> None:
    """Panic cards, total panic: the character passes at his next activation."""
    s, g = _duel("panic")
    stack_panic(s, "total_panic")
    act(s, f"shoot:{g}:Billy")
    assert s.chars["Billy"]["skip"]


# ----- 7.3 and 5.5 dynamite -----------------------------------------------------------------

def test_blast_hits_the_target_zone_and_adjacent_ones_a_step_harder() -> None:
    """7.3: everyone in the zone draws a card, neighbours from the next harder pile."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy", "Luke"})
    put(s, "st_n3", "Dave")
    put(s, "st_n1", "Billy")
    put(s, "st_s1", "Luke")
    stack(s, "average", "wound1", "dynamite")
    stack(s, "hard", "wound1", "dynamite")
    stick = next(o for o in s.chars["Dave"]["objects"] if A.kind(s, o) == "dynamite")
    ev = act(s, f"dyn:{stick}:st_n1")
    piles = {e.data["target"]: e.data["pile"] for e in ev if e.kind == "marksmen_card"}
    assert piles == {"Billy": "average", "Luke": "hard"}
    assert s.objects[stick]["gone"]


def test_a_fizzled_fuse_leaves_the_stick_jammed_in_the_zone() -> None:
    """5.5, 7.2: a jam result means the stick lies in the target zone with a jam marker."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy"})
    put(s, "st_n3", "Dave")
    put(s, "st_n2", "Billy")
    stack(s, "easy", "jam", "dynamite")
    stick = next(o for o in s.chars["Dave"]["objects"] if A.kind(s, o) == "dynamite")
    act(s, f"dyn:{stick}:st_n2")
    obj = s.objects[stick]
    assert obj["zone"] == "st_n2" and obj["jammed"] and not obj["gone"]
    assert s.chars["Billy"]["wounds"] == 0


# ----- 5.7 ambush and jokers as interrupts -----------------------------------------

def _jake_walks_past_billy(billy_zone: str):  # type: ignore[no-untyped-def]
    """Billy lies in ambush in `billy_zone`; Jake walks from st_n1 to st_n2."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, billy_zone, "Billy")
    s.chars["Billy"]["ambush"] = True
    act(s, "move:st_n2")
    return s


def test_an_ambusher_interrupts_after_an_opponent_acts_in_sight() -> None:
    """5.7: after the opponent's action the ambusher's seat decides; one action, then the
    marker is gone and the opponent goes on."""
    s = _jake_walks_past_billy("st_n3")
    assert s.prompt and s.prompt["kind"] == "window"
    assert GAME.to_act(s) == (s.chars["Billy"]["seat"],)
    shot = next(a for a in ids(s) if a.startswith("amb:shoot:"))
    stack(s, "easy", "miss", "colt")
    act(s, shot)
    assert not s.chars["Billy"]["ambush"] and s.active == "Jake" and s.ap == 3


def test_an_ambusher_out_of_sight_is_not_asked() -> None:
    """5.7: the opponent must be in line of sight."""
    s = _jake_walks_past_billy("coffre")
    assert s.prompt is None and s.active == "Jake"


def test_luck_cancels_a_hit_on_its_holder() -> None:
    """Joker 'Luck': played right after the marksmen card, it annuls it."""
    s, g = _duel("wound2")
    s.chars["Billy"]["joker"] = "luck"
    act(s, f"shoot:{g}:Billy")
    assert s.prompt["kind"] == "joker" and GAME.to_act(s) == (s.chars["Billy"]["seat"],)
    act(s, "play")
    assert s.chars["Billy"]["wounds"] == 0 and s.chars["Billy"]["joker"] is None


def test_resistance_ignores_one_wound() -> None:
    """Joker 'Resistance': one wound fewer when the holder is wounded."""
    s, g = _duel("wound2")
    s.chars["Billy"]["joker"] = "resistance"
    act(s, f"shoot:{g}:Billy")
    # First the luck decision every face-down joker is asked (2.7: a bluff for him).
    assert s.prompt["joker"] == "luck" and ids(s) == ["pass"]
    act(s, "pass")
    assert s.prompt["joker"] == "resistance"
    act(s, "play")
    assert s.chars["Billy"]["wounds"] == 1


def test_instinctive_shot_in_the_opponents_turn() -> None:
    """Joker 'Instinctive shot': after an opponent's action, one free shot."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, "st_n3", "Billy")
    s.chars["Billy"]["joker"] = "instinctive_shot"
    act(s, "move:st_n2")
    assert any(a.startswith("inst:shoot:") for a in ids(s))
    act(s, "pass")
    assert s.active == "Jake" and s.chars["Billy"]["joker"] == "instinctive_shot"


def test_jokers_are_secret_even_from_teammates() -> None:
    """2.7: only the holder's seat sees a joker; others see that one is held."""
    s = make("rivalry", 8)
    jake, dave = s.chars["Jake"], s.chars["Dave"]
    assert jake["seat"] != dave["seat"] and jake["side"] == dave["side"]
    mine = {c["name"]: c["joker"] for c in GAME.view(s, jake["seat"])["characters"]}
    assert mine["Jake"] == jake["joker"] and mine["Dave"] == "hidden"


# ----- 4.1 activation -----------------------------------------------------------------

def test_a_drawn_ambusher_may_stay_in_ambush() -> None:
    """4.1: when his chip is drawn, a character in ambush may stay there instead."""
    s = make()
    for c in s.chars.values():
        c.update(ambush=True, joker=None)
    s.prompt, s.active, s.queue, s.pool = None, None, [], list(s.order)
    GAME._advance(s, LocalRng(1), [])
    assert s.prompt["kind"] == "chip_ambush"
    name = s.prompt["char"]
    act(s, "stay")
    assert s.chars[name]["ambush"] and name not in s.pool


def test_love_sickness_first_round_and_the_sheriff_waits_for_a_shot() -> None:
    """9.2: round one draws only the family's chips; Ted passes until a shot is heard."""
    s = make("love_sickness", 2)
    # (the first chip may still wait on the initiative decisions: then nobody is active)
    assert set(s.pool) | ({s.active} - {None}) <= {"Susan", "Bob", "Joe"}
    assert s.chars["Ted"]["dormant"] == "noise"
    s.noise = True
    GAME._wake(s, [])
    assert s.chars["Ted"]["dormant"] == ""


# ----- chapter 9 scenarios -----------------------------------------------------------------

def test_the_vault_lock_breaks_on_a_wound_result() -> None:
    """9.4: a shot at the lock whose card shows a wound destroys it."""
    s = turn(make("bank_hoist", 2), "Jake")
    put(s, "bank_counter", "Jake")
    stack(s, "easy", "wound1", "rifle")
    act(s, f"lock:{gun(s, 'Jake')}:vault_lock")
    assert s.locks["vault_lock"] is False
    assert "move:coffre" in ids(s)


def test_robbers_carry_gold_off_the_board() -> None:
    """9.4: nuggets taken off the board count for the robbers; when every robber is gone the
    gold decides (three or more wins, RULES.md)."""
    s = turn(make("bank_hoist", 2), "Jake")
    nuggets = [o for o, obj in s.objects.items() if obj["kind"] == "nugget"]
    for n in ("Dave", "Bob", "Joe"):
        s.chars[n]["left"] = True
    s.chars["Jake"]["objects"] = [nuggets[2]]
    s.objects[nuggets[2]].update(holder="Jake", zone=None)
    put(s, "st_n1", "Jake")
    act(s, "leave")
    out = GAME.outcome(s)
    assert out is not None and s.gold_off["robbers"] == 3
    assert out.winners == tuple(sorted({s.chars[n]["seat"] for n in ("Jake", "Dave")}))


def test_tied_jake_is_freed_with_a_knife_and_his_chip_joins() -> None:
    """9.6: a character with a knife in Jake's zone frees him for one point."""
    s = turn(make("hostages", 3), "Bob")
    put(s, "saloon_floor", "Bob")
    knife = GAME._new_object(s, "knife", zone=None)
    s.chars["Bob"]["objects"] = [knife]
    s.objects[knife]["holder"] = "Bob"
    assert s.chars["Jake"]["tied"]
    act(s, "free:Jake")
    assert not s.chars["Jake"]["tied"] and "Jake" in s.pool


def test_eldorado_markers_are_face_down_for_the_outlaws() -> None:
    """9.8: the keepers know their markers; others see only a face-down marker, and
    determinizing for them reshuffles what lies under."""
    s = make("eldorado", 4)
    keeper, outlaw = s.chars["Ted"]["seat"], s.chars["Slim"]["seat"]
    seen_k = {o["kind"] for o in GAME.view(s, keeper)["ground"]}
    seen_o = {o["kind"] for o in GAME.view(s, outlaw)["ground"]}
    assert {"rock", "nugget"} <= seen_k and seen_o == {"face_down"}
    assert GAME.view(GAME.determinize(s, outlaw, LocalRng(5)), outlaw) == GAME.view(s, outlaw)


def test_surrender_is_an_arrest() -> None:
    """9: voluntary surrender is the only capture; Fred's surrender meets the law's aim."""
    s = make("arrest", 2)
    ev = GAME.resign(s, s.chars["Fred"]["seat"])
    assert s.chars["Fred"]["captured"] and any(e.kind == "surrendered" for e in ev)
    out = GAME.outcome(s)
    assert out is not None and out.winners == (s.chars["Ted"]["seat"],)


# ----- 8 optional rules -----------------------------------------------------------------

def test_windows_cost_two_points_with_rule_8_2() -> None:
    """8.2: climbing through a window costs an extra point."""
    s = turn(make(windows_cost_two=True), "Jake")
    put(s, "saloon_floor", "Jake")
    act(s, "move:st_n2")
    assert s.ap == 2


def test_wounds_reduce_action_points_with_rule_8_4() -> None:
    """8.4: three points when lightly wounded."""
    s = make(wounds_reduce_ap=True)
    s.chars["Jake"]["wounds"] = 1
    GAME._start_turn(s, "Jake", [])
    assert s.ap == 3


def test_jam_repair_by_card_with_rule_8_3() -> None:
    """8.3: a jam symbol when repairing ruins the gun."""
    s = turn(make(jam_repair_by_card=True), "Jake")
    g = gun(s, "Jake")
    s.objects[g]["jammed"] = True
    stack(s, "easy", "jam", "rifle")
    act(s, f"unjam:{g}")
    assert s.objects[g]["gone"] and g not in s.chars["Jake"]["guns"]


def test_reassignment_with_rule_8_1() -> None:
    """8.1: a seat left with no character receives one from a teammate with two or more; the
    teammate's seat chooses which."""
    s = make("rivalry", 3, reassign_characters=True)
    lonely = [n for n in s.order if s.chars[n]["seat"] == 2]
    for n in lonely:
        s.chars[n]["dead"] = True
    s.prompt = None
    GAME._check_end(s, [])
    assert s.prompt is not None and s.prompt["kind"] == "hand" and s.prompt["to"] == 2
    giver = s.prompt["seat"]
    assert s.chars[lonely[0]]["side"] == GAME.allegiance(s, giver)
    act(s, ids(s)[0])
    assert any(s.chars[n]["seat"] == 2 and s.standing(n) for n in s.order)


def test_unknown_options_are_refused() -> None:
    """8: optional rules are named match options; anything else is a bad set-up."""
    from partida.engine import BadSetup
    with pytest.raises(BadSetup):
        make(price_list=True)
