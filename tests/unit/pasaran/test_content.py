"""The reconstructed content is consistent: the map (1.1, 1.2, 6.1, 7.3.1, 8.1), counters
(2.1, 4.1), tables (5.3, 6.5.3) and cards (2.3, 7.2)."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest
from pydantic import ValidationError

from partida.games.pasaran.content import Content, load

DIR = Path(__file__).parents[3] / "services/partida/games/pasaran/content"


def _raw() -> dict:
    names = ("map", "counters", "cards", "tables")
    return {n: json.loads((DIR / f"{n}.json").read_text()) for n in names}


def _land_component(content: Content, start: str) -> set[str]:
    seen, todo = {start}, deque([start])
    while todo:
        for b in content.area(todo.popleft()).adjacent:
            if content.area(b).kind == "land" and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def test_every_file_loads_and_is_marked_as_a_reconstruction() -> None:
    """ARCHITECTURE (content): what the book leaves out (1.1 map, 2.1 counters, 6.5.3 chart,
    5.3 weather, card appendix) is data marked as a reconstruction."""
    c = load()
    for text in (c.map.source, c.counters.source, c.tables.source, c.cards.source):
        assert "econstruct" in text


def test_an_asymmetric_adjacency_is_refused() -> None:
    """1.1: movement between adjacent areas; adjacency must hold both ways."""
    raw = _raw()
    madrid = next(a for a in raw["map"]["areas"] if a["id"] == "madrid")
    madrid["adjacent"].append("barcelona")
    with pytest.raises(ValidationError, match="symmetric"):
        Content.model_validate(raw)


def test_a_unit_starting_in_enemy_territory_is_refused() -> None:
    """4.1: each side sets up in its own territory."""
    raw = _raw()
    unit = next(u for u in raw["counters"]["units"] if u["id"] == "r_mil1")
    unit["start"] = "sevilla"
    with pytest.raises(ValidationError, match="does not hold"):
        Content.model_validate(raw)


def test_a_rail_link_between_distant_areas_is_refused() -> None:
    """6.1: rail links join adjacent areas."""
    raw = _raw()
    raw["map"]["rail"].append(["madrid", "barcelona"])
    with pytest.raises(ValidationError, match="rail link"):
        Content.model_validate(raw)


def test_mainland_is_one_land_network_and_the_islands_touch_only_the_sea() -> None:
    """1.1, 1.2: Mallorca and Spanish Morocco are reached only across the sea; sea and mountain
    areas are not land areas."""
    c = load()
    mainland = _land_component(c, "madrid")
    land = {a.id for a in c.map.areas if a.kind == "land"}
    assert land - mainland == {"mallorca", "marruecos"}
    assert c.area("mallorca").adjacent == ("sea",) and c.area("marruecos").adjacent == ("sea",)
    assert {c.area(x).kind for x in ("pirineo", "sierra_nevada")} == {"mountain"}


def test_starting_production_leaves_twenty_bp_decisive_but_reachable() -> None:
    """8.5 and 7.3.1: neither side starts at 20 BP, the map holds enough for either to reach it,
    and the mixed-control areas (Oviedo, Toledo) count for nobody."""
    c = load()
    start = {"rep": 0, "nat": 0}
    for a in c.map.areas:
        if a.kind == "land" and a.city_control in (None, a.control):
            start[a.control] += a.bp
    assert start == {"rep": 15, "nat": 13}
    assert all(v < c.tables.victory_bp for v in start.values())
    for side in start:  # the fewest areas a side must add to reach 20: more than two, a handful
        gains = sorted((a.bp for a in c.map.areas if a.kind == "land"
                        and side not in (a.control, a.city_control) or a.city_control not in
                        (None, a.control) and side in (a.control, a.city_control)), reverse=True)
        need, total = 0, start[side]
        while total < c.tables.victory_bp:
            total, need = total + gains[need], need + 1
        assert 3 <= need <= 5, (side, need)
    mixed = [a.id for a in c.map.areas if a.city_control not in (None, a.control)]
    assert sorted(mixed) == ["asturias", "toledo"]


def test_the_french_border_is_reachable_by_land() -> None:
    """Cards (French Border Opened): some Spanish land areas touch France."""
    c = load()
    touching = [a.id for a in c.map.areas if a.kind == "land" and "france" in a.adjacent]
    assert set(touching) >= {"gerona", "lerida"}


def test_starting_cities_respect_the_stacking_limit() -> None:
    """6.3.3/6.3.5: at most 3 land units of a side in a city."""
    c = load()
    per_city: dict[str, int] = {}
    for u in c.counters.units:
        if u.in_city:
            per_city[u.start] = per_city.get(u.start, 0) + 1
    assert per_city and max(per_city.values()) <= c.tables.city_stack


def test_the_deck_has_twenty_two_cards_and_starred_units_name_theirs() -> None:
    """4.1: 22 ¿Pasarán? cards; 2.2: starred units enter the pool by a card."""
    c = load()
    assert len(c.cards.cards) == 22
    starred = {u.star for u in c.counters.units if u.star}
    assert starred <= {card.id for card in c.cards.cards}
    assert len([u for u in c.counters.units if u.star == "recruits"]) == 6


def test_miaja_arrives_in_the_fourth_quarter_of_1936() -> None:
    """Errata: Miaja appears in 4/36 (turn 2)."""
    c = load()
    assert c.tables.quarters[c.unit("hq_miaja").arrive - 1] == "Q4 1936"
