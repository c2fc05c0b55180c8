"""Scenario 5, War Games (The videogame, Reinforcements, The slider, Time limit, Objectives and
victory conditions; Board 8 notes): positions built directly on boards 6, 7 and 8 (board 8's
slider cabin is cell 34,9, its doors on its north and south sides, its bonnet at 33,9 facing
the garage door to the west)."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas import videogame
from partida.games.batallitas.geometry import has_cover
from partida.games.batallitas.rules import Batallitas
from partida.games.batallitas.state import GONE
from partida.games.batallitas.world import field_of

from .positions import ScriptedRng, ids, scenario_position

SCENARIO = "war_games"
SLIDER, NORTH_DOOR, SOUTH_DOOR = (34, 9), (34, 8), (34, 10)
FAR_MACUTE = {"s0.1": ((0, 0), "S")}


def with_game(s, carrier=None, pos=None):
    s.markers = [{"kind": "teddy_bear", "videogame": True, "carrier": carrier,
                  "pos": list(pos) if pos else None, "face_down": False, "owner": None}]


def test_set_up_deploys_the_lethal_fans_in_the_offices_and_names_the_carrier():
    """Reconstruction (RULES.md): the Lethal Fans start inside board 7's offices; then the rebel
    player names the nose carrying the videogame."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    while s.setup[0]["kind"] != "deploy":
        seat = game.to_act(s)[0]
        game.apply(s, seat, game.default_action(s, seat), LocalRng(1))
    cells = {tuple(int(v) for v in a.split(":")[2].split(",")) for a in ids(game, s)}
    m = field_of(s).map
    assert cells and all(m.board(p) == 7 and m.cell(p).indoor for p in cells)
    while s.setup[0]["kind"] == "deploy":
        game.apply(s, 1, ids(game, s)[0], LocalRng(1))
    assert ids(game, s) == [f"carrier:s3.{i}" for i in range(6)]
    game.apply(s, 1, "carrier:s3.2", LocalRng(1))
    assert videogame.carrier(s).id == "s3.2"


def test_the_videogame_is_dropped_or_passed_once_per_side_and_turn_and_picked_up():
    """The videogame: dropping it or passing it to an adjacent nose is a generic action, once
    per side per turn; standing on it, anyone picks it up by a generic action."""
    game, s = scenario_position(SCENARIO, {"s3.1": ((20, 5), "N"), "s3.2": ((21, 5), "N"),
                                           **FAR_MACUTE})
    with_game(s, carrier="s3.1")
    assert {"videogame:drop", "videogame:pass:s3.2"} <= set(ids(game, s))
    game.apply(s, 1, "videogame:pass:s3.2", LocalRng(1))
    assert videogame.carrier(s).id == "s3.2"
    game.apply(s, 1, "done", LocalRng(1))
    game.apply(s, 1, "act:s3.2", LocalRng(1))
    assert not any(a.startswith("videogame") for a in ids(game, s))  # the side's once is used
    s.turn += 1
    game.apply(s, 1, "videogame:drop", LocalRng(1))
    assert s.markers[0]["pos"] == [21, 5] and videogame.carrier(s) is None
    game.apply(s, 1, "move:22,5", LocalRng(1))
    assert not any(a.startswith("videogame") for a in ids(game, s))
    game.apply(s, 1, "move:21,5", LocalRng(1))
    s.nose("s3.2").spent = 0  # points for the pick-up
    game.apply(s, 1, "videogame:take", LocalRng(1))  # picking up is not limited
    assert videogame.carrier(s).id == "s3.2"


def test_a_dead_carrier_leaves_the_videogame_where_it_fell():
    """The videogame: if its carrier is eliminated, the marker stays in that cell."""
    game, s = scenario_position(SCENARIO, {"s3.1": ((20, 5), "N"), **FAR_MACUTE})
    with_game(s, carrier="s3.1")
    T.hurt(s, s.nose("s3.1"), 3, [])
    assert s.markers[0]["carrier"] is None and s.markers[0]["pos"] == [20, 5]


