"""Bluff reaction windows: a joker decision is offered to whoever might hold the card on public
facts, so being asked shows nothing of it. Rulebook 2.7 (a joker stays secret, even from
teammates) and the joker card list (Instinctive shot, Adrenaline, Luck, Resistance, Precision,
Initiative: the moments they are played)."""

from __future__ import annotations

from typing import Any

import pytest

from partida.engine import LocalRng
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe.bots import HeuristicBot
from partida.games.dynamit_joe.state import JoeState
from tests.unit.dynamit_joe.positions import (
    act,
    clear_zone_of_others,
    ids,
    make,
    put,
    stack,
    turn,
)


def _position(billy_zone: str = "st_n3", joker: str | None = "diversion") -> JoeState:
    """Rivalry with four seats (Billy has a teammate on another seat); Jake active in st_n1,
    Billy in `billy_zone` holding `joker`, nobody else with a joker or in the way."""
    s = turn(make("rivalry", 4), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, billy_zone, "Billy")
    s.chars["Billy"]["joker"] = joker
    return s


def _observed(s: JoeState, holder_seat: int) -> tuple[Any, ...]:
    """What every seat but the holder's sees: who decides, the public view and their views."""
    others = [x for x in range(s.seats) if x != holder_seat]
    return (GAME.to_act(s), GAME.view(s, None), *(GAME.view(s, x) for x in others))


def _passing(s: JoeState, action: str, holder: str = "Billy") -> tuple[list[Any], list[Any], int]:
    """Apply `action`, then let the holder's seat pass every decision it gets; return what the
    others saw after each step, the events, and how many decisions the holder had."""
    seat = s.chars[holder]["seat"]
    events = [e.to_dict() for e in act(s, action)]
    seen, asked = [_observed(s, seat)], 0
    while s.prompt is not None and GAME.to_act(s) == (seat,):
        asked += 1
        events += [e.to_dict() for e in act(s, "pass")]
        seen.append(_observed(s, seat))
    return seen, events, asked


@pytest.mark.parametrize("joker", ["instinctive_shot", "adrenaline"])
def test_an_opponents_action_opens_the_same_window_with_or_without_the_card(joker: str) -> None:
    """Joker list, Instinctive shot / Adrenaline (after an opponent's action) and 2.7: Billy
    is asked after Jake's move whether he holds the card or not; the other seats (his
    teammate's included) see the same to_act, views and events, and only the holder has
    more than "pass"."""
    worlds = {}
    for held in (joker, "diversion"):
        s = _position(joker=held)
        if joker == "adrenaline":   # no loaded gun: only an adrenaline move could answer
            for g in s.chars["Billy"]["guns"]:
                s.objects[g]["ammo"] = 0
        act(s, "move:st_n2")
        assert s.prompt["kind"] == "window" and GAME.to_act(s) == (s.chars["Billy"]["seat"],)
        options = ids(s)
        worlds[held] = _observed(s, s.chars["Billy"]["seat"])
        if held == "diversion":
            assert options == ["pass"]
        else:
            prefix = "inst:shoot:" if joker == "instinctive_shot" else "adr:move:"
            assert any(a.startswith(prefix) for a in options)
        act(s, "pass")
        assert s.active == "Jake" and s.prompt is None
    assert worlds[joker] == worlds["diversion"]


def test_a_hit_asks_luck_and_resistance_whatever_the_target_holds() -> None:
    """Joker list, Luck (after a marksmen card) and Resistance (on a wound), 2.7: a wounding
    shot at Billy asks him both, in the same order, whether he holds luck, resistance or
    neither; what the other seats see is identical."""
    runs = {}
    for held in ("luck", "resistance", "diversion"):
        s = _position("st_n2", held)
        stack(s, "easy", "wound2", "rifle")
        seen, events, asked = _passing(s, f"shoot:{s.chars['Jake']['guns'][0]}:Billy")
        # luck, resistance, then the window after Jake's shot (instinctive shot, adrenaline)
        assert asked == 3 and s.chars["Billy"]["wounds"] == 2
        assert GAME.to_act(s) == (s.chars["Jake"]["seat"],)
        runs[held] = (seen, events)
    assert runs["luck"] == runs["resistance"] == runs["diversion"]


