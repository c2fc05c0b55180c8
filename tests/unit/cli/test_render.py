"""The renderers and the input parser: pure functions, no terminal."""

import io

import pytest
from rich.console import Console

from partida.cli.prompt import DEFAULT, QUIT, Choice, ask, parse_choice
from partida.cli.render import GENERIC, renderer_for
from partida.cli.render.montanas import band_squares, board, monster_code, render, status
from partida.cli.render.montanas_events import Narrator
from partida.engine import LocalRng
from partida.games.montanas import Montanas


def _text(renderable, width=100):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


@pytest.fixture
def game():
    return Montanas()


@pytest.fixture
def state(game):
    return game.new_state("standard", 3, {}, LocalRng(7))


def _row(text, label):
    """The cells of the board row whose label is `label` (e.g. 'long  0')."""
    line = next(line for line in text.splitlines() if line.strip().startswith(label))
    return line.strip()[len(label):].split()


def test_header_shows_the_alley_terrains_in_order(game, state):
    text = _text(render(game.view(state, None)))
    header = next(line for line in text.splitlines() if "square" in line)
    cols = [header.index(f"{n} {t}") for n, t in
            enumerate(("water", "water", "snow", "snow", "ice", "ice"), 1)]
    assert cols == sorted(cols)


def test_set_up_monsters_stand_in_their_alley_at_the_access_edge(game, state):
    assert len(state.monsters) == 6 and {m.square for m in state.monsters} == {0}
    text = _text(render(game.view(state, None)))
    expected = []
    for alley in range(1, 7):
        codes = [f"{monster_code(m.kind)}{m.life}" for m in state.monsters if m.alley == alley]
        expected.extend(codes or ["·"])
    assert _row(text, "long  0") == expected
    assert _row(text, "long  1") == ["·"] * 6


def test_monsters_are_drawn_in_their_square_and_inside_the_ship(game, state):
    a, b, c = state.monsters[:3]
    a.alley, a.square, a.kind, a.life = 2, 5, "trooper", 2
    b.alley, b.square, b.kind, b.life = 6, 11, "super", 4
    c.alley, c.square, c.kind, c.life = 4, 12, "strong", 3  # square 12: inside, section 4
    state.destroyed[2] = True
    state.barricades[0] = "front"
    text = _text(render(game.view(state, None)))
    assert _row(text, "medium  5") == ["·", "T2", "·", "·", "·", "·"]
    assert _row(text, "short 11") == ["·", "·", "·", "·", "·", "Su4"]
    assert _row(text, "in ship") == ["·", "·", "·", "S3", "·", "·"]
    assert _row(text, "section") == ["ok", "ok", "wrecked", "ok", "ok", "ok"]
    assert _row(text, "barricade")[0] == "front"


def test_hands_turn_and_counts_are_shown(game, state):
    view = game.view(state, None)
    text = _text(render(view))
    for hand in view["hands"]:
        for card in hand:
            assert card["name"].split(" (")[0] in text
    assert f"Deck {view['deck_count']}" in text
    assert "killed 0/43" in text
    assert f"active seat {view['active']}" in text and "phase deploy" in text


def test_board_and_status_need_less_than_100_columns(game, state):
    view = game.view(state, None)
    for part in (board(view), status(view)):
        text = _text(part, width=300)
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 100


def test_band_squares_follow_the_views_bands(game, state):
    view = game.view(state, None)
    rows = band_squares(view)
    assert rows[:5] == [("long", 0), ("long", 1), ("long", 2), ("long", 3), ("medium", 4)]
    assert [sq for _, sq in rows] == list(range(view["alley_squares"]))
    view["bands"] = [{"band": "long", "squares": 1}, {"band": "short", "squares": 2}]
    assert band_squares(view) == [("long", 0), ("short", 1), ("short", 2)]


def test_renderer_is_chosen_by_game_id():
    assert renderer_for("montanas").render is render
    assert renderer_for("no-such-game") is GENERIC
    assert '"turn": 3' in _text(GENERIC.render({"turn": 3}))


def test_narrator_names_dice_monsters_and_cards(game, state):
    n = Narrator()
    n.learn(game.view(state, None))
    m = state.monsters[0]
    card = state.hands[0][0]
    assert n.line("monster_dice", {"red": 1, "blue": 5, "white": 6}) == \
        "Monster dice: red 1 · blue 5 · white 6"
    assert n.line("monster_enters", {"monster": 99, "kind": "very_strong", "alley": 5,
                                     "red_die": 5, "life": 4}) == \
        "Red die 5: Very Strong #99 (4 life) enters alley 5 (ice)"
    assert n.line("monster_killed", {"monster": m.id, "kind": m.kind}).startswith(
        m.kind.replace("_", " ").title())
    assert game.content.cards[card].name in n.line("card_drawn", {"seat": 0, "card": card})
    assert n.line("roll_off", {"rolls": {"0": 2, "2": 5}}) == \
        "Roll-off for the next victim (lowest loses): seat 0 rolls 2, seat 2 rolls 5"
    assert n.line("action", {"seat": 0, "action": "end"}) is None
    assert n.line("something_new", {"x": 1}) == "something_new: x=1"


@pytest.mark.parametrize("text, count, expected", [
    ("1", 3, Choice(index=0)), (" 3 ", 3, Choice(index=2)), ("d", 3, Choice(special=DEFAULT)),
    ("Q", 3, Choice(special=QUIT)), ("4", 3, None), ("0", 3, None), ("x", 3, None),
    ("", 3, None), ("-1", 3, None), ("1.0", 3, None), ("²", 3, None),
])
def test_parse_choice(text, count, expected):
    assert parse_choice(text, count) == expected


def test_ask_reprompts_until_a_valid_answer_and_quits_at_end_of_input():
    lines = iter(["zz", "7", "2"])
    said = []
    assert ask(lambda p: next(lines), said.append, "> ", 3) == Choice(index=1)
    assert len(said) == 2
    assert ask(lambda p: None, said.append, "> ", 3) == Choice(special=QUIT)
