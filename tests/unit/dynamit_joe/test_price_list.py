"""Optional rule 8.5 (price list): the starting equipment bought with a budget per character,
as decisions at set-up, one side after another."""

from __future__ import annotations

import pytest

from partida.engine import BadSetup, IllegalAction
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe.adapter import action_from_proto, action_to_proto, view_to_proto
from partida.games.dynamit_joe.state import JoeState
from tests.unit.dynamit_joe.positions import act, ids, make

PRICES = {"hunting_rifle": 20, "shotgun": 20, "colt": 30, "rifle": 40, "dynamite": 20,
          "knife": 10, "whisky": 10}  # 8.5, written out apart from content/objects.json


def _held(state: JoeState, name: str) -> list[str]:
    c = state.chars[name]
    return sorted(state.objects[o]["kind"] for o in [*c["guns"], *c["objects"]])


def test_off_by_default_characters_start_with_their_cards() -> None:
    """3 and 8.5: without the option nobody buys; the cards' equipment is held."""
    s = make("arrest", 2)
    assert s.prompt is None or s.prompt["kind"] != "buy"
    assert all(_held(s, n) for n in s.order)


@pytest.mark.parametrize("budget", [49, 101, 75.0, "60", True])
def test_the_budget_lies_between_50_and_100_dollars(budget: object) -> None:
    """8.5: a budget of 50 to 100 dollars per character; anything else is refused."""
    with pytest.raises(BadSetup, match="price_list_budget"):
        make("arrest", 2, price_list_budget=budget)


def test_each_side_buys_from_its_purse_in_turn() -> None:
    """8.5: no card equipment; the side's purse is the budget times its characters; the first
    side buys, then the next; the match starts only after every side is done."""
    s = make("arrest", 2, price_list_budget=50)
    assert all(_held(s, n) == [] for n in s.order)
    assert s.round == 0 and s.active is None
    assert GAME.to_act(s) == (0,)
    view = GAME.view(s, 1)
    assert view["prompt"] == {"kind": "buy", "side": "law", "seat": 0, "money": 100}
    offered = ids(s)
    assert "done" in offered
    assert {a.split(":")[1] for a in offered if a.startswith("buy:")} == set(PRICES)
    events = act(s, "buy:rifle:Ted")
    bought = [e for e in events if e.kind == "bought"]
    assert bought[0].data["price"] == 40 and bought[0].data["money"] == 60
    act(s, "buy:colt:Luke")
    act(s, "buy:knife:Luke")
    assert _held(s, "Ted") == ["rifle"] and _held(s, "Luke") == ["colt", "knife"]
    assert s.prompt is not None and s.prompt["money"] == 20
    # 20 dollars left: the 30- and 40-dollar guns are not on offer any more.
    assert not any(a.startswith(("buy:colt:", "buy:rifle:")) for a in ids(s))
    act(s, "done")
    assert GAME.to_act(s) == (1,) and s.prompt is not None and s.prompt["side"] == "thieves"
    act(s, "buy:hunting_rifle:Fred")
    act(s, "done")
    assert s.prompt is None or s.prompt["kind"] != "buy"
    assert s.round == 1   # the first chip is drawn only now
    assert _held(s, "Fred") == ["hunting_rifle"] and _held(s, "Frank") == []


def test_a_character_carries_at_most_two_guns_and_two_objects() -> None:
    """2.5, 5.6 with 8.5: purchases respect the two guns and two objects a character carries."""
    s = make("rivalry", 2, price_list_budget=100)
    for k in ("shotgun", "hunting_rifle", "knife", "whisky"):
        act(s, f"buy:{k}:Jake")
    assert not any(a.endswith(":Jake") for a in ids(s))
    with pytest.raises(IllegalAction):
        act(s, "buy:dynamite:Jake")


def test_a_captives_purchases_lie_where_the_scenario_lays_his_gear() -> None:
    """9.6 with 8.5: tied Jake's rifle lies in the saloon, not on him; his knives lie in the
    saloon zone his captors choose once everyone has bought."""
    s = make("hostages", 3, price_list_budget=60)
    assert s.prompt is not None and "Jake" in [a.split(":")[2] for a in ids(s)
                                                if a.startswith("buy:")]
    events = act(s, "buy:rifle:Jake")
    bought = next(e for e in events if e.kind == "bought")
    assert bought.data["zone"] == "saloon_floor"
    assert _held(s, "Jake") == []
    act(s, "buy:knife:Jake")
    knife = next(o for o in s.objects.values() if o["kind"] == "knife")
    assert knife["zone"] is None and knife["holder"] is None
    for _ in range(3):
        act(s, "done")
    assert s.prompt is not None and s.prompt["kind"] == "place"
    assert s.prompt["object"] == knife["id"] and s.prompt["seat"] == s.chars["Fred"]["seat"]
    act(s, "zone:saloon_bar")
    assert knife["zone"] == "saloon_bar"


def test_surrendering_while_buying_hands_the_purse_on() -> None:
    """Chapter 9 surrender during 8.5's buying: the next side buys."""
    s = make("love_sickness", 3, price_list_budget=50)
    assert s.prompt is not None and s.prompt["side"] == "family" and s.prompt["seat"] == 0
    GAME.resign(s, 0)   # Susan and Joe give up; Bob (seat 2) plays on
    assert s.result is None
    assert s.prompt is not None and s.prompt["kind"] == "buy" and s.prompt["side"] == "law"


def test_buying_is_typed() -> None:
    """The typed forms of 8.5's decisions, its event and its prompt."""
    for aid in ("buy:hunting_rifle:Ted", "done"):
        assert action_from_proto(action_to_proto(aid)) == aid
    with pytest.raises(ValueError):
        action_to_proto("buy:cannon:Ted")
    s = make("arrest", 2, price_list_budget=80)
    typed = view_to_proto(GAME.view(s, 0))
    assert typed.prompt.side == "law" and typed.prompt.money == 160
    assert typed.options.price_list_budget == 80