def test_only_lethal_fans_get_into_the_slider_by_its_doors_two_at_most():
    """The slider: Lethal Fans only, through one of its two doors (2 points), two at most."""
    game, s = scenario_position(SCENARIO, {"s3.1": (NORTH_DOOR, "S"), "s3.2": (SOUTH_DOOR, "N"),
                                           "s3.3": ((33, 8), "E"), "s0.1": ((35, 8), "W")})
    s.nose("s3.3").flaws.clear()  # no hateful charge at the Macute beside it
    assert "slider:in" in ids(game, s)
    assert not any(a == "move:34,9" for a in ids(game, s))  # not by a plain step
    assert not any(a.startswith("open:") for a in ids(game, s))  # its doors are the vehicle's
    game.apply(s, 1, "slider:in", LocalRng(1))
    assert s.nose("s3.1").cell == SLIDER and s.nose("s3.1").spent == 2
    game.apply(s, 1, "done", LocalRng(1))
    game.apply(s, 1, "act:s3.2", LocalRng(1))
    game.apply(s, 1, "slider:in", LocalRng(1))
    assert s.nose("s3.2").cell == SLIDER
    game.apply(s, 1, "slider:out:34,10", LocalRng(1))
    game.apply(s, 1, "done", LocalRng(1))
    game.apply(s, 1, "act:s3.3", LocalRng(1))
    assert "slider:in" not in ids(game, s)  # 33,8 is beside the cabin, not by a door
    game2, s2 = scenario_position(SCENARIO, {"s0.1": (NORTH_DOOR, "S"), "s3.5": ((20, 5), "N")})
    assert "slider:in" not in ids(game2, s2)  # a Macute


def test_a_nose_in_the_slider_is_shot_only_from_the_front_with_cover():
    """The slider: a nose inside may be shot only through the vehicle's front (the bonnet),
    always with cover; from the sides its doors and body are in the way."""
    game, s = scenario_position(SCENARIO, {"s0.1": ((29, 9), "E"), "s3.1": (SLIDER, "W")})
    s.open_doors = [next(d.id for d in field_of(s).map.doors if d.spec.feature == "garage_door")]
    assert "fire:smg:34,9" in ids(game, s)
    assert has_cover(field_of(s), (29, 9), SLIDER)
    game, s = scenario_position(SCENARIO, {"s0.1": ((34, 7), "S"), "s3.1": (SLIDER, "W")})
    assert "fire:smg:34,9" not in ids(game, s)


def test_a_nose_in_the_slider_is_struck_only_from_a_door_cell():
    """The slider: close combat against a nose inside only from a cell by one of its doors."""
    game, s = scenario_position(SCENARIO, {"s0.0": (NORTH_DOOR, "S"), "s3.1": (SLIDER, "W")})
    assert "attack:katanote:34,9" in ids(game, s)
    game, s = scenario_position(SCENARIO, {"s0.0": ((33, 8), "S"), "s3.1": (SLIDER, "W")})
    assert not any(a.endswith(":34,9") for a in ids(game, s) if a.startswith("attack"))


def aboard(carrier):
    game, s = scenario_position(SCENARIO, {"s3.1": (SLIDER, "W"), "s3.2": ((20, 5), "N"),
                                           **FAR_MACUTE})
    with_game(s, carrier=carrier)
    return game, s


def test_the_escape_is_the_garage_door_then_the_drive_with_the_game_aboard():
    """Objectives: from inside, a generic action opens the garage door, another starts the
    slider; with the videogame aboard the rebels win."""
    game, s = aboard("s3.1")
    assert "slider:drive" not in ids(game, s)
    game.apply(s, 1, "slider:garage", LocalRng(1))
    assert "slider:drive" in ids(game, s)
    game.apply(s, 1, "slider:drive", LocalRng(1))
    assert s.nose("s3.1").status == GONE and s.result["side"] == "rebel"


def test_driving_off_without_the_game_is_a_papal_win():
    """Objectives: the Lethal Fans leaving in the slider without the videogame lose."""
    game, s = aboard("s3.2")
    game.apply(s, 1, "slider:garage", LocalRng(1))
    game.apply(s, 1, "slider:drive", ScriptedRng())
    assert s.result == {"side": "papal", "reason": "the slider leaves without the videogame"}


def test_the_fanhunters_marker_joins_the_hat_on_turn_8():
    """Reinforcements: from turn 8 an extra papal initiative marker, the Fanhunter squad's."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    s.setup, s.turn = [], 6
    T.start_turn(s, [])
    assert s.bag.count("papal") == 2
    s.prompts, s.turn = [], 7
    T.start_turn(s, [])
    assert s.bag.count("papal") == 3
