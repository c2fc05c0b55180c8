"""The ¿Pasarán? renderer and narrator on real views and events: positions built directly and
a played-out seed with every optional rule on."""

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from partida.cli.render import renderer_for
from partida.cli.render.generic import describe_event
from partida.cli.render.pasaran import card_name, render, summary
from partida.cli.render.pasaran_events import KINDS, Narrator
from partida.engine import LocalRng
from partida.engine.bots import RandomBot, play_match
from partida.games import pasaran as pasaran_pkg
from partida.games.pasaran.rules import MOVE_VERBS
from tests.unit.pasaran.positions import GAME, empty, put

OPTIONS = {k: True for k in ("fog_of_war", "combat_chits", "trenches", "pinning",
                             "reassembling_backs", "alternating_initiative")}


def _text(renderable, width=200):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def _row(text, area):
    return next(line for line in text.splitlines() if line.strip().startswith(area + " "))


@pytest.fixture(scope="module")
def playout():
    """Seed 1 with every option: the final state and each event as both seats received it."""
    seen = []

    def observe(state, seat, action, events):
        seen.extend(e.for_seat(s) for e in events for s in (0, 1))

    state, _ = play_match(GAME, "campaign", [RandomBot(), RandomBot()], 1, OPTIONS,
                          observe=observe)
    return state, [e for e in seen if e is not None]


def test_pasaran_has_its_own_renderer():
    chosen = renderer_for("pasaran")
    assert chosen.render is render and chosen.narrator is Narrator and chosen.summary is summary


def test_status_shows_quarter_weather_initiative_and_each_sides_bp_and_income():
    """Rulebook 3.0 (the turn is a quarter), 5.2 (initiative and weather), 7.1 (income from
    the areas held): the head of the table reads them from the view."""
    s = empty("nat", weather="bad")
    s.turn, s.bp = 4, {"rep": 7, "nat": 12}
    view = GAME.view(s, 0)
    text = _text(render(view))
    assert "Q2 1937 (turn 4/12)" in text and "Weather: bad" in text
    assert "initiative: Nationalists" in text and "Nationalists act" in text
    rep = next(line for line in text.splitlines() if line.strip().startswith("Republicans "))
    assert rep.split()[1:3] == ["7", str(view["income"]["rep"])]
    assert view["income"]["rep"] > 0


def test_the_map_shows_holders_cities_and_the_stacks_in_area_and_city():
    """Rulebook 2.2: an area and the city inside it are held and stacked apart."""
    s = empty("rep")
    s.control["madrid"], s.city_control["madrid"] = "nat", "rep"
    put(s, "madrid", "n_reg1")
    put(s, "madrid.c", "r_mil1")
    put(s, "madrid", "r_mil2", face="back")
    lines = _text(render(GAME.view(s, 0))).splitlines()
    i = lines.index(_row("\n".join(lines), "Madrid"))
    area, more, city = lines[i], lines[i + 1], lines[i + 2]
    assert area.split()[1:5] == ["Nat", "3", "Nat:", "n_reg1"]
    assert "Rep: r_mil2 inf 1 (back)" in more
    assert city.split()[:5] == ["└", "Madrid", "(city)", "Rep", "r_mil1"]


def test_a_seat_reads_its_own_cards_and_chits_and_only_counts_of_the_others():
    """Rulebook 7.2 (cards are held secretly) and 9.4 (chits drawn in secret): each seat's
    render names its own hand, offer and chits; the other side's appear only as counts."""
    s = GAME.new_state("campaign", 2, {"combat_chits": True}, LocalRng(0))
    s.hands = {"rep": [{"card": "international_brigade", "turn": 1}],
               "nat": [{"card": "legion_condor", "turn": 2}]}
    s.offer = {"side": "nat", "cards": ["italian_corps", "fifth_column"]}
    s.chits["rep"]["hand"] = [s.chits["rep"]["cup"].pop()]
    s.chits["nat"]["hand"] = [s.chits["nat"]["cup"].pop(0)]
    rep_card, nat_cards = card_name("international_brigade"), [
        card_name(c) for c in ("legion_condor", "italian_corps", "fifth_column")]
    rep, nat = _text(render(GAME.view(s, 0))), _text(render(GAME.view(s, 1)))
    assert rep_card in rep and not any(c in rep for c in nat_cards)
    assert "2 card(s), face down" in rep
    assert all(c in nat for c in nat_cards) and rep_card not in nat
    assert f"Your chits drawn: {s.chits['rep']['hand'][0]}" in rep
    assert "Your chits drawn" not in _text(render(GAME.view(s, None)))
    assert "1 drawn" in rep


