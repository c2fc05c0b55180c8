"""Findings of a second rules audit against the book, each on a position built directly; every
test names the rulebook section it checks."""

from __future__ import annotations

from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe import actions as A
from partida.games.dynamit_joe import resolve as R
from partida.games.dynamit_joe.geometry import geometry
from partida.games.dynamit_joe.state import JoeState
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


def _stick(s: JoeState, name: str) -> str:
    return next(o for o in s.chars[name]["objects"] if A.kind(s, o) == "dynamite")


def _on_top(s: JoeState, pile: str, weapon: str, *results: str) -> None:
    """Put one card of each result (in that order) on top of a marksmen pile."""
    cards = R.marksmen(pile)
    wanted: list[int] = []
    for res in results:
        wanted.append(next(i for i in range(len(cards))
                           if cards[i][weapon] == res and i not in wanted))
    everything = s.piles[pile] + s.discards[pile]
    s.discards[pile] = []
    s.piles[pile] = wanted + [c for c in everything if c not in wanted]


# ----- 7.1 with 5.5 and 6.2 A: dynamite thrown out of a building ------------------------------

def test_dynamite_thrown_out_of_a_window_does_not_put_the_street_behind_it() -> None:
    """7.1: only a target behind a door or window is harder to hit. Dave throws from inside
    the saloon, out of its window (6.2 A), at Billy two zones away in the open street: one
    disadvantage (distance), the same as a shot at him, so the average pile."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy"})
    put(s, "saloon_floor", "Dave")
    put(s, "st_n3", "Billy")
    shot = A.sees(s, "Dave", "Billy")
    assert shot.visible and A.level(s, "Dave", "st_n3", shot.behind_opening) == 1
    stack(s, "average", "miss", "dynamite")
    ev = act(s, f"dyn:{_stick(s, 'Dave')}:st_n3")
    assert [e.data["pile"] for e in ev if e.kind == "marksmen_card"] == ["average"]


def test_dynamite_thrown_into_a_building_still_counts_the_opening() -> None:
    """7.1 and 7.3: thrown in from the street, everyone inside is behind the opening (the
    neighbouring zone inside one step harder still)."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy", "Luke"})
    put(s, "st_n2", "Dave")
    put(s, "saloon_floor", "Billy")
    put(s, "saloon_bar", "Luke")
    stack(s, "average", "miss", "dynamite")
    ev = act(s, f"dyn:{_stick(s, 'Dave')}:saloon_floor")
    piles = {e.data["target"]: e.data["pile"] for e in ev if e.kind == "marksmen_card"}
    assert piles == {"Billy": "average", "Luke": "hard"}


# ----- 7.3 with 6.1: a fence is a wall to the blast ------------------------------------------

def test_a_fence_stops_the_blast() -> None:
    """6.1 counts fences among the walls; 7.3 has walls stop the blast; 6.3 lets only the
    throw itself pass over a fence. Dynamite thrown at st_n4 does not reach st_s4 across the
    fence, though st_s4 is next to it."""
    geo = geometry()
    assert geo.link("st_n4", "st_s4").kind == "fence"  # type: ignore[union-attr]
    assert "st_s4" not in geo.blast_zones("st_n4")
    assert "st_n3" in geo.blast_zones("st_n4")
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy", "Luke"})
    put(s, "st_n2", "Dave")
    put(s, "st_n4", "Billy")
    put(s, "st_s4", "Luke")
    stack(s, "average", "miss", "dynamite")
    ev = act(s, f"dyn:{_stick(s, 'Dave')}:st_n4")
    assert [e.data["target"] for e in ev if e.kind == "marksmen_card"] == ["Billy"]


