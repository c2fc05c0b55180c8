"""The Bandas renderer and narrator on real views and events: positions built directly on the
content's tables and random-bot playouts of every table. Rulebook sections are cited by their
Spanish headings, as the game's RULES.md does."""

import ast
import io
from pathlib import Path

import pytest
from rich.console import Console

from partida.cli.render import renderer_for
from partida.cli.render.bandas import (
    CM_PER_COLUMN,
    CM_PER_ROW,
    TERRAIN,
    labels,
    render,
    summary,
    table_grid,
)
from partida.cli.render.bandas_events import KINDS, Narrator
from partida.cli.render.generic import describe_event
from partida.engine.bots import RandomBot, play_match
from partida.games import bandas as bandas_pkg
from partida.games.bandas import INFO
from partida.games.bandas.state import DOWN, OUT, STUNNED
from tests.unit.bandas.positions import GAME, activate, arena


def _text(renderable, width=200):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def _at(view, x, y):
    """The character drawn for the point (x, y) cm: below the scale line and the top border,
    after the four characters of the row's label."""
    lines = _text(table_grid(view)).splitlines()
    return lines[2 + int(y // CM_PER_ROW)][4 + int(x // CM_PER_COLUMN)]


def _row(text, name):
    return next(line for line in text.splitlines() if f" {name} " in line)


@pytest.fixture(scope="module")
def playouts():
    """Each table once with random bots: final states and every event."""
    out = {}
    for sc in INFO.scenarios:
        seen = []
        state, _ = play_match(GAME, sc.id, [RandomBot()] * sc.min_seats, 1, {},
                              observe=lambda s, seat, a, events, seen=seen: seen.extend(events))
        out[sc.id] = (state, seen)
    return out


def test_bandas_has_its_own_renderer():
    chosen = renderer_for("bandas")
    assert chosen.render is render and chosen.narrator is Narrator and chosen.summary is summary


def test_models_stand_at_their_rounded_places_lettered_by_gang():
    """Rulebook "Movimiento": models stand anywhere on the table, measured in centimetres; each
    is drawn in the character its point falls in, seat 0 in capitals, seat 1 in lower case.
    A model out of action ("Heridas") is no longer drawn."""
    s = arena(keep={"ch_jefa": (11, 5), "ch_pico": (30, 80), "mu_grumo": (101, 81),
                    "mu_sarna": (21, 85)})
    s.models["mu_sarna"]["status"] = OUT
    view = GAME.view(s, 0)
    marks = labels(view)
    assert _at(view, 11, 5) == marks["ch_jefa"] and marks["ch_jefa"].isupper()
    assert _at(view, 101, 81) == marks["mu_grumo"] and marks["mu_grumo"].islower()
    assert _at(view, 21, 85) == " "
    s.models["ch_pico"].update(x=11.5, y=6.0)       # two models in one character
    assert _at(GAME.view(s, 0), 11, 5) == "*"


def test_terrain_pieces_are_drawn_a_thin_wall_included():
    """Rulebook "Línea de visión y coberturas": buildings, walls, solid pieces and light
    scenery are told apart; the 1 cm wall of the street fight still shows."""
    view = GAME.view(arena(keep={"ch_jefa": (5, 5)}), 0)
    assert _at(view, 50, 20) == TERRAIN["building"]        # taberna, 40-60 x 10-30
    assert _at(view, 30.5, 55) == TERRAIN["wall"]          # muro_oeste, 30-31 x 45-65
    assert _at(view, 54, 44) == TERRAIN["solid"]           # coche
    assert _at(view, 22, 22) == TERRAIN["light"]           # bidones
    assert _at(view, 10, 80) == " "


def test_vehicles_crews_and_crates():
    """Rulebook "Acciones de abordaje": riders are aboard their vehicle (drawn at its centre,
    named in the vehicle's crew); crates lie where they are (the scramble's loot)."""
    s = arena("convoy_ambush", keep={}, vehicles={"ca_camion": (60, 45, 0)})
    s.loot = [[90.0, 10.0]]
    view = GAME.view(s, 0)
    driver = next(m for m in s.models.values() if m["vehicle"] == "ca_camion"
                  and m["role"] == "driver")
    assert _at(view, 60, 45) in (labels(view)[driver["id"]], "*")
    assert _at(view, 56, 45) == "="
    assert _at(view, 90, 10) == "$"
    text = _text(render(view))
    vehicle = next(line for line in text.splitlines() if line.strip().startswith("El Camión"))
    assert f"{driver['name']} (driver)" in vehicle and "truck" in vehicle
    assert "in El Camión (driver)" in _row(text, driver["name"])


def test_the_roster_shows_each_models_state_weapons_and_ammunition():
    """Rulebook "Heridas" (down, stunned, out), "Escopetas" (the shells chosen on the sheet)
    and "Blindajes" (the armour worn)."""
    s = arena(keep={"ch_jefa": (5, 5), "ch_tuerca": (10, 10), "mu_grumo": (100, 80),
                    "mu_sarna": (90, 80)})
    s.models["ch_jefa"]["status"] = DOWN
    s.models["mu_grumo"]["status"] = STUNNED
    s.models["mu_sarna"]["status"] = OUT
    text = _text(render(GAME.view(s, 0)))
    assert "DOWN" in _row(text, s.models["ch_jefa"]["name"])
    assert "STUNNED" in _row(text, s.models["mu_grumo"]["name"])
    assert "OUT of action" in _row(text, s.models["mu_sarna"]["name"])
    tuerca = _row(text, s.models["ch_tuerca"]["name"])
    assert "shotgun (piercing)" in tuerca and "improvised" in tuerca


def test_a_weapon_that_must_reload_is_marked():
    """Rulebook "Bazuka de pulsos": after firing it must be reloaded."""
    s = arena("convoy_ambush", keep={"em_bum": (77, 15)})
    s.models["em_bum"]["reload"] = "pulse_bazooka"
    assert "pulse bazooka MUST RELOAD" in _text(render(GAME.view(s, 0)))


def test_status_shows_turn_initiative_and_the_activation():
    """Rulebook, the opening: initiative order each turn, then one unit activated at a time
    with its actions ("Acciones")."""
    s = arena(keep={"ch_jefa": (5, 5), "mu_grumo": (100, 80)})
    s.turn, s.order = 3, [1, 0]
    activate(s, "ch_jefa")
    text = _text(render(GAME.view(s, 0)))
    assert "turn 3/8" in text and "initiative: seat 1 then seat 0" in text
    assert f"Activating: {s.models['ch_jefa']['name']} (3 actions left)" in text


def test_every_seat_sees_the_same_table():
    """RULES.md: the book hides nothing, so every seat's picture is the same."""
    s = arena(keep={"ch_jefa": (5, 5), "mu_grumo": (100, 80)})
    assert _text(render(GAME.view(s, 0))) == _text(render(GAME.view(s, 1))) \
        == _text(render(GAME.view(s, None)))


def test_every_event_kind_the_engine_writes_has_a_sentence():
    written = set()
    for path in Path(bandas_pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Event":
                first = node.args[0]
                written |= ({first.body.value, first.orelse.value}
                            if isinstance(first, ast.IfExp) else {first.value})
    assert len(written) > 35 and written <= KINDS


def test_every_event_of_the_playouts_is_told_in_words(playouts):
    kinds = set()
    for state, events in playouts.values():
        narrator = Narrator()
        narrator.learn(GAME.view(state, None))
        for e in events:
            said = narrator.line(e.kind, e.data)
            assert said and said != describe_event(e.kind, e.data), (e.kind, e.data)
            kinds.add(e.kind)
    assert {"moved", "drove", "initiative", "match_over"} <= kinds
    assert narrator.line("comet", {"size": 3}) == "comet: size=3"


def test_the_narrator_names_models_and_vehicles():
    s = arena("convoy_ambush", keep={"em_bum": (77, 15)}, vehicles={"ca_camion": (60, 45, 0)})
    narrator = Narrator()
    narrator.learn(GAME.view(s, None))
    said = narrator.line("harpooned", {"model": "em_bum", "vehicle": "ca_camion"})
    assert said == f"{s.models['em_bum']['name']} harpoons El Camión"


def test_summary_names_the_winner(playouts):
    """Every table ends with a winner or a draw at the turn limit (RULES.md decisions)."""
    winners = 0
    for state, _ in playouts.values():
        outcome = GAME.outcome(state)
        out = summary(GAME.view(state, None), outcome)
        if outcome.draw:
            assert out.startswith("Outcome: draw: ")
        else:
            winners += 1
            assert f"(seat {outcome.winners[0]})" in out and " won " in out
        assert "MATCH OVER" in _text(render(GAME.view(state, None)))
    assert winners
