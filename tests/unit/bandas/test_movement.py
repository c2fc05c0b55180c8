"""Movement (Rulebook, Movimiento; Tipos de tropas: 10 cm; Piernas mecanizadas; Cosa enorme;
RULES.md: straight moves, heights climbed, light scenery, bases; continuous destinations)."""

import pytest

from partida.engine import IllegalAction
from partida.games.bandas import actions as A
from partida.games.bandas import geometry as G
from partida.games.bandas import world as W

from .positions import GAME, ScriptedRng, act, activate, arena


def moved(state, dest):
    try:
        GAME.validate(state, 0, f"move:{dest}")
        return True
    except IllegalAction:
        return False


def test_any_exact_point_within_reach_not_only_the_lattice():
    """Tipos de tropas: 10 cm per move action; apply takes any point written with one decimal."""
    state = arena(keep={"ch_pico": (60, 80), "mu_grumo": (112, 30)})
    activate(state, "ch_pico")
    lattice = {a.id for a in GAME.legal_actions(state, 0)}
    assert "move:69.9,80.0" not in lattice
    assert moved(state, "69.9,80.0") and moved(state, "66.0,88.0")   # 10.0 cm
    assert not moved(state, "70.2,80.0")
    assert not moved(state, "69.95,80.0") and not moved(state, "69.9,80") and \
        not moved(state, "nan,80.0")
    act(state, "move:69.9,80.0")
    assert (state.models["ch_pico"]["x"], state.models["ch_pico"]["y"]) == (69.9, 80.0)


def test_mechanised_legs_and_huge_change_the_reach():
    """Piernas mecanizadas: +5 cm per move; Cosa enorme: −3 cm."""
    state = arena(keep={"ch_jefa": (60, 80), "ch_pico": (30, 80), "mu_grumo": (112, 30)})
    activate(state, "ch_jefa")            # the gang's veteran has mechanised legs
    assert moved(state, "74.9,80.0") and not moved(state, "75.2,80.0")
    state.models["ch_pico"]["skills"] = ["huge"]
    activate(state, "ch_pico")
    assert moved(state, "37.0,80.0") and not moved(state, "37.2,80.0")


def test_walls_and_solid_pieces_block_light_scenery_does_not():
    """RULES.md movement: walls and solid pieces stop a straight move; hedges and barrels
    (light scenery, Línea de visión) do not."""
    state = arena(keep={"ch_pico": (27, 55), "ch_lata": (18, 22), "mu_grumo": (112, 30)})
    activate(state, "ch_pico")
    assert not moved(state, "35.0,55.0")          # through muro_oeste
    assert moved(state, "28.0,62.0")
    activate(state, "ch_lata")
    assert moved(state, "26.0,22.0")              # straight over the barrels
    assert moved(state, "22.0,22.0")              # and may stand among them
    state.models["ch_lata"].update(x=54.0, y=39.0)
    assert not moved(state, "54.0,48.5")          # through the burnt-out car (solid)


def test_climbing_a_roof_counts_its_height():
    """RULES.md movement and heights: reaching the 8 cm tavern roof costs 8 cm more."""
    state = arena(keep={"ch_jefa": (45, 32), "mu_grumo": (112, 30)})
    activate(state, "ch_jefa")            # 15 cm per move
    assert moved(state, "45.0,28.0")      # 4 + 8 = 12
    assert not moved(state, "45.0,22.0")  # 10 + 8 = 18
    act(state, "move:45.0,28.0")
    assert state.models["ch_jefa"]["roof"] == "taberna"


def test_bases_may_not_overlap():
    """RULES.md: 2.5 cm bases."""
    state = arena(keep={"ch_pico": (60, 80), "ch_lata": (65, 80), "mu_grumo": (112, 30)})
    activate(state, "ch_pico")
    assert not moved(state, "63.0,80.0") and moved(state, "62.5,80.0")


def test_a_model_that_got_up_from_down_does_not_move():
    """Heridas (see RULES.md): knocked down, at its next activation it stands but cannot move."""
    state = arena(keep={"ch_pico": (60, 80), "mu_grumo": (112, 30)})
    state.models["ch_pico"]["status"] = "down"
    ev = activate(state, "ch_pico")
    assert state.models["ch_pico"]["status"] == "standing"
    assert [e.data["now"] for e in ev if e.kind == "recovered"] == ["standing"]
    assert not any(a.id.startswith("move:") for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "move:62.0,80.0", ScriptedRng())


def test_the_lattice_offers_base_contact_and_roofs_within_reach():
    """ARCHITECTURE (continuous positions): legal_actions lists a lattice of reachable points:
    twelve directions, base contact with each enemy in reach, the nearest roof point."""
    state = arena(keep={"ch_jefa": (45, 34), "mu_baba": (52, 36)})
    activate(state, "ch_jefa")
    ids = [a.id for a in GAME.legal_actions(state, 0)]
    moves = [i for i in ids if i.startswith("move:")]
    assert len(moves) >= 12
    contact = [i for i in moves if abs(G.distance(A._xy(i[5:]), (52, 36)) - 2.7) < 0.1]
    assert contact
    roofs = [i for i in moves if G.roof_at(W.terrain("street_fight"), A._xy(i[5:]))]
    assert roofs
    for i in moves:
        GAME.validate(state, 0, i)


def test_crossing_and_base_room_at_the_edge_of_a_blocks_box():
    """Movimiento: a move through a block's inside is stopped and one that passes beside it
    is not; a base has no room where it would overlap a block, and has where it only touches
    it. Each is checked just inside and outside the block's bounding box, which the geometry
    uses to skip shapely calls."""
    square = G.Block("crate", G.polygon([(10, 10), (14, 10), (14, 14), (10, 14)]), 2.0)
    assert G.crosses(square, (9, 13.9), (15, 13.9))           # through, near the top edge
    assert not G.crosses(square, (9, 14.1), (15, 14.1))       # beside it
    assert G.crosses(square, (12, 12), (12, 12))              # standing inside
    assert not G.crosses(square, (15, 12), (15, 12))
    r = G.RADIUS
    assert G.base_overlaps((14 + r - 0.1, 12), [square])
    assert not G.base_overlaps((14 + r, 12), [square])        # touching the side
    assert not G.base_overlaps((14 + r + 0.1, 12), [square])
    assert not G.base_overlaps((10 - r + 0.1, 10 - r + 0.1), [square])  # off the corner
