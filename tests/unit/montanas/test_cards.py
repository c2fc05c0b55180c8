"""The action cards: rulebook "Cards" (and "Board" for areas and ranges)."""

import pytest

from partida.engine import IllegalAction, LocalRng
from partida.games.montanas.state import PLAY, REDEPLOY

from .positions import SHIP, card_of, monster, position

# Squares of each band with the reconstructed board (4 squares per band).
LONG, MEDIUM, SHORT = 1, 5, 9


def plays(game, s):
    return [a.id for a in game.legal_actions(s, s.active)]


def test_range_card_reaches_only_its_band_and_terrain(game):
    """Cards, Board: a short-range/water card shoots only into the red band of alleys 1-2."""
    c = card_of("range", "short", "water")
    s = position(hands=[[c]], monsters=[("fast", 1, SHORT), ("fast", 2, SHORT),
                                        ("fast", 3, SHORT), ("fast", 1, MEDIUM),
                                        ("fast", 1, SHIP)])
    assert {p for p in plays(game, s) if p != "end"} == {f"play:{c}:m0", f"play:{c}:m1"}
    with pytest.raises(IllegalAction):
        game.apply(s, 0, f"play:{c}:m2", LocalRng(0))
    game.apply(s, 0, f"play:{c}:m1", LocalRng(0))
    assert monster(s, 1) is None and s.killed == 1


def test_combined_attack_chooses_any_strip_of_its_terrain(game):
    """Cards: the combined attack hits the yellow, orange or red strip, in its terrain only."""
    c = card_of("combined", None, "ice")
    s = position(hands=[[c]], monsters=[("trooper", 5, LONG), ("trooper", 6, MEDIUM),
                                        ("trooper", 5, SHORT), ("trooper", 4, SHORT),
                                        ("trooper", 6, SHIP)])
    assert {p for p in plays(game, s) if p != "end"} == {f"play:{c}:m{i}" for i in range(3)}
    game.apply(s, 0, f"play:{c}:m2", LocalRng(0))
    assert monster(s, 2).life == 1


def test_sniper_kills_outright_in_yellow_and_orange_only(game):
    """Cards: the sniper kills whatever its life, in the two farthest bands, any terrain."""
    c = card_of("sniper")
    s = position(hands=[[c]], monsters=[("super", 1, LONG), ("super", 4, MEDIUM),
                                        ("super", 6, SHORT)])
    assert {p for p in plays(game, s) if p != "end"} == {f"play:{c}:m0", f"play:{c}:m1"}
    game.apply(s, 0, f"play:{c}:m1", LocalRng(0))
    assert monster(s, 1) is None and s.killed == 1


def test_head_to_head_works_in_the_ship_and_the_red_band(game):
    """Cards: head-to-head is the only card that reaches inside the ship; also usable in red."""
    c = card_of("head_to_head")
    s = position(hands=[[c]], monsters=[("strong", 2, SHIP), ("strong", 5, SHORT),
                                        ("strong", 3, MEDIUM)])
    assert {p for p in plays(game, s) if p != "end"} == {f"play:{c}:m0", f"play:{c}:m1"}


def test_no_other_card_reaches_inside_the_ship(game):
    """Cards: only head-to-head defends the brown area."""
    hand = [card_of("range", "short", "snow"), card_of("combined", None, "snow"),
            card_of("sniper"), card_of("bombs")]
    s = position(hands=[hand], monsters=[("strong", 3, SHIP)])
    assert plays(game, s) == ["end"]


def test_bombs_hit_every_monster_in_one_band(game):
    """Cards: bombs take one life from every monster in the medium or long band (the whole
    band across the six alleys: partida's reading, RULES.md)."""
    c = card_of("bombs")
    s = position(hands=[[c]], monsters=[("fast", 1, MEDIUM), ("trooper", 6, MEDIUM + 1),
                                        ("trooper", 3, LONG), ("trooper", 3, SHORT)])
    assert {p for p in plays(game, s) if p != "end"} == {f"play:{c}:medium", f"play:{c}:long"}
    game.apply(s, 0, f"play:{c}:medium", LocalRng(0))
    assert monster(s, 0) is None and monster(s, 1).life == 1
    assert monster(s, 2).life == 2 and monster(s, 3).life == 2


