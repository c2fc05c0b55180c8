"""The turn sequence: rulebook "Playing Order"."""

import pytest

from partida.engine import IllegalAction, LocalRng
from partida.games.montanas.state import DISCARD, EXCHANGE, PLAY, REPLY

from .positions import card_of, dice, position


def ids(game, s, seat=None):
    return [a.id for a in game.legal_actions(s, s.active if seat is None else seat)]


def test_turn_starts_by_refilling_the_hand(game):
    """Playing Order 1: draw up to the hand limit (4 with several players)."""
    s = position(seats=2, explorers={1: [1, 1]}, hands=[[0], [1]], phase=DISCARD)
    game._start_turn(s, 1, LocalRng(0), [])
    assert len(s.hands[1]) == 4 and s.phase == DISCARD


def test_empty_deck_reshuffles_the_discard_pile(game):
    """Playing Order 1: when the deck runs out, the discard pile becomes the new deck."""
    s = position(seats=1, hands=[[]], phase=DISCARD)
    s.discard, s.deck = s.deck[2:], s.deck[:2]
    game._start_turn(s, 0, LocalRng(0), [])
    assert len(s.hands[0]) == 5 and s.discard == [] and len(s.deck) == 45 - 5


def test_discard_one_or_two_and_redraw(game):
    """Playing Order 2: discard 1 or 2 cards, then draw as many."""
    hand = [0, 1, 2, 3, 4]
    s = position(seats=1, hands=[list(hand)], phase=DISCARD)
    options = ids(game, s)
    assert "discard:0,1" in options and "discard:3" in options and "discard:keep" in options
    assert not any(o.count(",") > 1 for o in options)  # never three
    top = s.deck[:2]
    game.apply(s, 0, "discard:0,1", LocalRng(0))
    assert sorted(s.hands[0]) == sorted([2, 3, 4, *top]) and s.discard == [0, 1]
    assert s.phase == PLAY  # alone: no exchange step


def test_exchange_needs_the_partners_consent(game):
    """Playing Order 3: ask another player for help; they answer (default: refuse)."""
    a, b = card_of("sniper"), card_of("bombs")
    s = position(seats=2, explorers={1: [1, 1]}, hands=[[a], [b]], phase=EXCHANGE)
    s.pending = {"moved": 0}
    game.apply(s, 0, f"swap:{a}:1:{b}", LocalRng(0))
    assert s.phase == REPLY and game.to_act(s) == (1,)
    assert game.default_action(s, 1) == "reply:refuse"
    with pytest.raises(IllegalAction):
        game.apply(s, 0, "reply:accept", LocalRng(0))  # only the partner answers
    game.apply(s, 1, "reply:accept", LocalRng(0))
    assert s.hands == [[b], [a]]
    assert s.phase == PLAY  # two cards moved: the allowance is used up


def test_exchange_never_exceeds_the_hand_limit(game):
    """Playing Order 3: no hand may go over the maximum."""
    full = [card_of("range", "short", "water", i) for i in range(3)] + [card_of("sniper")]
    mine = card_of("bombs")
    s = position(seats=2, explorers={1: [1, 1]}, hands=[[mine], full], phase=EXCHANGE)
    s.pending = {"moved": 0}
    options = ids(game, s)
    assert f"give:{mine}:1" not in options  # seat 1 already holds 4
    assert f"ask:{full[0]}:1" in options and f"swap:{mine}:1:{full[0]}" in options


def test_exchange_is_limited_to_two_cards(game):
    """Playing Order 3: one or two cards per turn."""
    hand0 = [card_of("bombs"), card_of("sniper")]
    hand1 = [card_of("barricade")]
    s = position(seats=2, explorers={1: [1, 1]}, hands=[hand0, hand1], phase=EXCHANGE)
    s.pending = {"moved": 0}
    game.apply(s, 0, f"give:{hand0[0]}:1", LocalRng(0))
    game.apply(s, 1, "reply:refuse", LocalRng(0))  # a refused request still counts
    assert s.phase == EXCHANGE
    options = ids(game, s)
    assert not any(o.startswith("swap") for o in options) and f"give:{hand0[1]}:1" in options
    game.apply(s, 0, f"give:{hand0[1]}:1", LocalRng(0))
    game.apply(s, 1, "reply:accept", LocalRng(0))
    assert s.phase == PLAY and s.hands[1] == [*hand1, hand0[1]]


def test_no_exchange_alone_and_five_cards_when_one_player_is_left(game):
    """Playing Order note: with one player holding pawns, the one-player rules apply."""
    s = position(seats=3, explorers={1: [0, 2, 0]}, hands=[[], [], []], phase=DISCARD,
                 active=1)
    game._start_turn(s, 1, LocalRng(0), [])
    assert len(s.hands[1]) == 5
    game.apply(s, 1, "discard:keep", LocalRng(0))
    assert s.phase == PLAY


def test_end_of_play_moves_monsters_then_brings_three_tiles(game):
    """Playing Order 5-6: the monsters move, then three new tiles come in."""
    s = position(seats=2, explorers={1: [1, 1]}, monsters=[("fast", 2, 0)],
                 hands=[[], []], pool=["trooper", "strong", "fast", "super"])
    # dice: red 3, blue 1, white 1; then red die for each of three new monsters: 6, 5, 4
    game.apply(s, 0, "end", dice(3, 1, 1, 6, 5, 4))
    assert s.monsters[0].square == 3
    assert [(m.kind, m.alley, m.square) for m in s.monsters[1:]] == [
        ("trooper", 6, 0), ("strong", 5, 0), ("fast", 4, 0)]
    assert s.pool == ["super"]
    assert s.active == 1 and s.turn == 2 and s.phase == DISCARD and len(s.hands[1]) == 4


def test_eliminated_players_are_skipped(game):
    """Object of the Game / Playing Order note: a player with no pawns takes no turns."""
    s = position(seats=3, explorers={1: [1, 0, 1]}, hands=[[], [], []], pool=[])
    game.apply(s, 0, "end", dice(1, 1, 1))
    assert s.active == 2


def test_play_any_number_of_cards_on_one_monster(game):
    """Damage Points note: several cards may hit one monster in one turn."""
    c1, c2 = card_of("range", "long", "snow", 0), card_of("combined", None, "snow", 0)
    s = position(monsters=[("strong", 3, 1), ("fast", 6, 0)], hands=[[c1, c2]])
    game.apply(s, 0, f"play:{c1}:m0", LocalRng(0))
    game.apply(s, 0, f"play:{c2}:m0", LocalRng(0))
    assert s.monsters[0].life == 1 and s.discard == [c1, c2]
