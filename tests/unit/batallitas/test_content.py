"""Content as data: boards, arsenal, squads, event decks, scenarios (loaders and their checks)."""

import json

import pytest
from pydantic import ValidationError

from partida.games.batallitas.content import (
    BoardFile,
    Events,
    Legend,
    SquadSpec,
    Weapon,
    _read,
    parse_board,
)
from partida.games.batallitas.grid import Field, Map

SHARED = Legend.model_validate(_read("boards/legend.json"))


def tiny(grid, legend=None, edge_legend=None):
    return BoardFile(number=1, title="t", version=1, reconstruction=True, reconstructs=("x",),
                     width=4, height=4, legend=legend or {}, edge_legend=edge_legend or {},
                     notes=(), grid=tuple(grid))


OPEN4 = ["+-+-+-+-+", "|. . . .|", "+       +", "|. _ _ .|", "+ +-+d+-+",
         "|. _ _ .|", "+       +", "|. . . .|", "+-+-+-+-+"]


def test_grid_format_reads_cells_walls_and_doors():
    """Components, Walls and doors: cells at odd positions, walls and doors on the edges."""
    b = parse_board(SHARED, tiny(OPEN4))
    assert b.cell((1, 1)).indoor and not b.cell((0, 0)).indoor
    assert ("h", 1, 2) in b.walls and ("h", 3, 2) in b.walls  # the '-' either side of the door
    assert [d.edges for d in b.doors] == [(("h", 2, 2),)]
    assert ("v", 0, 0) in b.walls and ("v", 4, 3) in b.walls  # the frame


@pytest.mark.parametrize("bad", [
    OPEN4[:-1],  # a line short
    [OPEN4[0], "|. . . X|", *OPEN4[2:]],  # unknown cell character
    [OPEN4[0], OPEN4[1], "*       +", *OPEN4[3:]],  # a corner that is neither + nor space
    [OPEN4[0], "|.-. . .|", *OPEN4[2:]],  # a horizontal wall between two columns
])
def test_grid_format_refuses_malformed_boards(bad):
    """Board format (content/boards/FORMAT.md): size, characters and corners are checked."""
    with pytest.raises(ValueError):
        parse_board(SHARED, tiny(bad))


def test_consecutive_door_letters_make_one_double_door():
    """Double doors: two door edges in a row along one line are one door with two leaves."""
    grid = list(OPEN4)
    grid[4] = "+ +D+D+ +"
    b = parse_board(SHARED, tiny(grid))
    assert [d.edges for d in b.doors] == [(("h", 1, 2), ("h", 2, 2))]


def test_every_board_is_a_twelve_by_twelve_reconstruction(content):
    """Components, Boards: eight boards that join on every side; the pictures are reconstructed."""
    assert sorted(content.boards) == list(range(1, 9))
    for b in content.boards.values():
        assert (b.width, b.height) == (12, 12) and b.reconstruction


def _front(m, door):
    """Cells on both sides of every leaf of a door."""
    cells = []
    for kind, x, y in door.edges:
        cells += [(x - 1, y), (x, y)] if kind == "v" else [(x, y - 1), (x, y)]
    return cells


def test_board_1_club(content):
    """Scenario 1 and Board 1 notes: toilet cell behind a door, secret single door, double door
    with clear cells outside, bonnets minor, skip major, fallen wall clear."""
    m = Map.assemble(content.boards, [content.scenario("last_game").boards[0]])
    (toilet,) = m.with_feature("toilet")
    assert m.cell(toilet).terrain == "clear" and m.cell(toilet).indoor
    toilet_doors = [d for d in m.doors if toilet in _front(m, d)]
    assert len(toilet_doors) == 1 and len(toilet_doors[0].edges) == 1
    kinds = sorted((len(d.edges), d.spec.feature) for d in m.doors if d is not toilet_doors[0])
    assert kinds == [(1, "secret_door"), (2, None)]
    double = next(d for d in m.doors if len(d.edges) == 2)
    outside = [p for p in _front(m, double) if not m.cell(p).indoor]
    assert len(outside) == 2 and all(m.cell(p).terrain == "clear" for p in outside)
    names = {m.cell(p).name: m.cell(p).terrain for p in m.positions()}
    assert names["prison van"] == names["crashed car"] == names["skip"] == "major"
    assert names["prison van front bonnet"] == names["crashed car rear bonnet"] == "minor"
    assert names["piece of fallen wall"] == "clear" and names["game shop"] == "major"


def test_board_2_supermarket(content):
    """Scenario 2 and Board 2 notes: automatic double door with four clear cells, food columns
    major, trolley row and counter minor, flap, cold room door opened only from outside."""
    m = Map.assemble(content.boards, [content.scenario("shopping").boards[0]])
    (auto,) = [d for d in m.doors if d.spec.automatic]
    front = _front(m, auto)
    assert len(auto.edges) == 2 and len(front) == 4
    assert all(m.cell(p).terrain == "clear" for p in front)
    assert {m.cell(p).terrain for p in m.with_feature("food_column")} == {"major"}
    assert {m.cell(p).terrain for p in m.with_feature("trolleys")} == {"minor"}
    assert {m.cell(p).terrain for p in m.with_feature("counter")} == {"minor"}
    (flap,) = m.with_feature("flap")
    assert m.cell(flap).flap and Field(m).terrain(flap) == "minor"
    assert Field(m, open_flaps=frozenset({flap})).terrain(flap) == "clear"
    (cold,) = [d for d in m.doors if d.spec.opens_from == "outside:cold_room"]
    assert len(cold.edges) == 2
    assert any(m.cell(p).feature == "cold_room" for p in _front(m, cold))


