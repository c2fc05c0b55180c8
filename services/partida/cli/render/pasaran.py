"""¿Pasarán? as rich renderables, from a seat's view: the quarter, weather and initiative, each
side's building points, income and units on the way, the cards and chits the seat holds, and
the map as a table of areas with who holds them and the stacks in them.

Only the view is drawn. The other side's hand, drawn cards and chits arrive as counts and are
shown as counts; under fog of war (9.2) a hidden enemy unit arrives without a place, so an
enemy stack shows its visible units and how many more it holds."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from partida.engine import Outcome
from partida.games.pasaran.content import Content, load

View = Mapping[str, Any]

SIDES = ("rep", "nat")
NAMES = {"rep": "Republicans", "nat": "Nationalists"}
SHORT = {"rep": "Rep", "nat": "Nat"}
STYLES = {"rep": "bold red", "nat": "bold blue"}
KINDS = {"inf": "inf", "tank": "tank", "hq": "HQ", "air": "air"}


@cache
def content() -> Content:
    return load()


def side_name(side: Any) -> str:
    return NAMES.get(side, str(side))


def place_name(place: Any) -> str:
    """An area by name; a city ('<area>.c') by the city's name."""
    text = str(place)
    area_id = text[:-2] if text.endswith(".c") else text
    try:
        area = content().area(area_id)
    except KeyError:
        return text
    return f"{area.city} (city)" if text.endswith(".c") and area.city else area.name


def card_name(cid: Any) -> str:
    try:
        return content().card(str(cid)).name
    except KeyError:
        return str(cid)


def unit_text(uid: Any, record: Mapping[str, Any] | None = None) -> str:
    """'r_mil1 inf 2', 'n_reg3 inf 1 (back)', 'HQ Miaja 3/2': id, kind and the face's value."""
    try:
        u = content().unit(str(uid))
    except KeyError:
        return str(uid)
    if u.kind == "hq":
        return f"HQ {u.name} {u.command[0]}/{u.command[1]}" if u.command else f"HQ {u.name}"
    back = record is not None and record.get("face") == "back"
    value = u.back if back else u.front
    return f"{u.id} {KINDS[u.kind]} {value}" + (" (back)" if back else "")


def render(view: View) -> RenderableType:
    """Status, the two sides, the seat's own hand and chits, the combat, then the map."""
    parts: list[RenderableType] = [status(view), sides(view)]
    held = hand(view)
    if held is not None:
        parts.append(held)
    fight = combat_text(view)
    if fight:
        parts.append(fight)
    parts.append(areas(view))
    return Group(*parts)


def status(view: View) -> Text:
    turns = len(content().tables.quarters)
    where = view["phase"] + (f" · {view['step']} step" if view.get("step") else "")
    active = f" · {side_name(view['active'])} act" if view.get("active") else ""
    lines = [
        f"¿Pasarán? · {view['quarter']} (turn {view['turn']}/{turns}) · {where}{active}",
        f"Weather: {view['weather']} · initiative: "
        f"{side_name(view['initiative']) if view.get('initiative') else 'not rolled'}"
        + (" (exploitation)" if view.get("exploiting") else "")
        + f" · to act: {', '.join(f'seat {s}' for s in view['to_act']) or 'nobody'}",
    ]
    if view.get("permanent"):
        lines.append("Cards in force: " + ", ".join(card_name(c) for c in view["permanent"]))
    if view.get("flags"):
        lines.append("This turn: " + ", ".join(str(f).replace("_", " ") for f in view["flags"]))
    if view.get("offer"):
        offer = view["offer"]
        cards = offer["cards"]
        shown = (", ".join(card_name(c) for c in cards) if isinstance(cards, list)
                 else f"{cards} card(s), face down")
        lines.append(f"{side_name(offer['side'])} choose among the cards drawn: {shown}")
    lines.append(f"Deck: {view['deck']} cards · discard: "
                 + (", ".join(card_name(c) for c in view["discard"]) or "empty"))
    result = view.get("result")
    if result:
        lines.append(f"MATCH OVER: the {side_name(result['winner'])} won: {result['reason']}")
    return Text("\n".join(lines))


