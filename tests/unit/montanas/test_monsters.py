"""Monsters on the board and in the ship: rulebook "Playing Order" step 5, "Damage Points",
"Boat", "Monsters and Special Tokens Come into Play", "Special Tokens"."""

from partida.engine import Event
from partida.games.montanas import monsters as M

from .positions import CONTENT, SHIP, dice, monster, position


def run_phase(s, *faces):
    events: list[Event] = []
    M.monster_phase(s, CONTENT, dice(*faces), events)
    return events


def test_monsters_move_by_the_die_of_their_colour(game):
    """Playing Order 5: red beings by the red die, blue by blue, white by white."""
    s = position(monsters=[("fast", 1, 0), ("trooper", 2, 0), ("strong", 3, 0),
                           ("very_strong", 4, 0), ("fast_strong", 5, 0),
                           ("strong_trooper", 6, 0), ("super", 1, 1)])
    run_phase(s, 3, 2, 1)
    assert [m.square for m in s.monsters] == [3, 2, 1, 1, 3, 2, 4]


def test_red_moves_before_blue_before_white(game):
    """Playing Order 5: the order matters at the ship: the first to arrive meets the barricade."""
    s = position(monsters=[("strong", 1, SHIP - 1), ("fast", 1, SHIP - 1)],
                 barricades={1: "front"}, explorers={6: [1]})
    events = run_phase(s, 1, 1, 1)
    destroyed_by = [e.data for e in events if e.kind == "monster_damaged"][0]
    assert destroyed_by == {"monster": 1, "cause": "barricade", "life": 0}
    assert monster(s, 0).life == 2  # the strong one then destroyed the section


def test_immobilized_band_does_not_move_next_phase(game):
    """Special Tokens: immobilization freezes the monsters of one band for the next move."""
    s = position(monsters=[("fast", 1, 0), ("fast", 2, 5), ("fast", 3, 9)])
    s.immobilized = ["medium"]
    run_phase(s, 2, 1, 1)
    assert [m.square for m in s.monsters] == [2, 5, 11]
    assert s.immobilized == []
    run_phase(s, 2, 1, 1)
    assert monster(s, 1).square == 7


def test_entering_a_section_barricade_explorers_then_the_section(game):
    """Damage Points 1-4: barricade (-1), each pawn (-1), the section (-1), then it moves on."""
    s = position(monsters=[("super", 3, SHIP - 1)], barricades={3: "front"},
                 explorers={3: [1], 6: [1]})
    events = run_phase(s, 3, 1, 1)  # one square to enter, two more inside the ship
    m = monster(s, 0)
    assert s.barricades[2] is None and s.explorers[2] == [0] and s.destroyed[2]
    causes = [e.data["cause"] for e in events if e.kind == "monster_damaged"]
    assert causes == ["barricade", "explorer", "section", "section"]
    # inside, it went towards the larger group (section 6): sections 4 then 5? It has 1 life
    # after three losses, so it dies destroying section 4.
    assert m is None and s.destroyed[3] and not s.destroyed[4]


def test_only_as_many_pawns_die_as_the_monster_has_life(game):
    """Damage Points: with more pawns than life points, only that many are killed."""
    s = position(monsters=[("trooper", 2, SHIP - 1)], explorers={2: [3]})
    run_phase(s, 1, 1, 1)
    assert monster(s, 0) is None and s.explorers[1] == [1] and not s.destroyed[1]


def test_several_players_pawns_lowest_roll_loses(game):
    """Damage Points: with pawns of several players, a die roll-off; the lowest loses one."""
    s = position(seats=3, monsters=[("fast", 2, SHIP - 1)], explorers={2: [1, 1, 1]})
    # dice 1,1,1 then roll-off: seat0 4, seat1 2, seat2 2 -> tie; again seat1 5, seat2 3
    events = run_phase(s, 1, 1, 1, 4, 2, 2, 5, 3)
    assert s.explorers[1] == [1, 1, 0]
    assert [e.data for e in events if e.kind == "roll_off"] == [
        {"rolls": {"0": 4, "1": 2, "2": 2}}, {"rolls": {"1": 5, "2": 3}}]


def test_no_roll_off_when_every_pawn_dies(game):
    """Damage Points: the roll-off only decides which pawns die when not all of them do."""
    s = position(seats=2, monsters=[("super", 2, SHIP - 1)], explorers={2: [1, 1], 5: [1, 0]})
    run_phase(s, 1, 1, 1)  # any extra die would fail the scripted Rng
    assert s.explorers[1] == [0, 0] and monster(s, 0).life == 1 and s.destroyed[1]


def test_destroyed_section_offers_no_opposition_unless_rebarricaded(game):
    """Damage Points: a second monster through a destroyed section meets nothing, unless a
    barricade was built there since."""
    s = position(monsters=[("fast", 2, SHIP - 1)], destroyed=[2], explorers={5: [1]})
    run_phase(s, 1, 1, 1)  # enters section 2, no movement left
    assert monster(s, 0).life == 1 and monster(s, 0).square == SHIP
    s2 = position(monsters=[("fast", 2, SHIP - 1)], destroyed=[2], barricades={2: "front"},
                  explorers={5: [1]})
    run_phase(s2, 1, 1, 1)
    assert monster(s2, 0) is None and s2.barricades[1] is None


