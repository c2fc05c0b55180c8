"""Area-effect weapons (Shooting: Area-Effect Weapons, Shooting Restrictions, Automatic pupae,
Rule number 3; Arsenal: Flamethrower, Grenades), every position built directly, dice scripted.

Scripted dice run in order: the shot's pool then its infernal die, the scatter die on a miss,
then the pupae dice of each nose under the marker, the centre first, then row by row."""

from partida.engine import LocalRng
from partida.games.batallitas import area
from partida.games.batallitas.geometry import line_of_sight
from partida.games.batallitas.movement import can_step, step_cost
from partida.games.batallitas.world import field_of

from .positions import ScriptedRng, acting, field, game_position, ids

OPEN = ["........"] * 8
HIT, MISS, SCREW_UP = (5, 1, 1, 3), (1, 2, 2, 3), (1, 2, 2, 1)  # DJ: 3 dice + infernal


def dj_position(placed):
    """The Fans' leader (a DJ: Shooting 3, two fragmentation grenades) at (3,7) facing north."""
    game, s = game_position(OPEN, {"s2.0": ((3, 7), "N"), **placed})
    acting(s, "s2.0")
    return game, s


def flamer(s, nid="s2.1"):
    n = s.nose(nid)
    n.weapons.append("flamethrower")
    n.ammo["flamethrower"], n.spares["flamethrower"] = 6, 1
    return n


def test_a_grenade_is_offered_at_enemies_and_the_cells_next_to_them():
    """Area-Effect Weapons: the blast reaches the cells round the impact, so cells next to an
    enemy are worth listing too (RULES.md decision); a grenade is heavy: 3 points."""
    game, s = dj_position({"s0.1": ((3, 3), "S")})
    offered = [a for a in ids(game, s) if a.startswith("fire:frag_grenade:")]
    assert "fire:frag_grenade:3,3" in offered and "fire:frag_grenade:4,4" in offered
    assert "fire:frag_grenade:6,6" not in offered
    game.apply(s, 1, "fire:frag_grenade:4,4", ScriptedRng(*HIT, 1, 1, 1))
    assert s.nose("s2.0").grenades == {"frag_grenade": 1}
    assert s.squads[2].pool_spent == 3


def test_a_hit_gives_the_centre_full_dice_and_the_neighbours_one_fewer():
    """Area-Effect Weapons: the nose in the centre cell takes the weapon's pupae dice, the
    others under the marker one die fewer; a fragmentation grenade's marker goes at once."""
    game, s = dj_position({"s0.1": ((3, 3), "S"), "s0.2": ((4, 3), "S")})
    game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng(*HIT, 5, 5, 1, 1, 1, 1, 5))
    assert s.nose("s0.1").status == "dead"  # 4 dice, two 5s
    assert s.nose("s0.2").pupae == 1  # 3 dice, one 5
    assert s.blasts == []


def test_the_pupae_dice_in_a_blast():
    """Area-Effect Weapons: 4 dice in the centre, 3 next to it (the events show them)."""
    game, s = dj_position({"s0.1": ((3, 3), "S"), "s0.2": ((4, 3), "S")})
    ev = game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng(*HIT, 1, 1, 1, 1, 1, 1, 1))
    rolls = {e.data["target"]: e.data["dice"] for e in ev if e.kind == "pupae_roll"}
    assert rolls == {"s0.1": 4, "s0.2": 3}


def test_a_critical_gives_everyone_in_the_blast_an_automatic_pupa():
    """Automatic pupae: with area weapons the extra pupa goes to all those the blast affects."""
    game, s = dj_position({"s0.1": ((3, 3), "S"), "s0.2": ((4, 2), "S")})
    game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng(5, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1))
    assert s.nose("s0.1").pupae == 1 and s.nose("s0.2").pupae == 1


def test_walls_shield_the_cells_beyond_them():
    """Area-Effect Weapons: cells of the marker on the far side of a wall from the centre are
    not affected; a corner cell is shielded when both side routes are walled (RULES.md)."""
    grid = ["+-+-+-+-+",
            "|. . . .|",
            "+       +",
            "|. .|. .|",
            "+       +",
            "|. .|. .|",
            "+-+-+-+-+"]
    f = field(grid)
    cells = set(area.template(f, (1, 1)))
    assert (2, 1) not in cells  # behind the wall east of the centre
    assert (2, 2) not in cells  # corner: the wall runs through it on both routes
    assert (2, 0) in cells  # corner with one open route (north of the wall's end)
    assert {(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)} <= cells
    assert area.template(f, (0, 0)) == [(0, 0), (1, 0), (0, 1), (1, 1)]  # the board's corner


