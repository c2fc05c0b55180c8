"""The Batallitas renderer and narrator on real views and events: scenario positions built
directly and random-bot playouts of every scenario."""

import ast
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from partida.cli.render import renderer_for
from partida.cli.render.batallitas import card_title, grid, labels, render, summary
from partida.cli.render.batallitas_events import KINDS, Narrator
from partida.cli.render.generic import describe_event
from partida.engine.bots import RandomBot, play_match
from partida.games import batallitas as batallitas_pkg
from partida.games.batallitas import GAME, INFO
from partida.games.batallitas.state import DEAD
from partida.games.batallitas.world import scenario_map
from tests.unit.batallitas.positions import ScriptedRng, scenario_position
from tests.unit.batallitas.test_pairs import SCREW_UP, fan_with_pair

PLACED = {"s0.0": ((4, 2), "S"), "s0.1": ((5, 2), "E"), "s2.0": ((4, 7), "N"),
          "s2.1": ((2, 6), "W")}


def _text(renderable, width=160):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def _lines(view):
    return _text(grid(view)).splitlines()


def _at_edge(lines, key):
    """The characters drawn for a grid edge: line 0 is the column header, a cell takes three
    columns (its west edge, then two characters)."""
    kind, x, y = key
    if kind == "h":
        return lines[1 + 2 * y][3 + 3 * x + 1:3 + 3 * x + 3]
    return lines[2 + 2 * y][3 + 3 * x]


def _at_cell(lines, x, y):
    return lines[2 + 2 * y][3 + 3 * x + 1:3 + 3 * x + 3]


@pytest.fixture(scope="module")
def playouts():
    """Each scenario once with random bots: final states and every event as each seat got it."""
    out = {}
    for sc in INFO.scenarios:
        seen = []

        def observe(state, seat, action, events, seen=seen):
            seen.extend(e.for_seat(s) for e in events for s in (0, 1))

        state, _ = play_match(GAME, sc.id, [RandomBot(), RandomBot()], 3, {}, observe=observe)
        out[sc.id] = (state, [e for e in seen if e is not None])
    return out


def test_batallitas_has_its_own_renderer():
    chosen = renderer_for("batallitas")
    assert chosen.render is render and chosen.narrator is Narrator and chosen.summary is summary


def test_walls_and_doors_are_drawn_and_a_door_shows_whether_it_is_open():
    """Rulebook "Walls and doors", "Doors", "Double doors": walls are drawn; a door is drawn
    shut until it is opened, and a double door's leaf opens alone."""
    game, s = scenario_position("last_game", PLACED)
    m = scenario_map("last_game")
    wall = next(k for k in sorted(m.walls) if k[0] == "v" and 0 < k[1] < m.width)
    double = next(d for d in m.doors if len(d.edges) == 2)
    single = next(d for d in m.doors if len(d.edges) == 1)
    shut = _lines(game.view(s, 0))
    assert _at_edge(shut, wall) == "|"
    assert all(set(_at_edge(shut, k)) == {"#"} for k in (*double.edges, *single.edges))
    s.open_doors = [single.id]
    s.open_leaves = [[double.id, 1]]
    opened = _lines(game.view(s, 0))
    assert set(_at_edge(opened, single.edges[0])) == {":"}
    assert set(_at_edge(opened, double.edges[0])) == {"#"}
    assert set(_at_edge(opened, double.edges[1])) == {":"}


def test_noses_stand_at_their_cells_with_their_squad_and_the_dead_are_off_the_map():
    """Rulebook "Basic Game Concepts": each nose stands in one cell; a nose that loses its
    last pupa is out ("Pupae"), and a wounded one shows its pupae left."""
    game, s = scenario_position("last_game", PLACED)
    s.nose("s2.1").pupae = 1
    s.nose("s0.1").status = DEAD
    view = game.view(s, 0)
    marks = labels(view)
    lines = _lines(view)
    assert _at_cell(lines, 4, 2) == marks["s0.0"] and marks["s0.0"][0] == "A"
    assert _at_cell(lines, 4, 7) == marks["s2.0"] and marks["s2.0"][0].islower()
    assert _at_cell(lines, 5, 2) != marks["s0.1"]
    text = _text(render(view))
    row = next(line for line in text.splitlines() if line.strip().startswith(marks["s2.1"]))
    assert "WOUNDED" in row and "1/" in row and "2,6 W" in row
    dead = next(line for line in text.splitlines() if line.strip().startswith(marks["s0.1"]))
    assert "OUT (dead)" in dead


def test_the_active_nose_and_its_action_points():
    """Rulebook "Turn Order and Initiative" and "Actions": the acting nose and the points it
    has left are on the status line."""
    game, s = scenario_position("last_game", PLACED)
    s.nose("s0.0").spent = 2
    view = game.view(s, 0)
    actions = s.nose("s0.0").attrs["actions"]
    assert f"active nose: {labels(view)['s0.0']} Macute sergeant ({actions - 2} action points" \
        in _text(render(view))


