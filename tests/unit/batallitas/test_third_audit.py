"""Third rules audit: doors, scenario 2's shopping, scenario 5's videogame and slider, scenario
6's placement. Each test builds its position directly and names the book's heading it checks.

Scenario 5 positions: board 8's slider cabin is cell 34,9 (doors on its north and south sides,
its bonnet at 33,9 facing the garage door to the west, whose three leaves are the edges west of
32,8, 32,9 and 32,10)."""

from partida.engine import LocalRng
from partida.games.batallitas import shooting as F
from partida.games.batallitas import videogame
from partida.games.batallitas.world import field_of

from .positions import ids, scenario_position

WAR = "war_games"
SLIDER, NORTH_DOOR = (34, 9), (34, 8)
FAR_MACUTE = {"s0.1": ((0, 11), "S")}


def with_game(s, carrier):
    s.markers = [{"kind": "teddy_bear", "videogame": True, "carrier": carrier, "pos": None,
                  "face_down": False, "owner": None}]


def garage(s):
    return next(d for d in field_of(s).map.doors if d.spec.feature == "garage_door")


def test_a_nose_in_the_slider_always_has_cover_even_shot_past_the_bonnets_corner():
    """Scenario 5, "The slider": a nose inside counts as having cover. A line from 32,7 runs
    through the bonnet's corner, crossing no obstruction, yet the shot still loses its die."""
    game, s = scenario_position(WAR, {"s0.1": ((32, 7), "E"), "s3.1": (SLIDER, "W")})
    assert "fire:smg:34,9" in ids(game, s)
    n = s.nose("s0.1")
    dice, cover = F.shot_dice(s, field_of(s), n, SLIDER, alert=False, w=F.weapon("smg"))
    assert cover
    s.nose("s3.1").pos = [2, 0]  # the same range, in the open: no cover, one die more
    n.pos = [0, 0]
    more, cover = F.shot_dice(s, field_of(s), n, (2, 0), alert=False, w=F.weapon("smg"))
    assert not cover and more == dice + 1


def test_the_videogame_is_not_passed_across_a_wall():
    """Scenario 5, "The videogame" (RULES.md decision): a pass goes where a blow would, so not
    to a nose on the far side of a wall (board 7's west wall between 13,0 and 14,0)."""
    game, s = scenario_position(WAR, {"s3.1": ((13, 0), "E"), "s3.2": ((14, 0), "N"),
                                      **FAR_MACUTE})
    with_game(s, "s3.1")
    assert "videogame:pass:s3.2" not in ids(game, s)
    s.nose("s3.2").pos = [13, 1]  # beside it, nothing between
    assert "videogame:pass:s3.2" in ids(game, s)


def test_the_videogame_goes_into_or_out_of_the_slider_only_across_its_doors():
    """Scenario 5, "The videogame" and "The slider" (RULES.md decision): handing it to a nose
    inside is done from a door cell, as a blow is; not from beside the bonnet."""
    game, s = scenario_position(WAR, {"s3.1": ((33, 8), "E"), "s3.2": (SLIDER, "W"),
                                      **FAR_MACUTE})
    with_game(s, "s3.1")
    assert "videogame:pass:s3.2" not in ids(game, s)
    s.nose("s3.1").pos = list(NORTH_DOOR)
    game.apply(s, 1, "videogame:pass:s3.2", LocalRng(1))
    assert videogame.carrier(s).id == "s3.2"
    game, s = scenario_position(WAR, {"s3.2": (SLIDER, "W"), "s3.1": ((35, 10), "N"),
                                      **FAR_MACUTE})
    with_game(s, "s3.2")
    assert "videogame:pass:s3.1" not in ids(game, s)  # out past the body, no door there


def test_the_remote_opens_a_garage_door_left_partly_open_whole():
    """Scenario 5, victory conditions (the remote control) and "Double doors" (leaves): with one
    leaf of the garage door opened by hand, the remote opens the rest; the door is then stored
    as wholly open, with no leaf left over."""
    game, s = scenario_position(WAR, {"s3.1": (SLIDER, "W"), **FAR_MACUTE})
    with_game(s, "s3.1")
    g = garage(s)
    s.open_leaves = [[g.id, 1]]
    assert "slider:drive" not in ids(game, s)
    game.apply(s, 1, "slider:garage", LocalRng(1))
    assert g.id in s.open_doors and s.open_leaves == []
    assert "slider:drive" in ids(game, s)


def test_a_blast_beside_the_bonnet_catches_a_nose_in_the_slider_but_not_one_on_a_door_cell():
    """Scenario 5, "The slider", and "Area-Effect Weapons" (RULES.md decision): the slider's
    limits are for shots and blows; a template follows the general rule, shielded only by walls
    and closed doors, here the slider's own doors."""
    from partida.games.batallitas.area import template

    game, s = scenario_position(WAR, {"s3.1": (SLIDER, "W"), **FAR_MACUTE})
    f = field_of(s)
    assert SLIDER in template(f, (33, 9)) and SLIDER in template(f, (33, 8))
    assert SLIDER not in template(f, NORTH_DOOR) and SLIDER not in template(f, (34, 10))


def test_no_sweep_reaches_into_the_slider_while_a_blow_from_a_door_cell_does():
    """Scenario 5, "The slider", and "Sweeping Attacks" (RULES.md decision): the cabin is an
    obstruction, which stops a swing; a plain blow from a door cell reaches the nose inside."""
    game, s = scenario_position(WAR, {"s0.0": (NORTH_DOOR, "S"), "s3.1": (SLIDER, "W")})
    listed = ids(game, s)
    assert "attack:katanote:34,9" in listed
    assert not any(a.startswith("sweep:") for a in listed)


def test_any_four_different_boards_may_be_laid_whatever_card_they_are_printed_on():
    """Scenario 6, "Boards" (RULES.md decision): which boards are printed back to back is not in
    the text, so any four different numbers may be laid, 4 and 5 or 6, 7 and 8 together too."""
    from partida.games.batallitas.rules import Batallitas

    game = Batallitas()
    s = game.new_state("streets_of_fire", 2, {}, LocalRng(0))
    for seat, action in enumerate(("board:5:0,0", "board:6:1,0", "board:7:2,0", "board:8:3,0")):
        assert action in ids(game, s)
        game.apply(s, seat % 2, action, LocalRng(1))
    assert sorted(b for b, _, _ in s.boards) == [5, 6, 7, 8]
    assert s.setup[0]["kind"] != "board"
