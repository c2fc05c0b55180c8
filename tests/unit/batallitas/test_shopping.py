"""Scenario 2, Shopping, on the (reconstructed) board 2: products, trolleys, abandoned trolleys,
leaving the board and the victory conditions (Scenario 2: "Shopping", "Shopping trolleys",
"Abandoned trolleys", "Objectives and victory conditions"). Positions built directly: food
columns stand at x = 1, 3, 5 on rows 0-3, the trolley row at (1-3, 6), outdoors from row 7."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.rules import INFO
from partida.games.batallitas.state import GONE, attr
from partida.games.batallitas.world import field_of

from .positions import ids, scenario_position

FAN, OTHER_FAN, HUNTER = "s1.1", "s1.2", "s0.1"


def shop(placed: dict, turn: int = 3):
    """Squad 0 is the Fanhunters, squad 1 the Fans; the first placed nose acts."""
    return scenario_position("shopping", placed, turn=turn)


def test_scenario_2_is_offered():
    assert "shopping" in [sc.id for sc in INFO.scenarios]


def test_a_product_is_a_generic_action_next_to_a_food_column_and_weighs_one_action():
    """Shopping: a nose beside a column of products takes a bag of snacks or a litre of beer
    for a generic action; each product carried costs it one action point."""
    game, s = shop({FAN: ((2, 1), "N"), HUNTER: ((0, 10), "E")})
    fan = s.nose(FAN)
    assert {"take:snacks", "take:beers"} <= set(ids(game, s))
    game.apply(s, 1, "take:snacks", LocalRng(0))
    game.apply(s, 1, "take:beers", LocalRng(0))
    assert fan.goods == {"snacks": 1, "beers": 1} and fan.spent == 4
    assert attr(fan, "actions") == 3 and T.available(s, fan) == 0
    fan.pos = [7, 1]  # nothing but a wall and the storeroom beside it
    fan.spent = 0
    assert not any(a.startswith("take:") for a in ids(game, s))


def test_a_trolley_is_taken_facing_the_row_and_carries_everything_for_one_action():
    """Shopping trolleys: taken like opening a door (in front of the row, facing it, a generic
    action); it costs one action point whatever it holds; at most three in play."""
    game, s = shop({FAN: ((2, 5), "S"), HUNTER: ((0, 10), "E")})
    fan = s.nose(FAN)
    assert "trolley:take" in ids(game, s)
    fan.facing = "N"
    assert "trolley:take" not in ids(game, s)
    fan.facing = "S"
    game.apply(s, 1, "trolley:take", LocalRng(0))
    assert fan.trolley and attr(fan, "actions") == 4
    fan.goods = {"snacks": 3, "beers": 2}
    assert attr(fan, "actions") == 4 and "trolley:take" not in ids(game, s)
    game, s = shop({FAN: ((2, 5), "S"), HUNTER: ((0, 10), "E")})
    s.markers = [{"kind": "trolley", "pos": [9, 9 - i], "goods": {}, "face_down": False,
                  "owner": None} for i in range(3)]
    assert "trolley:take" not in ids(game, s)  # three already in play


def test_an_abandoned_trolley_is_an_obstacle_that_anyone_may_grab_goods_and_all():
    """Abandoned trolleys: dropped for free with all in it, the cell becomes an obstacle; a
    nose standing there may grab it (a generic action), its own products going inside."""
    game, s = shop({FAN: ((6, 8), "N"), OTHER_FAN: ((7, 8), "N"), HUNTER: ((0, 10), "E")})
    fan = s.nose(FAN)
    fan.trolley, fan.goods = True, {"snacks": 2, "beers": 1}
    game.apply(s, 1, "trolley:drop", LocalRng(0))
    assert s.markers[-1]["pos"] == [6, 8] and s.markers[-1]["goods"] == {"snacks": 2, "beers": 1}
    assert not fan.trolley and fan.goods == {} and fan.spent == 0
    game.apply(s, 1, "move:6,7", LocalRng(0))
    assert field_of(s).terrain((6, 8)) == "obstacle"
    game.apply(s, 1, "done", LocalRng(0))
    game.apply(s, 1, f"act:{OTHER_FAN}", LocalRng(0))
    other = s.nose(OTHER_FAN)
    other.goods = {"beers": 2}
    game.apply(s, 1, "move:6,8", LocalRng(0))  # back-and-side step into the obstacle: 2 + 1
    assert other.spent == 3
    other.spent = 0  # its two products leave it no points: give it a fresh turn's
    game.apply(s, 1, "trolley:grab", LocalRng(0))
    assert other.trolley and other.goods == {"snacks": 2, "beers": 3}
    assert attr(other, "actions") == 4 and not [m for m in s.markers if m["kind"] == "trolley"]


def test_a_fan_falling_leaves_its_trolley_but_loses_what_it_carried_by_hand():
    """A nose eliminated loses the products it carried; a trolley stays where it fell, with
    what is in it (RULES.md decision)."""
    game, s = shop({FAN: ((6, 8), "N"), OTHER_FAN: ((7, 8), "N"), HUNTER: ((0, 10), "E")})
    fan, other = s.nose(FAN), s.nose(OTHER_FAN)
    fan.trolley, fan.goods = True, {"snacks": 1}
    other.goods = {"beers": 2}
    T.hurt(s, fan, 5, [])
    T.hurt(s, other, 5, [])
    assert [(m["pos"], m["goods"]) for m in s.markers] == [([6, 8], {"snacks": 1})]


def test_fans_leaving_with_three_snacks_and_three_beers_win():
    """Objectives: Fans that leave the board, by any side they can, with 3 bags of snacks and
    3 litres of beer between them win; leaving costs a forward step facing out, else two
    (RULES.md decision)."""
    game, s = shop({FAN: ((4, 11), "S"), OTHER_FAN: ((11, 9), "N"), HUNTER: ((0, 10), "E")})
    fan = s.nose(FAN)
    fan.trolley, fan.goods = True, {"snacks": 2, "beers": 3}
    assert "leave:south" in ids(game, s)
    game.apply(s, 1, "leave:south", LocalRng(0))
    assert fan.status == GONE and s.counters["snacks_out"] == 2 and s.result is None
    game.apply(s, 1, f"act:{OTHER_FAN}", LocalRng(0))
    s.nose(OTHER_FAN).goods = {"snacks": 1}
    game.apply(s, 1, "leave:east", LocalRng(0))
    assert s.nose(OTHER_FAN).spent == 2  # facing north, not out
    assert s.result is not None and s.result["side"] == "rebel"


def test_walls_keep_fans_in_and_fanhunters_never_leave():
    game, s = shop({FAN: ((0, 3), "W"), HUNTER: ((0, 10), "W")})
    assert not any(a.startswith("leave:") for a in ids(game, s))
    game, s = shop({HUNTER: ((0, 10), "W"), FAN: ((5, 9), "N")})
    assert not any(a.startswith("leave:") for a in ids(game, s))


def test_the_papal_side_wins_when_no_fan_is_left_or_time_runs_out():
    """The papal side wins by stopping it: once no Fan is left on the board or to enter (the
    shelves never run out), or when the turn limit option ends the game (RULES.md decision)."""
    game, s = shop({FAN: ((4, 11), "S"), HUNTER: ((0, 10), "E")})
    game.apply(s, 1, "leave:south", LocalRng(0))  # empty-handed
    assert s.result is not None and s.result["side"] == "papal"
    game, s = shop({FAN: ((6, 6), "S"), HUNTER: ((0, 10), "E")}, turn=12)
    T.end_turn(s, [])
    assert s.result is not None and s.result["side"] == "papal"