def test_bombs_need_a_monster_in_the_band(game):
    """Cards, bombs; RULES.md: a card is played only on a legal target."""
    c = card_of("bombs")
    s = position(hands=[[c]], monsters=[("fast", 1, SHORT)])
    assert plays(game, s) == ["end"]


def test_barricade_card_front_or_side_on_a_destroyed_section(game):
    """Cards, Game Preparation: a side barricade only where the section is destroyed; a
    front one anywhere (destroyed sections included); never two in one section."""
    c = card_of("barricade")
    s = position(hands=[[c]], destroyed=[2], barricades={4: "front"},
                 explorers={1: [1]})
    options = {p for p in plays(game, s) if p != "end"}
    assert f"play:{c}:side2" in options and f"play:{c}:front2" in options
    assert f"play:{c}:side1" not in options and not any(o.endswith("4") for o in options)
    game.apply(s, 0, f"play:{c}:side2", LocalRng(0))
    assert s.barricades[1] == "side"


def test_search_the_arsenal_plays_a_card_from_the_discard_pile(game):
    """Cards: exchange the arsenal card for any card in the discard pile, used at once."""
    a = card_of("arsenal")
    sniper = card_of("sniper")
    s = position(hands=[[a]], monsters=[("super", 2, LONG)])
    s.discard = [sniper, card_of("range", "short", "ice")]
    options = plays(game, s)
    assert f"arsenal:{a}:{sniper}:m0" in options
    assert not any(p.startswith(f"play:{a}") for p in options)  # never played on its own
    game.apply(s, 0, f"arsenal:{a}:{sniper}:m0", LocalRng(0))
    assert monster(s, 0) is None and s.hands[0] == []
    assert sorted(s.discard) == sorted([a, sniper, card_of("range", "short", "ice")])


def test_arsenal_with_nothing_useful_in_the_discard_cannot_be_played(game):
    """Cards, search the arsenal: the fetched card must be usable at once."""
    a = card_of("arsenal")
    s = position(hands=[[a]], monsters=[("super", 2, LONG)])
    s.discard = [card_of("range", "short", "ice")]
    assert plays(game, s) == ["end"]


def test_move_explorers_crosses_destroyed_sections_but_never_stops_there(game):
    """Cards, last card: move any pawns, anyone's, between sections; never into a destroyed
    one, though they may pass through it."""
    c = card_of("redeploy")
    s = position(seats=2, explorers={1: [2, 1]}, destroyed=[2, 3], hands=[[c], []])
    game.apply(s, 0, f"play:{c}", LocalRng(0))
    assert s.phase == REDEPLOY
    moves = plays(game, s)
    assert "move:1:1:4" in moves and not any(m.endswith(":2") or m.endswith(":3") for m in moves)
    game.apply(s, 0, "move:1:1:4", LocalRng(0))  # the other player's pawn, across 2 and 3
    game.apply(s, 0, "move:0:1:6", LocalRng(0))
    assert s.explorers[0] == [1, 0] and s.explorers[3] == [0, 1] and s.explorers[5] == [1, 0]
    game.apply(s, 0, "move:done", LocalRng(0))
    assert s.phase == PLAY


def test_identical_cards_offer_one_play(game):
    """Cards; RULES.md: identical cards in one hand are offered once."""
    """Two copies of one card give the same plays: only one is listed."""
    c0, c1 = card_of("range", "long", "water", 0), card_of("range", "long", "water", 1)
    s = position(hands=[[c0, c1]], monsters=[("fast", 1, LONG)])
    assert plays(game, s) == ["end", f"play:{c0}:m0"]
