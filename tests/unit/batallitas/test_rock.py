"""Scenario 4, Long Live Rock (Deployment, Armament, The rock band, The secret passage,
Objectives and victory conditions): roles at set-up, the band's weapons, face-down markers laid
by the papal side and turned over by rebel steps, the passage, and the band's count deciding
the game. Positions built directly on boards 4 and 5."""

from partida.engine import LocalRng
from partida.games.batallitas import turn as T
from partida.games.batallitas.rules import Batallitas
from partida.games.batallitas.state import GONE, IN_PLAY

from .positions import ScriptedRng, ids, scenario_position

SCENARIO = "long_live_rock"
BAND = ("s2.1", "s2.2", "s2.3")
FAR_MACUTE = {"s0.1": ((0, 11), "N")}


def to_setup_kind(game, s, kind):
    """Take the default for every set-up decision before the first one of `kind`."""
    while s.setup and s.setup[0]["kind"] != kind:
        seat = game.to_act(s)[0]
        game.apply(s, seat, game.default_action(s, seat), LocalRng(1))


def test_roles_fill_a_five_nose_squad_and_leave_the_waiter_empty():
    """Deployment names six roles for a five-nose Fans squad; RULES.md decision: the leader is
    the band's agent, the first three Fans the band, the fourth the owner, no waiter. The band
    starts without its weapons (Armament)."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    assert [n.role for n in s.members(2)] == ["leader", "band", "band", "band", "owner"]
    assert all(s.nose(b).weapons == ["hand"] and s.nose(b).stowed == ["smg"] for b in BAND)
    assert s.nose("s2.4").weapons == ["hand", "smg"]
    assert [i["nose"] for i in s.setup if i["kind"] == "deploy"] == [
        "s2.0", "s2.1", "s2.2", "s2.3", "s2.4"]


def test_each_role_starts_in_its_own_place():
    """Deployment: the agent behind the curtains next to the stage curtain, the band anywhere
    free, the owner behind the bar."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    to_setup_kind(game, s, "deploy")
    m = game.content.boards[4]
    cells = {tuple(int(v) for v in a.split(":")[2].split(",")) for a in ids(game, s)}
    assert cells and all(m.cell(p).feature == "backstage" for p in cells)
    game.apply(s, 1, ids(game, s)[0], LocalRng(1))
    band_cells = {a.split(":")[2] for a in ids(game, s)}
    assert "20,5" in band_cells and "0,0" in band_cells  # both boards, indoors and out
    for _ in BAND:
        game.apply(s, 1, ids(game, s)[-1], LocalRng(1))
    owner = {tuple(int(v) for v in a.split(":")[2].split(",")) for a in ids(game, s)}
    assert owner and all(m.cell(p).feature == "behind_bar" for p in owner)


def test_the_papal_player_lays_three_markers_on_board_5_kinds_hidden_from_the_rebels():
    """The secret passage: two decoys and the passage, face down on empty cells of board 5; the
    papal player knows which is which, the rebel player does not."""
    game = Batallitas()
    s = game.new_state(SCENARIO, 2, {}, LocalRng(0))
    to_setup_kind(game, s, "hide")
    assert game.to_act(s) == (0,)
    listed = ids(game, s)
    assert listed and all(int(a.split(":")[1].split(",")[0]) >= 12 for a in listed)
    for cell in ("14,5", "16,5", "18,5"):
        game.apply(s, 0, f"hide:{cell}", LocalRng(2))
    assert sorted(k["kind"] for k in s.markers) == ["decoy", "decoy", "secret_passage"]
    assert {k["kind"] for k in game.view(s, 1)["markers"]} == {"face_down"}
    assert sorted(k["kind"] for k in game.view(s, 0)["markers"]) == sorted(
        k["kind"] for k in s.markers)


def markers(s, decoy=(14, 5), passage=(16, 5)):
    s.markers = [{"kind": "decoy", "pos": list(decoy), "face_down": True, "owner": "papal",
                  "hidden": True},
                 {"kind": "secret_passage", "pos": list(passage), "face_down": True,
                  "owner": "papal", "hidden": True}]


def test_a_rebel_stepping_on_a_marker_turns_it_over_and_crosses_the_passage():
    """The secret passage: a rebel nose on a marker reveals it; a decoy goes; the passage stays
    and a generic action on it takes the nose out of the game for good."""
    game, s = scenario_position(SCENARIO, {"s2.1": ((13, 5), "E"), **FAR_MACUTE})
    markers(s)
    game.apply(s, 1, "move:14,5", ScriptedRng())
    assert [k["kind"] for k in s.markers] == ["secret_passage"]
    game.apply(s, 1, "move:15,5", ScriptedRng())
    assert "passage" not in ids(game, s)
    game.apply(s, 1, "move:16,5", ScriptedRng())
    assert s.markers[0]["face_down"] is False and "passage" in ids(game, s)
    game.apply(s, 1, "passage", LocalRng(1))
    assert s.nose("s2.1").status == GONE and s.counters["band_out"] == 1


def test_macutes_never_stand_on_the_passage_even_hidden():
    """Tintín Macutes may not stand on the passage's cell (RULES.md decision: hidden or not);
    a decoy's cell they may."""
    game, s = scenario_position(SCENARIO, {"s0.1": ((15, 4), "S"), "s2.4": ((0, 11), "N")})
    markers(s)
    listed = ids(game, s)
    assert "move:14,5" in listed and "move:16,5" not in listed
    assert s.markers[0]["face_down"]  # a Macute reveals nothing


def test_a_band_member_picks_up_its_weapons_behind_the_curtains():
    """Armament: behind the stage curtains, a generic action gives the band member its normal
    weapons; nowhere else."""
    game, s = scenario_position(SCENARIO, {"s2.1": ((10, 0), "S"), **FAR_MACUTE})
    assert "arm" in ids(game, s)
    game.apply(s, 1, "arm", LocalRng(1))
    band = s.nose("s2.1")
    assert band.weapons == ["hand", "smg"] and band.stowed == [] and band.spent == 2
    game, s = scenario_position(SCENARIO, {"s2.1": ((8, 3), "S"), **FAR_MACUTE})
    assert "arm" not in ids(game, s) and not any(a.startswith("fire") for a in ids(game, s))


def finish_with(out, standing, turn_over=False):
    """A Long Live Rock state where `out` band members went through and `standing` are still
    in play (the rest dead)."""
    game, s = scenario_position(SCENARIO, FAR_MACUTE)
    for i, b in enumerate(BAND):
        n = s.nose(b)
        n.status = GONE if i < out else IN_PLAY if i < out + standing else "dead"
        if n.status == IN_PLAY:
            n.pos = [13 + i, 5]
    s.counters["band_out"] = out
    T.check_end(s, [], turn_over=turn_over)
    return s.result


def test_the_band_through_decides_who_wins():
    """Objectives: all three through, the rebels win at once; two, a draw; one or none, the
    papal side wins; decided once no band member is left to try, or when the turn limit option
    ends the game (RULES.md decision)."""
    assert finish_with(3, 0)["side"] == "rebel"
    assert finish_with(2, 1) is None  # the third may still make it
    assert finish_with(2, 0) == {"side": None, "reason": "two through: a draw"}
    assert finish_with(1, 0)["side"] == "papal"
    assert finish_with(0, 0)["side"] == "papal"
    assert finish_with(2, 1, turn_over=True)["side"] is None
    assert finish_with(1, 2, turn_over=True)["side"] == "papal"
