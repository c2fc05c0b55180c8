"""The Dynamit Joe renderer and narrator on real views and events of scenario set-ups."""

import io

from rich.console import Console

from partida.cli.render import renderer_for
from partida.cli.render.dynamit_joe import humanize, render, summary, village, zone_cells
from partida.cli.render.dynamit_joe_events import Narrator
from partida.cli.render.generic import describe_event
from partida.engine import LocalRng, Outcome
from partida.engine.bots import RandomBot
from partida.games.dynamit_joe import GAME
from tests.unit.dynamit_joe.positions import (
    act,
    clear_zone_of_others,
    make,
    put,
    stack,
    turn,
)

ALL_BOTS = ("play", "dynamit_joe", "--scenario", "arrest", "--players", "2", "--bots", "2",
            "--seed", "3", "--no-pause")


def _text(renderable, width=110):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def _row(text, name):
    """The characters-table row of `name` (its first line)."""
    return next(line for line in text.splitlines() if line.strip().startswith(name + " ")
                or line.strip().startswith("▶ " + name + " "))


def test_dynamit_joe_has_its_own_renderer_for_play_and_client_play():
    """`partida play` and `partida client play` both pick the renderer by game id."""
    chosen = renderer_for("dynamit_joe")
    assert chosen.render is render and chosen.narrator is Narrator and chosen.summary is summary


def test_every_zone_of_the_board_is_drawn_with_who_stands_in_it():
    """Rulebook 2.3: each character stands in one zone; the grid names every zone and puts
    the standing characters next to theirs."""
    s = make("showdown", 3)
    s.chars["Ted"]["zone"] = "st_n4"
    text = _text(village(GAME.view(s, None)), width=240)   # wide: no cell wraps
    assert all(z in text for z in zone_cells())
    cells = [part.strip() for line in text.splitlines() for part in line.split("│")]
    for c in s.chars.values():
        cell = next(x for x in cells if x.startswith(f"{c['zone']}:"))
        assert c["name"] in cell.split()
    assert "st_n4: Ted" in cells and "st_n3" in cells   # an empty zone: its name alone


def test_wounds_ammunition_jams_ambush_and_objects_on_the_ground():
    """2.5 wounds, 2.6 ammunition, 5.4 jams, 5.7 ambush, 7.7 a body keeps its place: what a
    position holds is what the table shows."""
    s = turn(make("bank_hoist", 2), "Jake")
    jake_gun = s.chars["Jake"]["guns"][0]
    s.objects[jake_gun].update(ammo=3, jammed=True)
    s.chars["Ted"].update(wounds=2, ambush=True)
    text = _text(render(GAME.view(s, s.chars["Ted"]["seat"])), width=240)
    jake = _row(text, "Jake")
    assert "rifle 3/9 JAMMED" in jake and "knife, knife" in jake and "□□□" in jake
    ted = _row(text, "Ted")
    assert "■■□" in ted and "in ambush" in ted
    assert "Ted*" in text
    # 9.4: the gold lies in the vault (the cell may wrap the third)
    assert "coffre" in text and "· nugget ($1), nugget ($2)" in text and text.count("nugget") == 3
    assert "Round 1/8" in text and "Vault lock holds" in text


def test_a_seat_sees_its_own_jokers_by_name_and_never_anyone_elses():
    """2.7: the holder's seat reads its joker; every other one, a teammate's on another seat
    included, is drawn face down and its name appears nowhere."""
    s = make("rivalry", 4)
    jokers = ["instinctive_shot", "cold_blooded", "mortal_fear", "quick_pickup",
              "weaponsmith", "rapid_loading", "sharpshooter", "precision"]
    for name, joker in zip(s.order, jokers, strict=True):
        s.chars[name]["joker"] = joker
    s.prompt, s.asked = None, []   # no pending initiative decision in the status line
    for seat in (*range(s.seats), None):
        text = _text(render(GAME.view(s, seat)), width=240)
        for name in s.order:
            c = s.chars[name]
            shown = humanize(c["joker"])
            if c["seat"] == seat:
                assert shown in _row(text, name)
            else:
                assert "face down" in _row(text, name) and shown not in text