def test_fog_of_war_shows_the_top_enemy_unit_and_how_many_more():
    """Rulebook 9.2: of an enemy stack only the last unit to arrive is seen, with its size;
    the owner sees the whole stack."""
    s = empty("rep")
    s.options["fog_of_war"] = True
    put(s, "zaragoza", "n_reg1", "n_afr1", "n_reg2")    # n_reg2 arrives last: the top
    theirs = _row(_text(render(GAME.view(s, 0))), "Zaragoza")
    assert "n_reg2 inf 3, +2 unseen" in theirs
    assert "n_reg1" not in theirs and "n_afr1" not in theirs
    own = _row(_text(render(GAME.view(s, 1))), "Zaragoza")
    assert "n_reg1" in own and "n_afr1" in own and "unseen" not in own


def test_every_event_kind_the_engine_writes_has_a_sentence():
    """The narrator knows every kind written in the engine's sources (the movement and
    production verbs are written through a variable)."""
    src = "".join(p.read_text() for p in Path(pasaran_pkg.__file__).parent.glob("*.py"))
    written = set(re.findall(r'Event\("([a-z_]+)"', src))
    assert written and written | set(MOVE_VERBS) | {"build", "repair", "rebuild"} <= KINDS


def test_every_event_of_a_played_out_match_is_told_in_words(playout):
    """Each event both seats received (whole, or cut down by fog and secrecy) gets a sentence
    of its own, never the raw fallback."""
    _, events = playout
    narrator = Narrator()
    kinds = set()
    for e in events:
        said = narrator.line(e.kind, e.data)
        assert said and said != describe_event(e.kind, e.data), (e.kind, e.data)
        kinds.add(e.kind)
    assert {"move", "round", "cards_drawn", "chits_drawn", "income", "victory"} <= kinds
    assert narrator.line("comet", {"size": 3}) == "comet: size=3"


def test_the_other_sides_cards_are_never_named_in_its_cut_down_events():
    """Rulebook 7.2: a card drawn or kept by the Nationalists is told to the Republican seat
    without its name."""
    narrator = Narrator()
    drawn = narrator.line("cards_drawn", {"side": "nat", "count": 2})
    kept = narrator.line("card_kept", {"side": "nat", "cost": 2})
    assert drawn == "The Nationalists draw 2 cards, face down"
    assert kept == "The Nationalists keep a card for 2 BP"


def test_summary_names_the_winner(playout):
    """Rulebook 8.5: the match ends with one side winning."""
    state, _ = playout
    outcome = GAME.outcome(state)
    out = summary(GAME.view(state, None), outcome)
    winner = {"rep": "Republicans", "nat": "Nationalists"}[state.result["winner"]]
    assert out.startswith(f"Outcome: the {winner} won (seat {outcome.winners[0]}): ")
    assert state.result["reason"] in out
    assert "MATCH OVER" in _text(render(GAME.view(state, 0)))


@pytest.mark.parametrize(("args", "shown", "raw"), [
    (("pasaran", "--seed", "2"), ("The map", " moves to ", "Initiative to the "), '"units"'),
    (("batallitas", "--scenario", "last_game", "--seed", "2"),
     ("Batallitas · The Last Game", "Squads: ", " is activated"), '"noses"'),
    (("bandas", "--scenario", "street_fight", "--seed", "3"),
     ("Bandas · Street fight", " is activated", "Models"), '"models"'),
])
def test_partida_play_draws_the_new_games_and_tells_their_story(invoke, args, shown, raw):
    """`partida play <game>` with two bots, for each of the three renderers written together
    (¿Pasarán?, Batallitas, Bandas): its own picture, events in words, its outcome line, and
    no raw JSON view."""
    result = invoke("play", *args, "--players", "2", "--bots", "2", "--no-pause")
    assert result.exit_code == 0, result.output
    assert all(text in result.output for text in shown)
    assert "Outcome: " in result.output and raw not in result.output