def test_a_miss_scatters_in_the_direction_the_shooter_picks():
    """Area-Effect Weapons: a plain miss flies a die's worth of cells in a straight line, in the
    direction chosen by the side that fired; it may land next to the shooter (Shooting
    Restrictions) and hurt its own side."""
    game, s = dj_position({"s0.1": ((3, 3), "S"), "s2.1": ((2, 6), "N")})
    game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng(*MISS, 3))
    assert game.to_act(s) == (1,)
    assert [a for a in ids(game, s)] == [f"scatter:{d}" for d in area.DIRECTIONS]
    assert s.nose("s2.0").grenades == {"frag_grenade": 1} and s.nose("s2.0").jammed == []
    ev = game.apply(s, 1, "scatter:S", ScriptedRng(1, 1, 5, 5, 1, 1))
    assert next(e.data for e in ev if e.kind == "scattered")["cell"] == [3, 6]
    assert [e.data["target"] for e in ev if e.kind == "pupae_roll"] == ["s2.1", "s2.0"]
    assert s.nose("s2.1").pupae == 1 and s.nose("s2.0").pupae == 2
    assert s.nose("s0.1").pupae == 2


def test_a_screw_up_scatters_where_the_enemy_picks_and_does_not_jam():
    """Area-Effect Weapons: on a screw-up the opponent chooses the direction; area weapons never
    jam."""
    game, s = dj_position({"s0.1": ((3, 3), "S")})
    game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng(*SCREW_UP, 2))
    assert game.to_act(s) == (0,) and "scatter:E" in ids(game, s, 0)
    assert game.default_action(s, 0) == "scatter:N"
    game.apply(s, 0, "scatter:E", LocalRng(0))
    assert s.nose("s2.0").jammed == [] and game.to_act(s) == (1,)


def test_scatters_rebound_off_edges_walls_and_major_obstructions():
    """Area-Effect Weapons and ricochets (diagrams lost; RULES.md decision): straight back when
    flying orthogonally; flying diagonally only the blocked component turns, both in a corner;
    minor obstructions do not stop it."""
    f = field(["........", "........", "........", "...N....", "...n...."])
    assert area.scatter_path(f, (1, 1), "W", 3) == [(0, 1), (1, 1), (2, 1)]
    assert area.scatter_path(f, (1, 3), "NW", 3) == [(0, 2), (1, 1), (2, 0)]
    assert area.scatter_path(f, (1, 1), "NW", 2) == [(0, 0), (1, 1)]
    assert area.scatter_path(f, (1, 3), "E", 3) == [(2, 3), (1, 3), (0, 3)]  # major at (3,3)
    assert area.scatter_path(f, (1, 4), "E", 3) == [(2, 4), (3, 4), (4, 4)]  # minor: flies over
    walled = field(["+-+-+-+",
                    "|. .|.|",
                    "+     +",
                    "|. .|.|",
                    "+     +",
                    "|. . .|",
                    "+-+-+-+"])
    assert area.scatter_path(walled, (0, 0), "E", 3) == [(1, 0), (0, 0), (1, 0)]
    assert area.scatter_path(walled, (0, 2), "NE", 3) == [(1, 1), (0, 0), (1, 1)]


def test_a_leader_is_aimed_at_only_as_nearest_but_a_blast_still_catches_it():
    """Rule number 3: area weapons obey the nearest-enemy rule for the cell aimed at, yet the
    leader may be hurt by a blast in the next cell."""
    game, s = dj_position({"s0.0": ((3, 3), "S"), "s0.1": ((0, 6), "E")})
    offered = ids(game, s)
    assert "fire:frag_grenade:3,3" not in offered and "fire:frag_grenade:3,4" in offered
    ev = game.apply(s, 1, "fire:frag_grenade:3,4", ScriptedRng(*HIT, 5, 5, 5))
    assert [e.data["target"] for e in ev if e.kind == "pupae_roll"] == ["s0.0"]
    assert s.nose("s0.0").status == "dead"