def test_dynamite_may_still_be_thrown_over_a_fence_at_its_far_side() -> None:
    """6.3: the throw itself flies over the fence and the zone beyond is hit."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Luke"})
    put(s, "st_n4", "Dave")
    put(s, "st_s4", "Luke")
    stick = _stick(s, "Dave")
    assert f"dyn:{stick}:st_s4" in ids(s)
    stack(s, "easy", "miss", "dynamite")
    ev = act(s, f"dyn:{stick}:st_s4")
    assert [e.data["target"] for e in ev if e.kind == "marksmen_card"] == ["Luke"]


# ----- 7.2 and 9.7: the bars' card of an exploded stick -------------------------------------

def test_a_jam_on_the_bars_card_leaves_no_jammed_stick() -> None:
    """7.2 and 9.7: only the explosion's own card can fizzle the fuse; once the stick has gone
    off, a jam drawn for the cell bars is just no damage to them (no jammed stick, no event)."""
    s = turn(make("break_out", 2), "Dave")
    clear_zone_of_others(s, {"Dave", "Bob"})
    put(s, "st_n3", "Dave")
    stick = _stick(s, "Dave")
    _on_top(s, "hard", "dynamite", "wound1", "jam")   # Bob's card, then the bars' card
    ev = act(s, f"dyn:{stick}:cellule")
    assert [e.kind for e in ev if e.kind in ("explosion", "jammed", "fizzled")] == ["explosion"]
    assert not s.objects[stick]["jammed"] and s.objects[stick]["zone"] is None
    assert s.locks["cell_bars"] is True


# ----- 7.4 and 7.6: both cards of a double shot before any panic -----------------------------

def _double_shot(first: str, second: str) -> tuple[JoeState, list]:  # type: ignore[type-arg]
    s = turn(make(), "Bob")
    clear_zone_of_others(s, {"Bob", "Billy"})
    put(s, "st_n1", "Bob")
    put(s, "st_n2", "Billy")
    _on_top(s, "easy", "shotgun", first, second)
    stack_panic(s, "blind_panic")
    ev = act(s, f"double:{gun(s, 'Bob')}:Billy")
    return s, ev


def test_a_panic_from_the_first_barrel_waits_for_the_second_card() -> None:
    """7.4: the two cards of a double shot are drawn together and both applied; the panic the
    first one causes (blind panic: Billy fires back) comes after the second barrel's card."""
    s, ev = _double_shot("panic", "wound1")
    order = [(e.kind, e.data.get("attacker", e.data.get("character")))
             for e in ev if e.kind in ("marksmen_card", "panic_card")]
    assert order == [("marksmen_card", "Bob"), ("marksmen_card", "Bob"),
                     ("panic_card", "Billy"), ("marksmen_card", "Billy")]
    assert s.chars["Billy"]["wounds"] == 1


def test_two_panics_of_one_double_shot_come_in_the_order_drawn() -> None:
    """7.6: several panic cards are applied in the order they were drawn; the panic of the
    first barrel's card first."""
    s = turn(make(), "Bob")
    clear_zone_of_others(s, {"Bob", "Billy"})
    put(s, "st_n1", "Bob")
    put(s, "st_n2", "Billy")
    _on_top(s, "easy", "shotgun", "panic", "panic_wound1")
    first, second = R.panic_cards().index("luck_minus"), R.panic_cards().index("courage")
    rest = [c for c in s.piles["panic"] + s.discards["panic"] if c not in (first, second)]
    s.piles["panic"], s.discards["panic"] = [first, second, *rest], []
    ev = act(s, f"double:{gun(s, 'Bob')}:Billy")
    kinds = [e.kind for e in ev if e.kind in ("marksmen_card", "wounded", "panic_card")]
    assert kinds == ["marksmen_card", "marksmen_card", "wounded", "panic_card", "panic_card"]
    assert [e.data["effect"] for e in ev if e.kind == "panic_card"] == ["luck_minus", "courage"]


