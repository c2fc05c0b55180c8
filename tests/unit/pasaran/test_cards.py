"""The card procedure (7.2) and the cards' effects (appendix), on positions built directly."""

from __future__ import annotations

import json

from partida.engine import Event, LocalRng
from partida.games.pasaran import board as B
from partida.games.pasaran import combat as CB
from tests.unit.pasaran.positions import GAME, C, act, at, dests, empty, ids, put, side


def _buying(deck: list[str], rep: int = 5, nat: int = 5):  # type: ignore[no-untyped-def]
    s = empty()
    s.phase, s.step, s.initiative, s.bought, s.offer = "cards", "", "rep", [], None
    s.deck, s.bp = list(deck), {"rep": rep, "nat": nat}
    events: list[Event] = []
    GAME._advance(s, LocalRng(0), events)
    return s, events


def test_the_initiative_side_draws_two_and_enemy_cards_go_under_the_deck() -> None:
    """7.2: the initiative side draws first; a card for the other side goes straight to the
    bottom; the side keeps one and pays, or returns both."""
    s, _ = _buying(["blockade", "supply_of_arms", "mobilisation", "recruits"])
    assert side(s) == "rep" and s.offer == {"side": "rep", "cards": ["supply_of_arms"]}
    assert s.deck == ["mobilisation", "recruits", "blockade"]
    act(s, "keep:supply_of_arms")
    assert s.bp["rep"] == 3 and s.hands["rep"] == [{"card": "supply_of_arms", "turn": 1}]
    assert side(s) == "nat" and s.offer["cards"] == ["mobilisation", "recruits"]
    act(s, "decline")
    assert s.deck == ["blockade", "mobilisation", "recruits"] and s.phase == "production"


def test_obsolete_cards_are_discarded_and_replaced() -> None:
    """7.2: an obsolete card drawn is discarded and another taken (Offensive needs the combat
    chits of 9.4, not played here; GET HQ is obsolete after 1937)."""
    s, _ = _buying(["offensive", "supply_of_arms", "mobilisation"])
    assert s.discard == ["offensive"] and s.offer["cards"] == ["supply_of_arms", "mobilisation"]
    s, _ = _buying(["get_hq", "mobilisation"])
    assert s.offer["cards"] == ["get_hq", "mobilisation"]
    s.offer = None
    s.turn, s.bought = 7, []
    s.deck = ["get_hq", "mobilisation"]
    GAME._advance(s, LocalRng(0), [])
    assert "get_hq" in s.discard


def test_a_side_that_cannot_pay_takes_no_card() -> None:
    """7.2: without the full price at once, no card is bought (no decision is offered)."""
    s, _ = _buying(["international_brigade", "war_industry", "italian_corps"], rep=1, nat=1)
    assert s.phase == "production"
    assert s.deck == ["war_industry", "international_brigade", "italian_corps"]


def test_drawn_and_kept_cards_are_seen_only_by_their_side() -> None:
    """7.2: the holder keeps its cards secret: events and views show the other side counts."""
    s, events = _buying(["supply_of_arms", "mobilisation"])
    drawn = next(e for e in events if e.kind == "cards_drawn")
    assert drawn.for_seat(1).data == {"side": "rep", "count": 2}
    assert GAME.view(s, 1)["offer"] == {"side": "rep", "cards": 2}
    assert GAME.view(s, 0)["offer"]["cards"] == ["supply_of_arms", "mobilisation"]
    s.hands["nat"] = [{"card": "recruits", "turn": 1}]
    assert GAME.view(s, 0)["hands"]["nat"] == 1 and "recruits" not in json.dumps(GAME.view(s, 0))
    det = GAME.determinize(s, 0, LocalRng(3))
    assert det.hands["rep"] == s.hands["rep"] and det.offer == s.offer
    assert GAME.view(det, 0) == GAME.view(s, 0)


def _holding(side_: str, card: str, turn: int = 3, step: str = "rail"):  # type: ignore[no-untyped-def]
    s = empty(side_, step=step)
    s.turn = turn
    s.hands[side_] = [{"card": card, "turn": turn - 1}]
    return s


