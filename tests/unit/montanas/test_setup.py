"""Set-up: rulebook "Game Preparation"."""

from collections import Counter

import pytest

from partida.engine import BadSetup, LocalRng, StreamRng
from partida.games.montanas.state import BARRICADE, DEPLOY, DISCARD

from .positions import CONTENT


def new(game, seats, scenario="standard", **options):
    return game.new_state(scenario, seats, options, StreamRng(b"seed", f"m{seats}"))


@pytest.mark.parametrize("seats,size", [(1, 5), (2, 4), (5, 4)])
def test_deal_four_cards_each_five_alone(game, seats, size):
    """Game Preparation: 4 cards each, 5 for a single player."""
    s = new(game, seats)
    assert [len(h) for h in s.hands] == [size] * seats
    assert len(s.deck) == 45 - size * seats
    assert len({c for h in s.hands for c in h} | set(s.deck)) == 45


def test_six_starting_monsters_enter_by_the_red_die(game):
    """Game Preparation: 2 Fast, 2 Troop, 1 Strong, 1 Very Strong enter first, each at the
    access position the red die shows."""
    rng = StreamRng(b"seed", "starters")
    s = game.new_state("standard", 2, {}, rng)
    assert Counter(m.kind for m in s.monsters) == {"fast": 2, "trooper": 2, "strong": 1,
                                                    "very_strong": 1}
    assert all(m.square == 0 for m in s.monsters)
    red = [d.result + 1 for d in rng.draws if d.kind == "d6"][:6]
    assert [m.alley for m in s.monsters] == red


def test_rest_of_the_tiles_are_face_down(game):
    """Game Preparation: the other 37 monsters and the 14 specials form the face-down pool."""
    s = new(game, 3)
    kinds = Counter(s.pool)
    assert sum(kinds[m.kind] for m in CONTENT.tiles.monsters) == 43 - 6
    assert sum(kinds[sp.kind] for sp in CONTENT.tiles.specials) == 14
    view = game.view(s, 0)
    assert "pool" not in view and view["pool_count"] == 51 and "deck" not in view


@pytest.mark.parametrize("seats,pawns", [(1, [15]), (2, [9, 6]), (3, [6, 6, 3]),
                                         (5, [3, 3, 3, 3, 3])])
def test_fifteen_explorers_in_five_teams_dealt_round_the_table(game, seats, pawns):
    """Game Preparation, Teams: five teams of three; with fewer players, teams go round the
    table (partida's choice, RULES.md)."""
    s = new(game, seats)
    assert [len(t) * 3 for t in s.teams] == pawns
    assert s.pending["left"] == pawns


def test_players_place_their_explorers_then_the_barricades(game):
    """Game Preparation: each player places their pawns anywhere on the ship, then the four
    barricades are placed in turns, never two in one section."""
    s = new(game, 2, first_seat=1)
    assert s.phase == DEPLOY and game.to_act(s) == (1,)
    rng = LocalRng(0)
    for i in range(15):
        seat = game.to_act(s)[0]
        assert seat == (1 if i < 6 else 0)  # seat 1 (two teams) first, then seat 0
        game.apply(s, seat, "deploy:3", rng)
    assert s.explorers[2] == [9, 6]
    assert s.phase == BARRICADE
    placed = []
    for _ in range(4):
        seat = game.to_act(s)[0]
        placed.append(seat)
        options = [a.id for a in game.legal_actions(s, seat)]
        assert all(a.startswith("barricade:front") for a in options)  # nothing destroyed yet
        game.apply(s, seat, options[0], rng)
    assert placed == [1, 0, 1, 0]
    assert s.barricades.count("front") == 4
    assert s.phase == DISCARD and s.active == 1


def test_no_barricades_variant_skips_them(game):
    """Game Preparation, NOTE: the harder game starts without barricades."""
    s = new(game, 1, scenario="no_barricades")
    for _ in range(15):
        game.apply(s, 0, "deploy:1", LocalRng(0))
    assert s.phase == DISCARD and s.barricades == [None] * 6


def test_a_barricade_section_is_not_offered_twice(game):
    """Game Preparation: no two barricades in the same section."""
    s = new(game, 1)
    for _ in range(15):
        game.apply(s, 0, "deploy:2", LocalRng(0))
    game.apply(s, 0, "barricade:front4", LocalRng(0))
    assert "barricade:front4" not in [a.id for a in game.legal_actions(s, 0)]


def test_bad_setups_are_refused(game):
    """Game Preparation: 1 to 5 players, the two scenarios, known options only."""
    with pytest.raises(BadSetup):
        new(game, 6)
    with pytest.raises(BadSetup):
        new(game, 0)
    with pytest.raises(BadSetup):
        new(game, 2, scenario="nope")
    with pytest.raises(BadSetup):
        new(game, 2, first_seat=2)
    with pytest.raises(BadSetup):
        new(game, 2, colour="red")


def test_content_matches_the_monster_and_card_lists():
    """Monster Tokens, Cards: 43 monsters of 7 kinds with their dice and life; 45 cards."""
    by_kind = {m.kind: (m.count, m.die, m.life) for m in CONTENT.tiles.monsters}
    assert by_kind == {"fast": (10, "red", 1), "trooper": (15, "blue", 2),
                       "strong": (6, "white", 3), "very_strong": (5, "white", 4),
                       "fast_strong": (3, "red", 2), "strong_trooper": (2, "blue", 3),
                       "super": (2, "red", 4)}
    cards = Counter(c.kind for c in CONTENT.cards)
    assert cards == {"range": 27, "combined": 6, "sniper": 2, "barricade": 2, "arsenal": 2,
                     "head_to_head": 2, "bombs": 2, "redeploy": 2}
    assert [a.terrain for a in CONTENT.board.alleys] == ["water"] * 2 + ["snow"] * 2 + ["ice"] * 2


@pytest.mark.parametrize("seats", [True, 2.5, "3", None])
def test_a_seat_count_must_be_an_integer(game, seats):
    """Game Preparation: the player count is a whole number from 1 to 5."""
    with pytest.raises(BadSetup):
        game.new_state("standard", seats, {}, LocalRng(0))
