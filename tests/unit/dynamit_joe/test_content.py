"""Content checks: the reconstructed village, the pieces and the decks are data that load and
hold together (rulebook 2.3, 2.4, 2.5, 2.7, 7.1, chapter 9)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from partida.games.dynamit_joe.content import LEVELS, Board, load
from partida.games.dynamit_joe.content import _read as read


def test_every_place_chapter_9_names_is_on_the_board() -> None:
    """9: the scenarios start in buildings the reconstructed map must contain."""
    places = {p for z in load().board.zones for p in z.places}
    for name in ("Saloon", "Bureau du shérif", "Cellule", "Epicerie", "Poste", "Blanchisserie",
                 "Drugstore", "Pompes funèbres", "Banque", "Coffre", "Saloon counter",
                 "Blanchisserie counter", "Banque counter"):
        assert name in places, name


def test_a_board_with_a_link_to_nowhere_is_refused() -> None:
    """2.3: the zone graph is validated when loaded."""
    data = read("board.json")
    data["links"].append({"a": "st_n1", "b": "nowhere", "kind": "open"})
    with pytest.raises(ValidationError):
        Board.model_validate(data)


def test_object_capacities_and_ranges_are_the_books() -> None:
    """2.4: colt 6 bullets range 4, shotgun 2/2, rifle 9/6, hunting rifle 1/8, dynamite range
    2, knife range 1."""
    objs = load().objects
    got = {o.kind: (o.capacity, o.range) for o in objs.objects if o.kind in (
        "colt", "shotgun", "rifle", "hunting_rifle", "dynamite", "knife")}
    assert got == {"colt": (6, 4), "shotgun": (2, 2), "rifle": (9, 6), "hunting_rifle": (1, 8),
                   "dynamite": (0, 2), "knife": (0, 1)}
    assert (objs.max_guns, objs.max_objects) == (2, 2)


def test_twelve_characters_and_jakes_given_equipment() -> None:
    """2.5 and 9.6: twelve characters; Jake carries a rifle and two knives."""
    chars = load().characters.characters
    assert len(chars) == 12
    jake = load().character("Jake")
    assert (jake.gun, sorted(jake.objects), jake.reconstructed) == ("rifle", ["knife", "knife"],
                                                                    False)


@pytest.mark.parametrize("weapon", ["colt", "shotgun", "rifle", "hunting_rifle", "dynamite",
                                    "knife"])
def test_marksmen_piles_hit_less_from_easy_to_hard(weapon: str) -> None:
    """7.1 (reconstruction): each pile is harder than the one before, for every weapon."""
    rates = []
    for level in LEVELS:
        cards = load().marksmen_cards(level)
        rates.append(sum(c[weapon] in ("wound1", "wound2", "panic_wound1") for c in cards)
                     / len(cards))
    assert rates[0] > rates[1] > rates[2] > 0


def test_decks_are_data_with_a_source() -> None:
    """7.1, 'Panic cards', 'Joker cards': the card files say they are reconstructions."""
    assert "RECONSTRUCTION" in read("decks.json")["source"]
    assert "RECONSTRUCTION" in read("board.json")["source"]
    assert len(load().decks.jokers) == 17