def sides(view: View) -> Table:
    """Per side: stored BP, income next turn, units in production or on the way, hand size."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for head in ("side", "BP", "income", "on the way (turn)", "cards", "chits"):
        table.add_column(head, overflow="fold")
    coming: dict[str, list[str]] = {s: [] for s in SIDES}
    for uid, r in sorted(view["units"].items(), key=lambda kv: (kv[1].get("arrive") or 0, kv[0])):
        if r.get("status") == "queue":
            coming[r["side"]].append(f"{unit_text(uid)} ({r.get('arrive')})")
    for s in SIDES:
        held = view["hands"].get(s, [])
        cups = view.get("chits", {}).get(s)
        table.add_row(Text(side_name(s), style=STYLES[s]), str(view["bp"].get(s, 0)),
                      str(view["income"].get(s, 0)), ", ".join(coming[s]) or "-",
                      str(len(held) if isinstance(held, list) else held),
                      _chit_counts(cups) if cups else "-")
    return table


def _chit_counts(cups: Mapping[str, Any]) -> str:
    def n(x: Any) -> int:
        return len(x) if isinstance(x, list) else int(x)
    return f"{n(cups['cup'])} in the cup, {n(cups['hand'])} drawn, {len(cups['played'])} played"


def hand(view: View) -> Text | None:
    """The seat's own cards (with the turn each was bought) and drawn chits; None for a
    spectator, whose view holds no hand."""
    mine = [(s, h) for s, h in view["hands"].items() if isinstance(h, list)]
    if not mine:
        return None
    side, cards = mine[0]
    text = Text(f"Your hand ({side_name(side)}): ", style="bold")
    text.append(", ".join(f"{card_name(h['card'])} (bought turn {h['turn']})" for h in cards)
                or "no cards")
    cups = view.get("chits", {}).get(side)
    if cups and isinstance(cups.get("hand"), list):
        text.append("\nYour chits drawn: " + (", ".join(cups["hand"]) or "none")
                    + f" · left in your cup: {', '.join(sorted(cups['cup'])) or 'none'}")
    return text


def combat_text(view: View) -> str:
    c = view.get("combat")
    if not c:
        return ""
    hits = ", ".join(f"{side_name(s)} {h['land']} land/{h['air']} air"
                     for s, h in sorted(c.get("hits", {}).items()))
    return (f"Combat in {place_name(c['place'])}: round {c['round']}, {c['stage']}"
            + (f" · hits to take: {hits}" if hits else ""))


def areas(view: View) -> Table:
    """Every land area (and any other place with units), the city inside it on a row of its
    own: holder, BP, trenches and the stacks there."""
    table = Table(title="The map", box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
    table.add_column("place", no_wrap=True, overflow="ellipsis", max_width=24)
    table.add_column("held", no_wrap=True)
    table.add_column("BP", justify="right")
    table.add_column("units (and trenches)", overflow="fold", ratio=1)
    stacks = _stacks(view)
    trenches: dict[str, list[str]] = {}
    for t in view.get("trenches", []):
        trenches.setdefault(t["place"], []).append(SHORT[t["side"]])
    for a in content().map.areas:
        city = f"{a.id}.c"
        if a.kind != "land" and a.id not in stacks and city not in stacks:
            continue
        holder = view["control"].get(a.id)
        table.add_row(a.name, Text(SHORT.get(holder, a.kind), style=STYLES.get(holder, "dim")),
                      str(a.bp) if a.bp else "", _cell(stacks.get(a.id), trenches.get(a.id)))
        if a.city:
            holder = view["city_control"].get(a.id)
            table.add_row(Text(f" └ {a.city} (city)", style="dim"),
                          Text(SHORT.get(holder, "-"), style=STYLES.get(holder, "")), "",
                          _cell(stacks.get(city), trenches.get(city)))
    return table


def _stacks(view: View) -> dict[str, dict[str, list[str]]]:
    """place -> side -> unit texts, plus '+N unseen' for the enemy units fog hides there."""
    out: dict[str, dict[str, list[str]]] = {}
    seen: dict[tuple[str, str], int] = {}
    for uid, r in sorted(view["units"].items(), key=lambda kv: kv[1].get("order", 0)):
        if r.get("status") != "map" or not r.get("at"):
            continue
        out.setdefault(r["at"], {}).setdefault(r["side"], []).append(unit_text(uid, r))
        seen[(r["at"], r["side"])] = seen.get((r["at"], r["side"]), 0) + 1
    for side, counts in (view.get("stacks") or {}).items():
        for place, n in counts.items():
            more = n - seen.get((place, side), 0)
            if more > 0:
                out.setdefault(place, {}).setdefault(side, []).append(f"+{more} unseen")
    return out


def _cell(by_side: Mapping[str, list[str]] | None, trench: list[str] | None) -> Text:
    by_side = by_side or {}
    both = len(by_side) > 1         # a contested place: say whose each stack is
    parts = [Text((f"{SHORT.get(side, side)}: " if both else "") + ", ".join(units),
                  style=STYLES.get(side, "")) for side, units in sorted(by_side.items())]
    if trench:
        parts.append(Text("trench: " + ", ".join(trench), style="yellow"))
    return Text("\n").join(parts)


def summary(view: View, outcome: Outcome) -> str:
    """The end in one line: the winning side and seat, and why."""
    result = view.get("result") or {}
    seats = ", ".join(f"seat {s}" for s in outcome.winners) or "no seat"
    if outcome.draw:
        return f"Outcome: draw: {outcome.reason}."
    return (f"Outcome: the {side_name(result.get('winner'))} won ({seats}): {outcome.reason} "
            f"({view['quarter']}).")
