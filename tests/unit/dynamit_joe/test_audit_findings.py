"""Findings of a rules audit against the book, each on a position built directly; every test
names the rulebook section it checks."""

from __future__ import annotations

from partida.engine import LocalRng
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe import actions as A
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


def test_a_jammed_shot_is_not_heard_and_wakes_no_sleeper() -> None:
    """7.2 weapon jam and 9.2: a jammed gun does not go off, so no shot is heard and the
    sheriff, who waits for the first shot, stays asleep; a shot that goes off wakes him."""
    s = turn(make("love_sickness", 2), "Bob")
    s.chars["Ted"]["dormant"] = "noise"
    clear_zone_of_others(s, {"Bob", "Brad", "Ted"})
    put(s, "st_n1", "Bob")
    put(s, "st_n2", "Brad")
    put(s, "sheriff_office", "Ted")
    g = gun(s, "Bob")
    stack(s, "easy", "jam", "shotgun")
    act(s, f"shoot:{g}:Brad")
    assert s.objects[g]["jammed"]
    assert not s.noise and s.chars["Ted"]["dormant"] == "noise"
    act(s, f"unjam:{g}")
    stack(s, "easy", "miss", "shotgun")
    act(s, f"shoot:{g}:Brad")
    assert s.noise and s.chars["Ted"]["dormant"] == ""


def test_a_jammed_shot_out_of_a_window_gives_nothing_away() -> None:
    """6.2 B with 7.2: only a shot fired outside makes the shooter visible from afar; a jam
    fires nothing."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "saloon_floor", "Jake")
    put(s, "st_n2", "Billy")
    g = gun(s, "Jake")
    stack(s, "average", "jam", "rifle")
    act(s, f"shoot:{g}:Billy")
    assert s.objects[g]["jammed"] and not s.chars["Jake"]["fired_outside"]


def test_the_lock_may_be_shot_with_either_gun() -> None:
    """5.2 and 9.4: a character with two guns names the one he fires, at the vault lock too."""
    s = turn(make("bank_hoist", 2), "Jake")
    put(s, "bank_counter", "Jake")
    colt = GAME._new_object(s, "colt", zone=None)
    s.chars["Jake"]["guns"].append(colt)
    s.objects[colt]["holder"] = "Jake"
    assert {f"lock:{gun(s, 'Jake')}:vault_lock", f"lock:{colt}:vault_lock"} <= set(ids(s))
    stack(s, "easy", "wound1", "colt")
    act(s, f"lock:{colt}:vault_lock")
    assert s.locks["vault_lock"] is False and s.objects[colt]["ammo"] == 5


def test_speed_does_not_make_a_window_cheaper_under_rule_8_2() -> None:
    """8.2 with the speed joker: a window costs two points, so the two-zone move of speed may
    not start through one for a single point (st_n2 -> saloon window -> behind the counter)."""
    s = turn(make(windows_cost_two=True), "Jake")
    clear_zone_of_others(s, {"Jake"})
    put(s, "st_n2", "Jake")
    s.chars["Jake"]["speed"] = True
    moves = [a for a in ids(s) if a.startswith("move:")]
    assert "move:saloon_floor" in moves and A.cost(s, "Jake", "move:saloon_floor") == 2
    assert "move:saloon_bar" not in moves
    assert "move:st_n4" in moves   # two zones over open ground still cost one


def test_a_blind_panic_miss_may_hit_another_in_the_zone() -> None:
    """7.5 and the panic card 'blind panic': the blind shot is a gun shot like any other, so a
    miss into a crowded zone draws a card for another character there."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy", "Luke"})
    put(s, "st_n1", "Jake")
    put(s, "st_n2", "Billy", "Luke")
    stack_panic(s, "blind_panic")
    stack(s, "hard", "miss", "rifle")
    s.queue = [{"t": "panic", "char": "Jake", "stage": "draw", "card": None}]
    ev: list = []  # type: ignore[type-arg]
    GAME._advance(s, LocalRng(0), ev)
    assert ("stray", {"target": "Luke"}) in [(e.kind, e.data) for e in ev]
    assert len(s.discards["hard"]) == 2


def test_a_body_is_not_wounded_again_by_the_second_barrel() -> None:
    """7.4 and 7.7: when the first card of a double shot kills, the second finds a dead man:
    he dies once."""
    s = turn(make(), "Bob")
    clear_zone_of_others(s, {"Bob", "Billy"})
    put(s, "st_n1", "Bob")
    put(s, "st_n2", "Billy")
    s.chars["Billy"]["wounds"] = 2
    g = gun(s, "Bob")
    stack(s, "easy", "wound1", "shotgun", times=2)
    ev = act(s, f"double:{g}:Billy")
    assert [e.kind for e in ev if e.kind in ("wounded", "died")] == ["wounded", "died"]
    assert s.objects[g]["ammo"] == 0