def test_a_card_is_played_from_the_turn_after_it_was_bought() -> None:
    """7.2: the earliest turn to play a card is the one after it was acquired."""
    s = _holding("rep", "supply_of_arms")
    s.hands["rep"][0]["turn"] = 3
    assert "play:supply_of_arms" not in ids(s)
    s.hands["rep"][0]["turn"] = 2
    act(s, "play:supply_of_arms")
    assert s.permanent == ["supply_of_arms"] and s.hands["rep"] == []


def test_international_brigade_releases_its_unit_and_adds_production() -> None:
    """Appendix, International Brigade: INT infantry 3 into the pool, production +1; 2.2:
    starred units come only by their card."""
    s = _holding("rep", "international_brigade")
    assert s.units["r_int1"]["status"] == "locked"
    act(s, "play:international_brigade")
    assert s.units["r_int1"]["status"] == "pool"
    assert B.income(C, s, "rep") == 16


def test_french_border_closed_needs_1937_and_supply_of_arms_and_is_reopened() -> None:
    """Appendix: French Border Closed only from 1937 and after Supply of Arms, cancelling its
    2 BP; French Border Opened from Q3 1938, after it, with an area on the French border."""
    s = _holding("nat", "french_border_closed", turn=2)
    s.permanent = ["supply_of_arms"]
    assert "play:french_border_closed" not in ids(s)
    s = _holding("nat", "french_border_closed", turn=3)
    assert "play:french_border_closed" not in ids(s)
    s.permanent = ["supply_of_arms"]
    act(s, "play:french_border_closed")
    assert B.income(C, s, "rep") == 15
    r = _holding("rep", "french_border_opened", turn=9)
    r.permanent = ["supply_of_arms", "french_border_closed"]
    for a in C.area("france").adjacent:
        if a in r.control:
            r.control[a] = "nat"
    assert "play:french_border_opened" not in ids(r)
    r.control["gerona"] = "rep"
    act(r, "play:french_border_opened")
    assert "french_border_closed" in r.discard and B.income(C, r, "rep") == 17


def test_get_hq_and_hq_bring_named_headquarters_or_remove_one() -> None:
    """Appendix: GET HQ, Kleber or Durruti next turn; HQ, Moscardo next turn or Kleber or
    Durruti removed for good."""
    s = _holding("rep", "get_hq")
    act(s, "play:get_hq:hq_kleber")
    assert s.units["hq_kleber"]["status"] == "queue" and s.units["hq_kleber"]["arrive"] == 4
    n = _holding("nat", "hq")
    put(n, "madrid", "hq_durruti")
    assert {"play:hq:hq_moscardo", "play:hq:remove:hq_durruti"} <= set(ids(n))
    act(n, "play:hq:remove:hq_durruti")
    assert n.units["hq_durruti"]["status"] == "removed"


def test_ju52_airlifts_three_units_from_morocco_to_andalusia() -> None:
    """Appendix, JU 52 Airbridge: in the rail step, three land units from Spanish Morocco to
    Andalusia; the card goes back under the deck (our choice, RULES.md)."""
    s = _holding("nat", "ju52", turn=1)
    s.hands["nat"][0]["turn"] = 0
    put(s, "marruecos", "n_afr1", "n_afr2", "n_afr3", "n_afr4")
    act(s, "play:ju52")
    assert s.deck[-1] == "ju52"
    assert "sevilla" in dests(s, "n_afr1", "airlift") and "malaga" not in dests(s, "n_afr1",
                                                                                 "airlift")
    for uid in ("n_afr1", "n_afr2", "n_afr3"):
        act(s, f"airlift:{uid}:cadiz")
    assert not dests(s, "n_afr4", "airlift")


def test_fifth_column_strengthens_nationalist_infantry_against_cities_this_turn() -> None:
    """Appendix, 5th Column: +1 for attacking infantry against Madrid or a city this turn."""
    s = _holding("nat", "fifth_column")
    put(s, "asturias.c", "n_reg1")
    before = CB.land_value(C, s, "n_reg1", True, "asturias.c")
    act(s, "play:fifth_column")
    assert CB.land_value(C, s, "n_reg1", True, "asturias.c") == before + 1
    put(s, "soria", "n_reg2")
    assert CB.land_value(C, s, "n_reg2", True, "soria") == 3