def test_only_the_holder_may_play_what_everyone_is_asked() -> None:
    """Joker list, Luck: the holder's decision offers to play it; a seat without the card has
    only "pass" (it bluffs), and the heuristic bot takes what it has."""
    bot = HeuristicBot()
    for held, want in (("luck", ["play", "pass"]), ("diversion", ["pass"])):
        s = _position("st_n2", held)
        stack(s, "easy", "wound2", "rifle")
        act(s, f"shoot:{s.chars['Jake']['guns'][0]}:Billy")
        assert s.prompt["kind"] == "joker" and s.prompt["joker"] == "luck"
        assert ids(s) == want
        # the decline reads the same, held or not (a bot's choice is printed for all to read)
        decline = next(a for a in GAME.legal_actions(s, s.chars["Billy"]["seat"]) if a.id == "pass")
        assert decline.description == "Billy does not play luck now"
        seat = s.chars["Billy"]["seat"]
        view = GAME.view(s, seat)
        assert bot.choose(view, GAME.legal_actions(s, seat), LocalRng(0)) == want[0]
        assert GAME.view(s, s.chars["Jake"]["seat"])["prompt"]["kind"] == "reaction"


def test_precision_is_asked_of_an_attacker_with_any_face_down_joker() -> None:
    """Joker list, Precision (after a miss) and 2.7: Jake's missed shot asks him whether he
    holds it or not; the opponents' views do not tell which."""
    runs = {}
    for held in ("precision", "diversion"):
        s = _position("st_n2", None)
        s.chars["Jake"]["joker"] = held
        stack(s, "easy", "miss", "rifle")
        seen, events, asked = _passing(s, f"shoot:{s.chars['Jake']['guns'][0]}:Billy", "Jake")
        assert asked == 1
        runs[held] = (seen, events)
    assert runs["precision"] == runs["diversion"]


def _mate(s: JoeState) -> str:
    """Billy's teammate on Billy's own seat."""
    seat = s.chars["Billy"]["seat"]
    return next(n for n in s.order if n != "Billy" and s.chars[n]["seat"] == seat)


def test_initiative_is_one_decision_per_seat_held_or_not() -> None:
    """Joker list, Initiative (before a chip is drawn) and 2.7: once Jake ends his turn, the
    seat of Billy and his teammate (both in the bag, jokers face down) gets one decision for
    the two before the draw, whether one of them holds the joker or not."""
    runs = {}
    for held in ("initiative", "diversion"):
        s = _position("corral")   # out of Jake's sight: no window after "end"
        s.chars[_mate(s)]["joker"] = held
        seen, events, asked = _passing(s, "end")
        assert asked == 1
        assert any(e["kind"] == "chip_drawn" for e in events)
        runs[held] = (seen, events)
    assert runs["initiative"] == runs["diversion"]


def test_initiative_played_takes_the_turn_at_once() -> None:
    """Joker list, Initiative: the holder takes his turn now and his chip leaves the bag."""
    s = _position("corral")
    mate = _mate(s)
    s.chars[mate]["joker"] = "initiative"
    act(s, "end")
    assert s.prompt["kind"] == "initiative" and ids(s) == ["initiative", "pass"]
    act(s, "initiative")
    assert s.active == mate and mate not in s.pool
    assert s.chars[mate]["jokers_played"] == ["initiative"] and s.chars[mate]["joker"] is None


def test_nobody_is_asked_what_public_facts_rule_out() -> None:
    """2.7 and the joker list (one card of each): with instinctive shot and adrenaline both
    played, Billy's face-down joker can be neither, so Jake's move opens no window; with luck
    played, a wound asks him only about resistance; with no joker left, nothing at all."""
    s = _position()
    s.chars["Luke"]["jokers_played"] += ["instinctive_shot", "adrenaline"]
    act(s, "move:st_n2")
    assert s.prompt is None and s.active == "Jake"

    s = _position("st_n2")
    s.chars["Luke"]["jokers_played"].append("luck")
    stack(s, "easy", "wound1", "rifle")
    act(s, f"shoot:{s.chars['Jake']['guns'][0]}:Billy")
    assert s.prompt["joker"] == "resistance"

    s = _position(joker=None)
    act(s, "move:st_n2")
    assert s.prompt is None


def test_determinize_deals_the_asked_characters_joker_again() -> None:
    """2.7: a pending luck decision tells Jake's seat nothing of Billy's card, so a world
    sampled for it deals Billy any face-down joker; Billy's own seat keeps its card."""
    s = _position("st_n2", "luck")
    stack(s, "easy", "wound2", "rifle")
    act(s, f"shoot:{s.chars['Jake']['guns'][0]}:Billy")
    assert s.prompt["joker"] == "luck"
    jake, billy = s.chars["Jake"]["seat"], s.chars["Billy"]["seat"]
    dealt = {GAME.determinize(s, jake, LocalRng(k)).chars["Billy"]["joker"] for k in range(30)}
    assert len(dealt) > 3
    for k in range(5):
        world = GAME.determinize(s, jake, LocalRng(k))
        assert GAME.to_act(world) == GAME.to_act(s)
        assert GAME.view(world, jake) == GAME.view(s, jake)
        assert GAME.determinize(s, billy, LocalRng(k)).chars["Billy"]["joker"] == "luck"