def test_board_4_and_5_join_for_the_rock_band(content):
    """Scenario 4 and Board 4 notes: stage raised, curtain onto the stage from backstage, bar
    flap, tables; board 4's back doors open onto board 5's alley when placed side by side."""
    m = Map.assemble(content.boards, content.scenario("long_live_rock").boards)
    assert (m.width, m.height) == (24, 12)
    assert all(m.cell(p).raised for p in m.with_feature("stage"))
    curtains = [d for d in m.doors if d.spec.name == "curtain"]
    assert any({m.cell(p).feature for p in _front(m, d)} == {"backstage", "stage"}
               for d in curtains)
    assert m.with_feature("behind_bar") and m.with_feature("table") and m.with_feature("flap")
    back = [d for d in m.doors if d.edges[0][0] == "v" and d.edges[0][1] == 12]
    assert len(back) == 2
    for d in back:
        alley = max(_front(m, d))
        assert m.board(alley) == 5 and m.cell(alley).terrain == "clear"
        assert not m.cell(alley).indoor


def test_board_6_square(content):
    """Board 6 notes: statue major, the fountain round it minor, trees major, benches minor."""
    b = content.boards[6]
    statue = b.with_feature("statue")
    assert {b.cell(p).terrain for p in statue} == {"major"}
    ring = {(x + dx, y + dy) for x, y in statue for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert {b.cell(p).feature for p in ring - set(statue)} == {"fountain"}
    assert {b.cell(p).terrain for p in b.with_feature("tree")} == {"major"}
    assert {b.cell(p).terrain for p in b.with_feature("bench")} == {"minor"}


def test_board_7_offices_have_two_automatic_doors(content):
    """Board 7 notes: both doors out of reception are automatic; counter and its flap minor."""
    m = Map.assemble(content.boards, [content.scenario("war_games").boards[1]])
    autos = [d for d in m.doors if d.spec.automatic]
    assert len(autos) == 2
    for d in autos:
        assert all(m.cell(p).terrain == "clear" for p in _front(m, d))
    assert m.with_feature("flap") and m.with_feature("counter")


def test_board_8_house_and_slider(content):
    """Scenario 5 and Board 8 notes: fridge major, fence minor, slider major but its bonnet
    minor, two slider doors on the cabin, the garage door in front of the slider."""
    b = content.boards[8]
    assert {b.cell(p).terrain for p in b.with_feature("fridge")} == {"major"}
    assert {b.cell(p).terrain for p in b.with_feature("fence")} == {"minor"}
    (cabin,) = b.with_feature("slider")
    (bonnet,) = b.with_feature("slider_bonnet")
    assert b.cell(cabin).terrain == "major" and b.cell(bonnet).terrain == "minor"
    m = Map.assemble(content.boards, content.scenario("war_games").boards)
    slider_doors = [d for d in m.doors if d.spec.feature == "slider_door"]
    cabin_at = (cabin[0] + 24, cabin[1])
    assert len(slider_doors) == 2 and all(cabin_at in _front(m, d) for d in slider_doors)
    assert [d.spec.feature for d in m.doors].count("garage_door") == 1


def test_entry_edges_of_every_scenario_have_free_cells(content):
    """Scenarios, Deployment: each side that enters by a board edge finds free cells there."""
    for sc in content.scenarios:
        if not sc.boards:
            continue
        m = Map.assemble(content.boards, sc.boards)
        f = Field(m)
        for force in sc.forces:
            for side in force.deploy.edges:
                free = [p for p in m.edge_cells(side)
                        if not f.blocks_step(p) and not f.shut(m.outer_edge(p, side))]
                assert len(free) >= 2, (sc.id, side)


def test_scenario_features_exist_on_their_boards(content):
    """Scenarios 1, 4, 5: the cells the set-up refers to are on the boards."""
    needs = {"last_game": ["toilet"], "long_live_rock": ["behind_bar", "table", "backstage"],
             "war_games": ["slider", "slider_bonnet"]}
    for sid, features in needs.items():
        m = Map.assemble(content.boards, content.scenario(sid).boards)
        for feat in features:
            assert m.with_feature(feat), (sid, feat)


def test_squads_tables_with_reconstructed_rows(content):
    """Squads: the four tables; lost rows rebuilt from the Arsenal (cannon, flamethrower,
    chainsaw) and marked as reconstructions."""
    sq = content.squads
    assert {s: sq[s].size for s in sq} == {"macutes": 5, "fanhunters": 5, "fans": 5,
                                          "lethal_fans": 6}
    macute_support = sq["macutes"].noses[2]
    assert macute_support.weapons == ("cannon",) and macute_support.reconstructed
    assert sq["fanhunters"].noses[2].weapons == ("flamethrower",)
    rolmaster = sq["lethal_fans"].noses[2]
    assert rolmaster.pupae == 3 and "chainsaw" in rolmaster.weapons and rolmaster.reconstructed
    sergeant = sq["macutes"].noses[0]
    assert (sergeant.actions, sergeant.flaws) == (5, ("atrophy", "inept", "clumsy"))
    assert sq["fanhunters"].noses[0].grenades == 3 and sq["lethal_fans"].noses[0].grenades == 2
    assert sq["fans"].leader_from == "lethal_fans"
    assert {n.hates for n in sq["fans"].noses} == {"macute"}


def test_a_squad_needs_exactly_one_way_to_get_its_leader():
    """Leaders, rule 1: every squad starts with one original leader."""
    nose = {"id": "a", "name": "A", "count": 2, "actions": 4, "shooting": 2, "combat": 2,
            "muscles": 2, "pupae": 2, "weapons": ["smg"]}
    with pytest.raises(ValidationError):
        SquadSpec(id="s", name="S", side="papal", family="macute", noses=[nose])
    with pytest.raises(ValidationError):  # inept on a non-leader
        SquadSpec(id="s", name="S", side="papal", family="macute",
                  noses=[{**nose, "count": 1, "leader": True}, {**nose, "flaws": ["inept"]}])


def test_arsenal_table(content):
    """Arsenal: type, range, rate of fire, pupae and notes of every weapon; armour."""
    a = content.arsenal
    table = {w.id: (w.type, w.range, w.rof, w.pupae.dice, w.pupae.muscles, w.pupae.contusion)
             for w in a.weapons}
    assert table == {
        "hand": ("close", None, None, 0, True, True),
        "katanote": ("close", None, None, 1, True, False),
        "chainsaw": ("close", None, None, 2, True, False),
        "pistol": ("short", 4, 1, 2, False, False),
        "smg": ("long", 6, 2, 2, False, False),
        "blunderbuss": ("long", 8, 2, 3, False, False),
        "cannon": ("heavy", 12, 3, 4, False, False),
        "flamethrower": ("heavy", 4, 1, 4, False, False),
        "frag_grenade": ("heavy", 4, 1, 4, False, False),
        "gas_grenade": ("heavy", 4, 1, 3, False, True),
    }
    assert a.weapon("cannon").alert and a.weapon("cannon").magazine == 12
    assert a.weapon("flamethrower").magazine == 6 and a.weapon("flamethrower").lingers == "blocks"
    assert a.weapon("gas_grenade").lingers == "slows" and a.weapon("katanote").sweep
    assert a.weapon("pistol").dual and a.weapon("smg").dual and not a.weapon("blunderbuss").dual
    armour = {x.id: (x.cancels_surprise, x.pupae_minus_against) for x in a.armour}
    assert armour["backpack"] == (True, ())
    assert armour["kevlar"] == (False, ("short", "long"))
    assert set(armour["metakevlar"][1]) == {"close", "short", "long", "heavy"}


def test_a_heavy_weapon_without_ammunition_is_refused():
    """Limited Ammunition: every heavy weapon counts its shots."""
    with pytest.raises(ValidationError):
        Weapon(id="x", name="X", type="heavy", range=4, rof=1, pupae={"dice": 4})


def test_event_decks_twelve_cards_each_with_timing(content):
    """Event Cards: twelve papal and twelve rebel cards, each with the moment it is played."""
    ev = content.events
    assert len(ev.deck("papal")) == len(ev.deck("rebel")) == 12
    assert all(c.timing in ev.timings for c in ev.cards)
    titles = [c.title for c in ev.deck("rebel")]
    assert titles.count("¡¡Cli-cli-clik!!") == 2
    bad = json.loads(json.dumps(_read("events.json")))
    bad["cards"] = bad["cards"][1:]
    with pytest.raises(ValidationError):
        Events.model_validate(bad)


def test_scenarios(content):
    """Scenarios 1-6: boards, forces, reinforcements, turn limits, command distance, markers."""
    sc = {s.number: s for s in content.scenarios}
    assert [p.board for p in sc[5].boards] == [6, 7, 8]
    assert [(p.col, p.row) for p in sc[4].boards] == [(0, 0), (1, 0)]
    assert sc[1].turn_limit == sc[5].turn_limit == 12
    assert sc[6].placement is not None and sc[6].placement.boards == 4
    assert [f.from_turn for f in sc[4].forces] == [1, 2, 1]
    assert [f.from_turn for f in sc[5].forces if f.squad == "fanhunters"] == [8]
    assert sc[3].forces[0].command_distance == 4
    assert sc[4].hidden_markers.markers == ("decoy", "decoy", "secret_passage")
    assert sorted(sc[6].hidden_markers.markers) == ["decoy", "decoy", "secret_passage",
                                                   "teddy_bear"]
    assert any(v.side is None for v in sc[4].victory)  # the draw