def test_mobilisation_adds_stored_bp_and_returns_under_the_deck() -> None:
    """Mobilisation (reconstructed): 3 BP at once, then back under the deck (7.2 handling 2)."""
    s = _holding("rep", "mobilisation")
    s.deck = ["recruits"]
    act(s, "play:mobilisation")
    assert s.bp["rep"] == 3 and s.deck == ["recruits", "mobilisation"]


def _rep_attacks_soria(nat_hand: list[str], turn: int = 3):  # type: ignore[no-untyped-def]
    s = empty("rep")
    s.turn = turn
    s.hands["nat"] = [{"card": c, "turn": 1} for c in nat_hand]
    put(s, "guadalajara", "r_mil1", "r_mil2")
    put(s, "soria", "n_reg1")
    act(s, "move:r_mil1:soria")
    act(s, "end")
    return s


def test_rep_disorder_calls_off_a_republican_attack_before_it_is_fought() -> None:
    """Appendix, REP Disorder: the Nationalists cancel a Republican attack of their choice,
    before it is carried out, in 1936 and 1937 only: the attackers go back where they came from."""
    s = _rep_attacks_soria(["rep_disorder"])
    assert side(s) == "nat" and s.step == "react"
    act(s, "play:rep_disorder:soria")
    assert at(s, "r_mil1") == "guadalajara" and s.attacks == []
    assert "rep_disorder" in s.discard
    late = _rep_attacks_soria(["rep_disorder"], turn=7)
    assert late.step == "combat" and side(late) == "rep"      # obsolete after 1937


def test_the_nationalists_are_asked_whenever_they_might_hold_rep_disorder() -> None:
    """7.2 secrecy: the chance to play REP Disorder is offered on public facts only (a hand
    not empty, the card not yet discarded), so a hand without it is asked too, with only 'end'."""
    s = _rep_attacks_soria(["recruits"])
    assert side(s) == "nat" and ids(s) == ["end"]
    empty_hand = _rep_attacks_soria([])
    assert empty_hand.step == "combat" and side(empty_hand) == "rep"


def test_barcelona_revolt_pulls_in_the_nearest_militia_and_holds_them_and_the_bp() -> None:
    """Appendix, Barcelona Revolt: the two nearest Republican militia move into Barcelona; the
    militia there may not move and Barcelona's BP are lost until three regulars stand in the
    area, which ends the revolt at the end of that turn."""
    s = _holding("nat", "barcelona_revolt")
    put(s, "tarragona", "r_mil1")
    put(s, "lerida", "r_mil2")
    put(s, "madrid", "r_mil3")
    act(s, "play:barcelona_revolt")
    assert at(s, "r_mil1") == at(s, "r_mil2") == "barcelona" and at(s, "r_mil3") == "madrid"
    assert B.income(C, s, "rep") == 12
    r = empty("rep")
    r.permanent = ["barcelona_revolt"]
    put(r, "barcelona", "r_mil1", "r_reg1")
    assert not dests(r, "r_mil1") and dests(r, "r_reg1")
    put(r, "barcelona", "r_reg2", "r_reg3")
    GAME._end_of_turn(r, [])
    assert r.permanent == [] and "barcelona_revolt" in r.discard


def test_invasion_lands_three_infantry_by_sea_at_half_strength() -> None:
    """Appendix, Invasion: up to three infantry attack by sea, their strength halved (rounded
    down), from no more than two coastal areas away; Spanish Morocco cannot be invaded."""
    s = _holding("rep", "invasion")
    put(s, "malaga", "r_reg1", "r_mil1", "r_mil2", "r_mil3", "r_tank1")
    put(s, "cadiz", "n_reg1")
    act(s, "play:invasion")
    act(s, "end")
    assert dests(s, "r_reg1", "invade") == {"cadiz", "sevilla", "huelva"}   # not Morocco
    assert not dests(s, "r_tank1", "invade")
    act(s, "invade:r_reg1:cadiz")
    assert s.attacks == ["cadiz"]
    assert CB.land_value(C, s, "r_reg1", True, "cadiz") == 1          # 3 // 2
    act(s, "invade:r_mil1:cadiz")
    act(s, "invade:r_mil2:sevilla")
    assert not dests(s, "r_mil3", "invade")
