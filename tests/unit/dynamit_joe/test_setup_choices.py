"""Starting zones the scenarios leave to the players (9.6, 9.7, 9.8) as set-up decisions."""

from __future__ import annotations

from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe import actions as A
from partida.games.dynamit_joe.adapter import action_from_proto, action_to_proto, view_to_proto
from partida.games.dynamit_joe.geometry import geometry
from partida.games.dynamit_joe.v1 import dynamit_joe_pb2 as pb
from tests.unit.dynamit_joe.positions import act, fresh, ids

STREET = {f"st_{r}{i}" for r in "ns" for i in range(1, 7)} | {"alley"}


def test_fixed_scenarios_ask_nothing() -> None:
    """9.1: every starting zone is given; play begins at once."""
    s = fresh("arrest", 2)
    assert s.prompt is None or s.prompt["kind"] != "place"
    assert s.round == 1


def test_break_out_party_chooses_street_zones_out_of_sight() -> None:
    """9.7: Jake, Dave, Susan and Joe each start in a street zone of their players' choice that
    no opponent can see; the first chip is drawn only after the last of them is placed."""
    s = fresh("break_out", 2)
    party = ["Jake", "Dave", "Susan", "Joe"]
    assert all(s.chars[n]["zone"] is None for n in party) and s.round == 0
    for n in party:
        assert s.prompt is not None and s.prompt["kind"] == "place" and s.prompt["char"] == n
        assert GAME.to_act(s) == (s.chars[n]["seat"],)
        zones = [a.split(":", 1)[1] for a in ids(s)]
        assert zones and set(zones) <= STREET
        for z in zones:   # no opponent can see him there
            s.chars[n]["zone"] = z
            assert not any(A.sees(s, e, n).visible
                           for e in s.order if s.enemies(n, e) and s.chars[e]["zone"])
        s.chars[n]["zone"] = None
        # a street zone an opponent sees is not offered (the one right outside the office)
        seen = [z for z in sorted(STREET) if geometry().sight("sheriff_office", z).visible]
        assert seen and not set(seen) & set(zones)
        events = act(s, f"zone:{zones[-1]}")
        assert any(e.kind == "placed" and e.data == {"character": n, "zone": zones[-1]}
                   for e in events)
    assert s.round == 1 and all(s.chars[n]["zone"] for n in party)


def test_eldorado_keepers_markers_and_the_edge_party_choose() -> None:
    """9.8: Ted, Frank and Fred start in zones of their choice in the saloon, the laundry or the
    sheriff's office; Slim, Jake and Dave at an edge zone of theirs; then the keepers lay the
    six face-down markers in those buildings, each marker's face shown to them only."""
    s = fresh("eldorado", 4)
    buildings = {"saloon", "blanchisserie", "sheriff", "cell"}
    for n in ("Ted", "Frank", "Fred"):
        assert s.prompt is not None and s.prompt["char"] == n
        zones = [a.split(":", 1)[1] for a in ids(s)]
        assert {geometry().zones[z].space for z in zones} == buildings
        act(s, f"zone:{zones[0]}")
    edge = {z.id for z in geometry().zones.values() if z.edge}
    for n in ("Slim", "Jake", "Dave"):
        assert s.prompt is not None and s.prompt["char"] == n
        zones = [a.split(":", 1)[1] for a in ids(s)]
        assert set(zones) <= edge
        act(s, f"zone:{zones[-1]}")
    keeper, outlaw = s.chars["Ted"]["seat"], s.chars["Slim"]["seat"]
    laid = []
    while s.prompt is not None and s.prompt["kind"] == "place":
        assert "object" in s.prompt and GAME.to_act(s) == (keeper,)
        mine = GAME.view(s, keeper)["prompt"]["item"]
        theirs = GAME.view(s, outlaw)["prompt"]["item"]
        assert mine["kind"] in ("rock", "nugget") and theirs["kind"] == "face_down"
        assert theirs["value"] == 0
        zone = ids(s)[len(laid) % 2]
        laid.append(s.prompt["object"])
        act(s, zone)
    assert len(laid) == 6 and s.round == 1
    ground = {o["id"]: o for o in GAME.view(s, outlaw)["ground"]}
    assert all(ground[o]["kind"] == "face_down" and ground[o]["zone"] for o in laid)


def test_marker_ids_do_not_tell_the_faces() -> None:
    """9.8: markers are made in a shuffled order, so which id hides the 3-nugget varies."""
    seen = set()
    for seed in range(12):
        s = fresh("eldorado", 4, seed=seed)
        seen.add(next(o for o, obj in s.objects.items() if obj["value"] == 3))
    assert len(seen) > 1


def test_jakes_knives_lie_together_where_his_captors_choose() -> None:
    """9.6: both knives lie in one saloon zone chosen by Fred and Frank's side."""
    s = fresh("hostages", 3)
    assert s.prompt is not None and s.prompt["kind"] == "place"
    assert GAME.to_act(s) == (s.chars["Fred"]["seat"],)
    assert sorted(ids(s)) == ["zone:saloon_bar", "zone:saloon_floor"]
    act(s, "zone:saloon_floor")
    knives = [o for o in s.objects.values() if o["kind"] == "knife" and o["holder"] is None]
    assert len(knives) == 2 and {o["zone"] for o in knives} == {"saloon_floor"}
    assert s.round == 1


def test_a_surrender_during_set_up_moves_on() -> None:
    """Chapter 9 surrender before play: the seat's unplaced characters take the scenario's
    default zone, and the next seat's decision comes up."""
    s = fresh("eldorado", 4)
    keeper = s.chars["Ted"]["seat"]
    GAME.resign(s, keeper)
    assert all(s.chars[n]["zone"] for n in ("Ted", "Frank", "Fred"))
    assert s.prompt is not None and s.prompt["kind"] == "place" and s.prompt["char"] == "Slim"
    for _ in range(3):
        act(s, ids(s)[0])
    # nobody of the keepers can lay the markers: they go to the first zone offered
    assert s.result is not None or s.round == 1
    assert all(o["zone"] for o in s.objects.values() if o["face_down"])


def test_a_surrender_of_the_side_laying_the_knives() -> None:
    """9.6 and chapter 9: if the captors give up before laying Jake's knives, both still lie
    together, in the first zone offered, and nobody is asked to lay them."""
    s = fresh("hostages", 3)
    GAME.resign(s, s.chars["Fred"]["seat"])
    knives = [o for o in s.objects.values() if o["kind"] == "knife" and o["holder"] is None]
    assert {o["zone"] for o in knives} == {"saloon_floor"}
    assert s.prompt is None or s.prompt["kind"] != "place"


def test_placing_is_typed() -> None:
    """zone:<zone> round-trips; the prompt names the object being laid."""
    assert action_from_proto(action_to_proto("zone:alley")) == "zone:alley"
    s = fresh("hostages", 3)
    typed = view_to_proto(GAME.view(s, 0))
    assert typed.prompt.kind == pb.PROMPT_KIND_PLACE and typed.prompt.object_id
    assert typed.prompt.item.kind == pb.OBJECT_KIND_KNIFE