def test_a_seat_reads_its_own_event_cards_and_never_the_others():
    """Rulebook "Event cards" and RULES.md "Hidden information": a hand is seen by its
    holder only; the other seat's shows as a count."""
    game, s = scenario_position("last_game", PLACED)
    s.hands = [["papal_rights", "papal_traitor"], ["rebel_rolex", "rebel_milu"]]
    papal = [card_title(c) for c in s.hands[0]]
    rebel = [card_title(c) for c in s.hands[1]]
    mine, theirs = _text(render(game.view(s, 0))), _text(render(game.view(s, 1)))
    assert all(t in mine for t in papal) and not any(t in mine for t in rebel)
    assert all(t in theirs for t in rebel) and not any(t in theirs for t in papal)
    assert "seat 0 2, seat 1 2" in mine
    spectator = _text(render(game.view(s, None)))
    assert not any(t in spectator for t in papal + rebel)


def test_a_face_down_marker_is_named_only_to_its_owner():
    """RULES.md "Hidden information": a face-down marker's identity is its owner's."""
    game, s = scenario_position("last_game", PLACED)
    s.markers = [{"kind": "secret_passage", "pos": [1, 1], "face_down": True, "owner": "rebel"}]
    owner = s.sides.index("rebel")
    assert "secret passage at 1,1" in _text(render(game.view(s, owner)))
    other = _text(render(game.view(s, 1 - owner)))
    assert "face-down marker at 1,1" in other and "secret passage" not in other
    assert _at_cell(_lines(game.view(s, 1 - owner)), 1, 1) == "<>"


def test_every_event_kind_the_engine_writes_has_a_sentence():
    """Every kind written in the engine's sources, the doors' and flaps' open/closed pairs and
    the videogame's verbs (written through an f-string) included."""
    folder = Path(batallitas_pkg.__file__).parent
    written = set()
    for path in folder.glob("*.py"):
        src = path.read_text()
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Event":
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    written.add(first.value)
                elif isinstance(first, ast.IfExp):
                    written |= {first.body.value, first.orelse.value}
                else:                                   # f"videogame_{verb}"
                    assert isinstance(first, ast.JoinedStr), ast.dump(first)
                    prefix = first.values[0].value
                    verbs = set(re.findall(r'"videogame:(\w+)', src))
                    assert prefix == "videogame_" and verbs
                    written |= {prefix + v for v in verbs}
    assert len(written) > 60 and written - {"action"} <= KINDS


def test_every_event_of_the_playouts_is_told_in_words(playouts):
    """Every event each seat received in a random match of each scenario gets its own
    sentence, never the raw fallback; the `action` event is left to the caller."""
    kinds = set()
    for state, events in playouts.values():
        narrator = Narrator()
        narrator.learn(GAME.view(state, None))
        for e in events:
            said = narrator.line(e.kind, e.data)
            if e.kind == "action":
                assert said is None
                continue
            assert said and said != describe_event(e.kind, e.data), (e.kind, e.data)
            kinds.add(e.kind)
    assert {"moved", "shot", "blow", "pupae_lost", "turn_started", "match_over"} <= kinds


def test_the_narrator_names_noses_by_their_map_label():
    game, s = scenario_position("last_game", PLACED)
    narrator = Narrator()
    view = game.view(s, 0)
    narrator.learn(view)
    said = narrator.line("moved", {"nose": "s2.0", "from": [4, 7], "to": [4, 6], "cost": 1})
    assert said == f"{labels(view)['s2.0']} Lethal Fan (DJ) moves to 4,6 (1 points)"
    hidden = narrator.line("cards_dealt", {"seat": 1, "count": 2})
    assert hidden == "Seat 1 is dealt 2 event cards, face down"
    assert narrator.line("comet", {"size": 3}) == "comet: size=3"


def test_summary_names_the_winner(playouts):
    """Every scenario ends with a side's victory ("Scenarios")."""
    for state, _ in playouts.values():
        outcome = GAME.outcome(state)
        view = GAME.view(state, None)
        out = summary(view, outcome)
        if outcome.draw:
            assert out.startswith("Outcome: draw")
        else:
            assert out.startswith(f"Outcome: {state.result['side']} won (seat "
                                  f"{outcome.winners[0]}")
        assert "MATCH OVER" in _text(render(view))



def _nose_row(view, nid):
    label = labels(view)[nid]
    return next(line for line in _text(render(view)).splitlines()
                if line.strip().startswith(label + " "))


def test_a_pair_reads_as_one_weapon_and_a_half_jammed_pair_says_how_many_are_jammed():
    """Rulebook "Pistols" / "Submachine guns": a nose may carry two and fire them as one; a
    screw-up jams only one of them (RULES.md, "Pairs of pistols or submachine guns")."""
    game, s, _ = fan_with_pair()
    row = _nose_row(game.view(s, 1), "s2.1")
    assert "2× Submachine gun" in row and "JAMMED" not in row
    game.apply(s, 1, "fire:smg:3,2", ScriptedRng(*SCREW_UP))
    assert "1 of 2 JAMMED" in _nose_row(game.view(s, 1), "s2.1")
