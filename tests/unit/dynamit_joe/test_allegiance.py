"""Optional rule 8.1 read in full: a player who loses his last character is given one by
another player with more than one, from another side if need be (a change of allegiance); the
seat then plays, wins and scores with that side. A player with no character at all has no
decision left: the activation chips he would draw as game master are drawn at random."""

from __future__ import annotations

from partida.games.dynamit_joe import GAME
from tests.unit.dynamit_joe.positions import act, ids, make


def _kill(state, *names: str) -> None:  # type: ignore[no-untyped-def]
    for n in names:
        state.chars[n]["dead"] = True


def test_a_seat_with_no_teammate_to_help_changes_allegiance() -> None:
    """8.1: when no teammate has two characters to spare, a seat of another side with two
    gives one (its choice among them); the seat left with none now plays for that side."""
    s = make("showdown", 4, reassign_characters=True)
    # The showdown with 4 seats: one side has two seats of one character each.
    per_seat: dict[int, list[str]] = {}
    for n in s.order:
        per_seat.setdefault(s.chars[n]["seat"], []).append(n)
    lonely = next(seat for seat, names in per_seat.items() if len(names) == 1)
    old_side = GAME.allegiance(s, lonely)
    teammates = [seat for seat in per_seat if seat != lonely
                 and GAME.allegiance(s, seat) == old_side]
    for seat in teammates:          # the seat's own side can give nobody
        _kill(s, *per_seat[seat][1:])
    _kill(s, *per_seat[lonely])
    s.prompt, s.active = None, None
    GAME._check_end(s, [])
    assert s.prompt is not None and s.prompt["kind"] == "hand" and s.prompt["to"] == lonely
    giver = s.prompt["seat"]
    assert GAME.allegiance(s, giver) != old_side
    offered = ids(s)
    assert sorted(offered) == sorted(f"hand:{n}" for n in per_seat[giver])
    events = act(s, offered[-1])
    given = offered[-1].split(":")[1]
    moved = [e for e in events if e.kind == "reassigned"]
    assert moved and moved[0].data == {"character": given, "seat": lonely,
                                       "side": s.chars[given]["side"]}
    assert s.chars[given]["seat"] == lonely
    assert GAME.allegiance(s, lonely) == s.chars[given]["side"] != old_side


def test_the_new_allegiance_decides_who_wins() -> None:
    """8.1 and 9: at the end a seat wins with the side it plays for, not the one it began on."""
    s = make("showdown", 3, reassign_characters=True)
    seat_of = {n: s.chars[n]["seat"] for n in s.order}
    # Billy's seat (avengers) is given Ted, a lawman: it now plays for the law.
    s.allegiance[str(seat_of["Billy"])] = "law"
    s.chars["Ted"]["seat"] = seat_of["Billy"]
    _kill(s, "Billy", "Luke")
    s.result = {"sides": ["law"], "reason": "test"}
    out = GAME.outcome(s)
    assert out is not None and seat_of["Billy"] in out.winners
    s.result = {"sides": ["avengers"], "reason": "test"}
    out = GAME.outcome(s)
    assert out is not None and seat_of["Billy"] not in out.winners


def test_an_eliminated_seat_has_no_decision() -> None:
    """8.1: with no character anywhere to give, the seat is out; it is never asked anything
    (chips are drawn at random by the match, which is all a game master would do)."""
    s = make("arrest", 2, reassign_characters=True)
    fred_seat = s.chars["Fred"]["seat"]
    _kill(s, "Ted")
    s.prompt = None
    GAME._check_end(s, [])
    assert s.result is not None and fred_seat not in GAME.to_act(s)