def test_a_played_joker_is_public():
    """2.7: once played, the joker is on the table for everyone."""
    s = turn(make(), "Jake")
    s.chars["Billy"]["jokers_played"].append("luck")
    text = _text(render(GAME.view(s, s.chars["Jake"]["seat"])))
    assert "played: Luck" in _row(text, "Billy")


def test_the_pending_reaction_shows_who_decides_but_not_the_joker():
    """2.7 with the bluff windows: Jake's seat reads that Billy's seat decides a reaction;
    Billy's own seat reads which joker it is asked about."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, "st_n2", "Billy")
    s.chars["Billy"]["joker"] = "resistance"
    stack(s, "easy", "wound2", "rifle")
    act(s, f"shoot:{s.chars['Jake']['guns'][0]}:Billy")
    theirs = _text(render(GAME.view(s, s.chars["Jake"]["seat"])))
    assert f"Seat {s.chars['Billy']['seat']} decides a reaction for Billy" in theirs
    assert "Luck" not in theirs and "Resistance" not in theirs
    mine = _text(render(GAME.view(s, s.chars["Billy"]["seat"])))
    assert "Billy may play the joker Luck" in mine


def test_the_narrator_tells_a_shot_in_words():
    """5.2, 7.2: a shot, its marksmen card and the wound, told with the gun's name."""
    s = turn(make(), "Jake")
    clear_zone_of_others(s, {"Jake", "Billy"})
    put(s, "st_n1", "Jake")
    put(s, "st_n2", "Billy")
    stack(s, "easy", "wound2", "rifle")
    gun = s.chars["Jake"]["guns"][0]
    narrator = Narrator()
    narrator.learn(GAME.view(s, None))
    lines = [narrator.line(e.kind, e.data) for e in act(s, f"shoot:{gun}:Billy")]
    assert None in lines   # the `action` event is named by the caller
    said = [x for x in lines if x]
    assert f"Jake fires the rifle ({gun}) at Billy (easy shot)" in said
    assert "Easy marksmen card for Jake's rifle at Billy: a major wound" in said
    assert "Billy is wounded (2/3)" in said


def test_the_narrator_names_zones_and_unknown_events_fall_back_raw():
    s = turn(make(), "Jake")
    put(s, "st_n1", "Jake")
    narrator = Narrator()
    said = [narrator.line(e.kind, e.data) for e in act(s, "move:st_n2")]
    assert "Jake moves to Main street before the saloon window" in said
    assert narrator.line("comet", {"size": 3}) == "comet: size=3"


def test_summary_names_the_winning_side_and_seats():
    s = make("arrest", 2)
    s.result = {"sides": ["law"], "reason": "aim achieved: law"}
    view = GAME.view(s, None)
    out = summary(view, Outcome((0,), "aim achieved: law", scores={0: 0.0, 1: 0.0}))
    assert out == "Outcome: law won (seat 0): aim achieved: law."


def test_partida_play_dynamit_joe_shows_the_village_and_the_story(invoke):
    """`partida play dynamit_joe`: the board, the characters and the events in words, and
    the outcome line of the renderer (no raw JSON view)."""
    result = invoke(*ALL_BOTS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Dynamit Joe · The arrest" in out and "Round " in out
    assert "chip is drawn" in out and "acts with 4 action points" in out
    assert "Outcome: " in out and '"characters"' not in out


def test_rendering_a_bot_match_never_fails():
    """Every view of a random-bot match of Eldorado renders and every event is told."""
    rng = LocalRng(11)
    s = GAME.new_state("eldorado", 4, {}, rng)
    bot, narrator = RandomBot(), Narrator()
    for _ in range(400):
        if GAME.outcome(s) is not None:
            break
        seat = GAME.to_act(s)[0]
        view = GAME.view(s, seat)
        narrator.learn(view)
        _text(render(view))
        for e in GAME.apply(s, seat, bot.choose(view, GAME.legal_actions(s, seat), rng), rng):
            # every event has its sentence (the raw form is only for unknown shapes)
            assert narrator.line(e.kind, e.data) != describe_event(e.kind, e.data)