def test_every_blast_card_is_drawn_before_a_victims_panic() -> None:
    """7.3 with 7.6: one explosion, one card per character caught; a panic it causes (here a
    blind shot from the first victim) comes after the last victim's card."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy", "Luke"})
    put(s, "st_n4", "Dave")
    put(s, "st_n2", "Billy", "Luke")
    _on_top(s, "average", "dynamite", "panic", "wound1")
    stack_panic(s, "blind_panic")
    ev = act(s, f"dyn:{_stick(s, 'Dave')}:st_n2")
    order = [(e.kind, e.data.get("target", e.data.get("character")))
             for e in ev if e.kind in ("marksmen_card", "panic_card")]
    assert order[:3] == [("marksmen_card", "Billy"), ("marksmen_card", "Luke"),
                         ("panic_card", "Billy")]


# ----- 4.1 with the Initiative joker: a turn taken ends the ambush ---------------------------

def test_initiative_taken_from_ambush_ends_the_ambush() -> None:
    """4.1: a character in ambush either stays there or takes his action phase; taking it by
    the Initiative joker is taking it, so the ambush marker goes, as when his chip is drawn."""
    s = turn(make("rivalry", 4), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, "corral", "Billy")   # out of Jake's sight: no window after "end"
    s.chars["Billy"].update(joker="initiative", ambush=True)
    act(s, "end")
    while s.prompt is not None and s.prompt["kind"] == "initiative" \
            and s.prompt["char"] != "Billy":
        act(s, "pass")
    assert s.prompt is not None and s.prompt["char"] == "Billy"
    act(s, "initiative")
    assert s.active == "Billy" and not s.chars["Billy"]["ambush"]
    assert "ambush" in ids(s)   # he may lay a new one, for two points (4.2)


def test_a_drawn_ambusher_taking_his_turn_leaves_the_ambush() -> None:
    """4.1: the same when his chip is drawn and he chooses to act (unchanged behaviour)."""
    s = turn(make(), "Jake")
    s.chars["Billy"]["ambush"] = True
    s.prompt = {"kind": "chip_ambush", "char": "Billy", "seat": s.chars["Billy"]["seat"]}
    s.active = None
    act(s, "act")
    assert s.active == "Billy" and not s.chars["Billy"]["ambush"]
    assert GAME.to_act(s) == (s.chars["Billy"]["seat"],)


# ----- readings of unclear passages (RULES.md, "Decisions") ----------------------------------

def test_a_jam_on_one_barrel_jams_the_gun_but_the_other_card_still_counts() -> None:
    """7.4 with 7.2 (decision): the two cards are applied together; a jam card jams the
    shotgun and spends no shell, the other card is a shot fired like any other."""
    s = turn(make(), "Bob")
    clear_zone_of_others(s, {"Bob", "Billy"})
    put(s, "st_n1", "Bob")
    put(s, "st_n2", "Billy")
    _on_top(s, "easy", "shotgun", "jam", "wound1")
    g = gun(s, "Bob")
    act(s, f"double:{g}:Billy")
    assert s.objects[g]["jammed"] and s.objects[g]["ammo"] == 1
    assert s.chars["Billy"]["wounds"] == 1 and s.noise


def test_a_blast_neighbour_draws_one_step_harder_than_his_own_position_gives() -> None:
    """7.3 (decision): a character in a neighbouring zone draws with his own disadvantages
    (his zone's distance from the thrower) made one step harder, not one step harder than the
    target zone's card: Luke, next to Dave, draws average like Billy two zones away."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave", "Billy", "Luke"})
    put(s, "st_n2", "Dave")
    put(s, "st_s3", "Billy")
    put(s, "st_n3", "Luke")
    assert "st_n3" in geometry().blast_zones("st_s3")
    stack(s, "average", "miss", "dynamite")
    ev = act(s, f"dyn:{_stick(s, 'Dave')}:st_s3")
    piles = {e.data["target"]: e.data["pile"] for e in ev if e.kind == "marksmen_card"}
    assert piles == {"Billy": "average", "Luke": "average"}


def test_dynamite_is_not_thrown_into_the_throwers_own_zone() -> None:
    """5.5 (decision): a throw sends the stick to another zone within range, never at one's
    own feet."""
    s = turn(make(), "Dave")
    clear_zone_of_others(s, {"Dave"})
    put(s, "st_n3", "Dave")
    throws = {a.split(":")[2] for a in ids(s) if a.startswith("dyn:")}
    assert "st_n3" not in throws and {"st_n2", "st_n4"} <= throws


def test_leaving_the_board_is_an_action_of_one_point() -> None:
    """9.4 and 9.8 (decision): stepping off the board from an edge zone is a move: one point
    (his turn ends there, as he is no longer on the board)."""
    s = turn(make("bank_hoist", 2), "Jake", ap=1)
    clear_zone_of_others(s, {"Jake"})
    put(s, "st_n1", "Jake")
    assert "leave" in ids(s) and A.cost(s, "Jake", "leave") == 1
    act(s, "leave")
    assert s.chars["Jake"]["left"] and s.active != "Jake"
    turn(s, "Dave", ap=0)
    put(s, "st_n1", "Dave")
    assert "leave" not in ids(s)   # no point left, no stepping off


def test_jakes_rifle_lies_where_fred_stands_for_him_to_take() -> None:
    """9.6 (decision): Jake's rifle lies on the saloon floor by Fred, who may pick it up (one
    point) once awake; it is an object on the ground like any other."""
    s = make("hostages", 3)
    rifle = next(o for o, obj in s.objects.items()
                 if obj["kind"] == "rifle" and obj["holder"] is None)
    assert s.objects[rifle]["zone"] == s.chars["Fred"]["zone"] == "saloon_floor"
    turn(s, "Fred")
    act(s, f"pick:{rifle}")
    assert rifle in s.chars["Fred"]["guns"] and len(s.chars["Fred"]["guns"]) == 2


# ----- 7.6 and the flight cards: away from the enemy ------------------------------------------

def _sighted(jake: str, billy: str) -> JoeState:
    """Jake in `jake`, Billy and everyone else in `billy`."""
    s = turn(make(), "Billy")
    clear_zone_of_others(s, {"Jake", "Billy"}, zone=billy)
    put(s, jake, "Jake")
    put(s, billy, "Billy")
    return s


def _flee(start: str, foe: str, steps: int) -> str:
    """Where Jake ends after a flight of `steps` zones from `start`, the enemy all in `foe`."""
    s = _sighted(start, foe)
    R.flee(s, "Jake", steps, [])
    return str(s.chars["Jake"]["zone"])


def test_flight_never_runs_towards_the_enemy() -> None:
    """Flight cards and 7.6: the character moves away from the enemy. Jake behind the saloon
    counter is seen by Billy through the door; no hiding place is in reach, and the only step
    (onto the saloon floor, next to Billy) is towards him, so Jake stays where he is."""
    assert A.sees(_sighted("saloon_bar", "st_n1"), "Billy", "Jake").visible
    assert _flee("saloon_bar", "st_n1", 3) == "saloon_bar"


def test_flight_does_not_hide_next_to_the_enemy() -> None:
    """Flight cards and 7.6: a hiding place nearer the enemy (st_n5, behind the tree next to
    Billy) is not away from him; Jake runs down the street to st_s4 instead, farther off."""
    geo = geometry()
    assert geo.distance["st_n6"]["st_n5"] < geo.distance["st_n6"]["st_s5"]
    assert _flee("st_s5", "st_n6", 1) == "st_s4"


# ----- 5.8 with 9.6: a tied captive is a character like any other -----------------------------

def test_a_tied_captive_may_be_attacked_with_a_knife() -> None:
    """5.8: a knife lets its holder attack another character in his zone; 9.6 makes Jake a
    captive, not untouchable (he may be shot, 5.2). Fred, knife in hand, may stab him, and
    still cut his ropes instead."""
    s = turn(make("hostages", 3), "Fred")
    assert s.chars["Jake"]["tied"] and s.chars["Jake"]["zone"] == s.chars["Fred"]["zone"]
    assert {"stab:Jake", "free:Jake"} <= set(ids(s))
    assert any(a.startswith("shoot:") and a.endswith(":Jake") for a in ids(s))
    stack(s, "easy", "wound1", "knife")
    act(s, "stab:Jake")
    assert s.chars["Jake"]["wounds"] == 1 and s.chars["Jake"]["tied"]