def test_a_flamethrower_template_lingers_blocking_steps_and_sight_until_its_squad_returns():
    """Flamethrower: its marker stays until the firing squad's next activation, blocks sight and
    cannot be entered."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s0.1": ((0, 0), "S"),
                                   "s0.2": ((6, 1), "S")})
    flamer(s)
    acting(s, "s2.1")
    game.apply(s, 1, "fire:flamethrower:3,3", ScriptedRng(5, 1, 3))
    f = field_of(s)
    assert len(s.blasts) == 9 and all(b["kind"] == "blocks" for b in s.blasts)
    assert not can_step(f, (3, 5), (3, 4)) and not line_of_sight(f, (3, 5), (3, 1))
    assert s.nose("s2.1").ammo["flamethrower"] == 5
    acting(s, "s0.1")
    assert len(s.blasts) == 9  # another squad's activation leaves it
    acting(s, "s2.1")
    assert s.blasts == []


def test_tear_gas_lingers_costing_one_more_and_stunning():
    """Tear gas grenades: contusion (pájaras, not pupae), 3 dice; the marker lingers a turn,
    blocks sight and costs +1 to enter, on top of an obstacle."""
    rows = ["........", "........", "...,....", "........"] + ["........"] * 4
    game, s = game_position(rows, {"s2.0": ((3, 7), "N"), "s0.1": ((3, 3), "S")})
    s.nose("s2.0").grenades = {"gas_grenade": 2}
    acting(s, "s2.0")
    ev = game.apply(s, 1, "fire:gas_grenade:3,3", ScriptedRng(*HIT, 5, 1, 1))
    assert [e.data["dice"] for e in ev if e.kind == "pupae_roll"] == [3]
    assert s.nose("s0.1").pajara and s.nose("s0.1").pupae == 2
    f = field_of(s)
    assert {b["kind"] for b in s.blasts} == {"slows"}
    assert step_cost(f, (3, 5), "N", (3, 4)) == 1 + 1
    assert step_cost(f, (3, 1), "S", (3, 2)) == 1 + 1 + 1  # obstacle and gas
    assert not line_of_sight(f, (3, 5), (3, 1))


def test_the_flamethrower_blows_up_on_its_second_screw_up():
    """Flamethrower: the first screw-up is noted (and scatters at the enemy's choice); on the
    second nothing is fired, a flamethrower impact lands on the wielder, who takes four pupae
    outright while the others under it roll as usual (RULES.md: the weapon is gone)."""
    game, s = game_position(OPEN, {"s2.1": ((3, 7), "N"), "s2.2": ((4, 7), "N"),
                                   "s0.1": ((3, 4), "S")})
    fl = flamer(s)
    fl.attrs["actions"] = 8
    fl.flaws.remove("hate")  # about the flamethrower: the Macute would draw a hateful charge
    acting(s, "s2.1")
    game.apply(s, 1, "fire:flamethrower:3,4", ScriptedRng(1, 2, 1, 3))
    assert fl.overheats == 1 and fl.jammed == [] and game.to_act(s) == (0,)
    game.apply(s, 0, "scatter:N", LocalRng(0))  # lands at (3,1), nobody near
    s.blasts = []
    ev = game.apply(s, 1, "fire:flamethrower:3,4", ScriptedRng(1, 2, 1, 5, 5, 1))
    assert any(e.kind == "flamethrower_exploded" for e in ev)
    assert fl.status == "dead" and "flamethrower" not in fl.weapons
    assert [e.data["target"] for e in ev if e.kind == "pupae_roll"] == ["s2.2"]
    assert s.nose("s2.2").status == "dead"
    assert {tuple(b["pos"]) for b in s.blasts} >= {(3, 7), (4, 7)}


def test_a_pending_scatter_passes_the_engine_checks():
    """The scatter decision as the engine sees it: offered to one seat, with a legal default,
    serialized, viewed and cloned like any other state."""
    from partida.engine import conformance as kit

    game, s = dj_position({"s0.1": ((3, 3), "S")})
    game.apply(s, 1, "fire:frag_grenade:3,3", ScriptedRng(*SCREW_UP, 4))
    kit.check_decisions(game, s, 2)
    kit.check_default_legal(game, s)
    kit.check_serialization_detached(game, s)
    kit.check_clone_independent(game, s, limit=3)
    kit.check_views_json(game, s, 2)