def test_inside_the_ship_toward_the_larger_group(game):
    """Boat: inside, monsters head for the greater concentration of explorers."""
    s = position(monsters=[("super", 3, SHIP)], destroyed=[3], explorers={1: [2], 6: [3]})
    run_phase(s, 1, 1, 1)
    assert monster(s, 0).alley == 4 and s.destroyed[3]


def test_inside_the_ship_a_tie_is_drawn_at_random(game):
    """Boat: with equal groups each side, the direction is random."""
    s = position(monsters=[("super", 3, SHIP)], destroyed=[3], explorers={1: [1], 6: [1]})
    run_phase(s, 1, 1, 1, 0)  # direction index 0 = towards section 2
    assert monster(s, 0).alley == 2


def test_only_side_barricades_act_inside_the_ship(game):
    """Boat: lateral barricades are the only ones that stop monsters inside the ship."""
    s = position(monsters=[("super", 3, SHIP), ("super", 1, SHIP)],
                 destroyed=[1, 2, 3, 4], barricades={4: "side", 2: "front"},
                 explorers={6: [1]})
    run_phase(s, 1, 1, 1)
    assert monster(s, 0).life == 3 and s.barricades[3] is None  # side barricade broke it
    assert monster(s, 1).life == 4 and s.barricades[1] == "front"  # front one ignored


def test_a_front_barricade_does_not_stop_a_monster_from_inside(game):
    """Boat: the same rule seen from the other side: a side barricade faces into the ship."""
    s = position(monsters=[("fast", 4, SHIP - 1)], destroyed=[4], barricades={4: "side"},
                 explorers={6: [1]})
    run_phase(s, 1, 1, 1)
    assert monster(s, 0).life == 1 and s.barricades[3] == "side"


def test_new_monster_enters_at_the_red_die(game):
    """Monsters and Special Tokens: a monster tile enters at the access position rolled."""
    s = position(pool=["very_strong"])
    M.new_tiles(s, CONTENT, dice(4), [])
    assert [(m.kind, m.alley, m.square, m.life) for m in s.monsters] == [
        ("very_strong", 4, 0, 4)]


def test_special_acts_at_once_and_is_not_replaced(game):
    """Monsters and Special Tokens: a special tile acts, leaves the game, and takes a slot of
    the three."""
    s = position(monsters=[("fast", 3, 2)], pool=["advance_snow", "fast", "fast", "fast"])
    M.new_tiles(s, CONTENT, dice(1, 2), [])
    assert s.monsters[0].square == 4
    assert s.removed_specials == ["advance_snow"] and s.pool == ["fast"]
    assert [m.alley for m in s.monsters[1:]] == [1, 2]


def test_advance_two_can_carry_a_monster_into_the_ship(game):
    """Special Tokens: +2 moves all monsters of that terrain, even into the ship."""
    s = position(monsters=[("super", 1, SHIP - 1), ("trooper", 2, 0), ("trooper", 3, 0)],
                 explorers={6: [1]})
    M.apply_special(s, "advance_water", CONTENT, dice(), [])
    m = monster(s, 0)  # entered section 1 and took one step inside, towards the explorers
    assert s.destroyed[:2] == [True, True] and m.square == SHIP and m.alley == 2 and m.life == 2
    assert monster(s, 1).square == 2 and monster(s, 2).square == 0


def test_lateral_movements(game):
    """Special Tokens: the four lateral movements shift a terrain's monsters one alley."""
    cases = {"lateral_water_to_snow": [2, 3, 3, 4, 5, 6],
             "lateral_snow_to_water": [1, 2, 2, 3, 5, 6],
             "lateral_snow_to_ice": [1, 2, 4, 5, 5, 6],
             "lateral_ice_to_snow": [1, 2, 3, 4, 4, 5]}
    for token, alleys in cases.items():
        s = position(monsters=[("fast", a, 3) for a in range(1, 7)] + [("fast", 1, SHIP)])
        M.apply_special(s, token, CONTENT, dice(), [])
        assert [m.alley for m in s.monsters[:6]] == alleys, token
        assert s.monsters[6].alley == 1  # a monster inside the ship is not in any terrain


def test_sanity_loss_each_player_loses_a_random_card(game):
    """Special Tokens: every player discards one card at random."""
    s = position(seats=3, explorers={1: [1, 1, 1]}, hands=[[0, 1, 2], [], [3, 4]])
    M.apply_special(s, "sanity_loss", CONTENT, dice(2, 0), [])
    assert s.hands == [[0, 1], [], [4]] and s.discard == [2, 3]


def test_immobilization_token_marks_its_band(game):
    """Special Tokens: immobilization marks its band for the next move."""
    s = position()
    M.apply_special(s, "immobilize_short", CONTENT, dice(), [])
    assert s.immobilized == ["short"]


def test_calm_tokens_do_nothing(game):
    """Special Tokens: the three tokens the book counts but does not describe have no effect
    (partida's decision, RULES.md)."""
    s = position(seats=2, monsters=[("fast", 3, 2)], hands=[[0], [1]])
    before = s.to_dict()
    M.apply_special(s, "calm_1", CONTENT, dice(), [])
    assert s.to_dict() == before
