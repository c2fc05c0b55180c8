"""Winning, losing and hidden information: rulebook "Object of the Game", "Playing Order"
(eliminated players), "Cards" (open hands)."""

import pytest

from partida.engine import IllegalAction, LocalRng
from partida.games.montanas.state import OVER

from .positions import CONTENT, SHIP, card_of, dice, position


def test_win_when_the_last_monster_dies(game):
    """Object of the Game: the defenders win once all 43 monsters are dead."""
    c = card_of("sniper")
    s = position(hands=[[c]], monsters=[("super", 2, 1)], pool=["calm_1"])
    s.killed = CONTENT.monster_total - 1
    game.apply(s, 0, f"play:{c}:m0", LocalRng(0))
    out = game.outcome(s)
    assert out is not None and out.winners == (0,) and s.phase == OVER
    assert game.to_act(s) == () and game.legal_actions(s, 0) == []


def test_no_win_while_monsters_remain_face_down(game):
    """Object of the Game: every monster must die, face-down ones included."""
    c = card_of("sniper")
    s = position(hands=[[c]], monsters=[("super", 2, 1)], pool=["fast"])
    s.killed = CONTENT.monster_total - 2
    game.apply(s, 0, f"play:{c}:m0", LocalRng(0))
    assert game.outcome(s) is None


def test_lose_when_the_whole_ship_is_destroyed(game):
    """Object of the Game: the players lose when the Gigamesh is wholly destroyed. Pawns
    never stand in destroyed sections, so the last section falls with the last pawns."""
    s = position(monsters=[("super", 6, SHIP - 1)], destroyed=[1, 2, 3, 4, 5],
                 explorers={1: [0], 6: [1]})
    game.apply(s, 0, "end", dice(1, 1, 1))
    out = game.outcome(s)
    assert out is not None and out.winners == () and "destroyed" in out.reason


def test_lose_when_every_explorer_is_dead(game):
    """Object of the Game: the players lose when all the explorers are dead."""
    s = position(seats=2, monsters=[("super", 3, SHIP - 1)], explorers={3: [1, 1]},
                 hands=[[], []])
    game.apply(s, 0, "end", dice(1, 1, 1))
    out = game.outcome(s)
    assert out is not None and out.winners == () and "explorer" in out.reason


def test_loss_stands_when_the_last_monster_dies_destroying_the_ship(game):
    """partida's decision (RULES.md): the ship lost with its last attacker is a defeat."""
    s = position(monsters=[("trooper", 6, SHIP - 1)], destroyed=[1, 2, 3, 4, 5],
                 explorers={1: [0], 6: [1]}, pool=[])
    s.killed = CONTENT.monster_total - 1
    game.apply(s, 0, "end", dice(1, 1, 1))
    assert s.killed == CONTENT.monster_total and game.outcome(s).winners == ()


def test_an_eliminated_players_cards_go_to_the_discard_pile(game):
    """Playing Order 4 note: a player with no pawns left puts their cards in the discard."""
    hand1 = [card_of("sniper"), card_of("bombs")]
    s = position(seats=2, monsters=[("trooper", 2, SHIP - 1)],
                 explorers={2: [0, 1], 5: [1, 0]}, hands=[[], list(hand1)], pool=[])
    game.apply(s, 0, "end", dice(1, 1, 1))
    assert s.pawns_of(1) == 0 and s.discard[:2] == hand1
    assert s.active == 0  # the next turn skips seat 1


def test_views_show_open_hands_and_hide_deck_and_tile_order(game):
    """Game Preparation: hands are face up; the deck and face-down tiles keep their order
    hidden from everyone."""
    s = game.new_state("standard", 3, {}, LocalRng(3))
    view = game.view(s, 1)
    assert [[c["id"] for c in h] for h in view["hands"]] == [sorted(h) for h in s.hands]
    assert view["deck_count"] == len(s.deck) and view["pool_count"] == len(s.pool)
    text = repr(view)
    assert "'deck'" not in text and "'pool'" not in text
    assert game.view(s, None) == view  # nothing private to any seat


def test_determinize_reorders_what_is_hidden_only(game):
    """Game Preparation: deck and tile order are hidden; ARCHITECTURE, determinize."""
    s = game.new_state("standard", 2, {}, LocalRng(4))
    d = game.determinize(s, 0, LocalRng(9))
    assert d.deck != s.deck and sorted(d.deck) == sorted(s.deck)
    assert d.pool != s.pool and sorted(d.pool) == sorted(s.pool)
    assert d.hands == s.hands and d.monsters == s.monsters


def test_every_default_is_the_passive_choice(game):
    """ARCHITECTURE: each decision has a default; here it keeps, passes or refuses."""
    s = position(seats=2, explorers={1: [1, 1]}, hands=[[0], [1]])
    assert game.default_action(s, 0) == "end"


def test_match_over_is_announced_once(game):
    """Object of the Game: the end is announced once (ARCHITECTURE, events)."""
    s = position(seats=2, monsters=[("super", 3, SHIP - 1)], explorers={3: [1, 1]},
                 hands=[[], []])
    events = game.apply(s, 0, "end", dice(1, 1, 1))
    assert [e.kind for e in events].count("match_over") == 1


def test_a_view_is_a_snapshot_not_a_window_on_the_state(game):
    """ARCHITECTURE, views: a view is data, detached from the state."""
    s = game.new_state("standard", 2, {}, LocalRng(5))
    before = s.to_dict()
    view = game.view(s, 0)
    view["ship"][0]["explorers"][0] = 99
    view["teams"][0].append("intruders")
    view["pending"]["left"][0] = -1
    assert s.to_dict() == before


def test_resigning_ends_the_shared_defence_as_a_defeat(game):
    """RULES.md, Resignation: the book has none; a resigning defender loses for everyone."""
    s = position(seats=3, explorers={1: [1, 1, 1]}, hands=[[], [], []])
    events = game.resign(s, 2)
    assert [e.kind for e in events] == ["match_over"]
    assert game.outcome(s).winners == () and "seat 2" in game.outcome(s).reason
    with pytest.raises(IllegalAction):
        game.resign(s, 1)


@pytest.mark.parametrize("seat", [True, None, "0", 7])
def test_only_a_real_seat_can_resign(game, seat):
    """RULES.md, Resignation: only a seat of the match can resign."""
    s = position(seats=2, explorers={1: [1, 1]}, hands=[[], []])
    with pytest.raises(IllegalAction):
        game.resign(s, seat)
    assert game.outcome(s) is None
