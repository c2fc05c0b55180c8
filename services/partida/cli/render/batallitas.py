"""Fanhunter Batallitas as rich renderables, from a seat's view: the grid map with its walls,
doors (shut or open), obstructions, markers and the noses in play, a table of the noses by
squad (standing, pupae, weapons, ammunition), the turn and the initiative, and the seat's own
event cards.

Only the view is drawn: another seat's cards arrive as counts and another side's face-down
markers as "face_down", and that is all that is shown of them. The map is assembled from the
game's content (the same boards the server plays on)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from partida.engine import Outcome
from partida.games.batallitas.content import Content, load
from partida.games.batallitas.grid import Map
from partida.games.batallitas.state import Nose, attr
from partida.games.batallitas.world import door_cells, placed_map, scenario_map

View = Mapping[str, Any]

SIDE_STYLES = ("bold cyan", "bold magenta")
BLOCK = 24          # map columns drawn side by side (4 + 3 * 24 + 1 characters a line)
TERRAIN = {"clear": "  ", "obstacle": ",,", "minor": "xx", "major": "XX"}
BLASTS = {"blocks": "^^", "slows": "~~"}
STANDING = {"reserve": "to enter", "in_play": "in play", "dead": "OUT (dead)",
            "gone": "left the board"}
LEGEND = ("A0 a nose (squad letter, lower case for the second side; number in the squad) · "
          "| -- wall · # ## shut door · : :: open door · ,, obstacle · xx minor · XX major "
          "obstruction · <> marker · ^^ flames · ~~ gas")


@cache
def content() -> Content:
    return load()


def humanize(word: str) -> str:
    return str(word).replace("_", " ")


def card_title(cid: Any) -> str:
    return next((c.title for c in content().events.cards if c.id == cid), humanize(cid))


def weapon_name(wid: Any) -> str:
    return next((w.name for w in content().arsenal.weapons if w.id == wid), humanize(wid))


@cache
def everyones() -> frozenset[str]:
    """Weapons every nose carries (not worth a word in the table)."""
    return frozenset(w.id for w in content().arsenal.weapons if w.carried_by_all)


def labels(view: View) -> dict[str, str]:
    """nose id -> two-character label: the squad's letter (lower case for the second side)
    and the nose's place in its squad."""
    out: dict[str, str] = {}
    counts: dict[int, int] = {}
    for n in view["noses"]:
        sq = view["squads"][n["squad"]]
        letter = chr(ord("A") + n["squad"] % 26)
        if sq["side"] != view["sides"][0]:
            letter = letter.lower()
        i = counts.get(n["squad"], 0)
        counts[n["squad"]] = i + 1
        out[n["id"]] = letter + "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36]
    return out


def side_style(view: View, side: str) -> str:
    sides = list(view["sides"])
    return SIDE_STYLES[sides.index(side) % 2] if side in sides else ""


def view_map(view: View) -> Map | None:
    """The map the view is played on; None while scenario 6's boards are still being laid."""
    try:
        if view["boards"]:
            return placed_map(tuple((b, c, r) for b, c, r in view["boards"]))
        sc = content().scenario(view["scenario"])
        return scenario_map(view["scenario"]) if sc.boards else None
    except (ValueError, KeyError):
        return None


def render(view: View) -> RenderableType:
    """Status, the map, the noses, then the seat's cards and the markers."""
    return Group(status(view), grid(view), noses(view), cards(view))


def status(view: View) -> Text:
    sc = content().scenario(view["scenario"])
    limit = sc.turn_limit or view["options"].get("turn_limit") or sc.turn_limit_option
    bag = {s: view["bag"].count(s) for s in view["sides"]}
    lines = [f"Batallitas · {sc.title} · turn {view['turn']}"
             + (f"/{limit}" if limit else "") + f" · {humanize(view['phase'])} · initiative "
             "markers in the bag: " + ", ".join(f"{s} {k}" for s, k in bag.items())
             + (f" · drawn: {view['drawn']}" if view.get("drawn") else "")]
    if view.get("active_squad") is not None:
        sq = view["squads"][view["active_squad"]]
        pool = view["pools"][sq["index"]]
        line = f"Active squad: {sq['spec']} ({sq['side']})" + (f", shared points left {pool}"
                                                              if pool else "")
        nose = next((n for n in view["noses"] if n["id"] == view.get("active_nose")), None)
        if nose:
            left = attr(Nose(**nose), "actions") - nose["spent"]
            line += f" · active nose: {labels(view)[nose['id']]} {nose['name']} " \
                    f"({max(0, left)} action points left)"
        lines.append(line)
    if view["prompts"]:
        p = view["prompts"][-1]
        lines.append(f"Pending: seat {p.get('seat')} decides ({humanize(p['kind'])})")
    lines.append(f"To act: {', '.join(f'seat {s}' for s in view['to_act']) or 'nobody'}")
    result = view.get("result")
    if result:
        lines.append(f"MATCH OVER: {result.get('side') or 'nobody'} won: {result.get('reason')}")
    return Text("\n".join(lines))


def _open_edges(view: View, m: Map) -> set[tuple[str, int, int]]:
    """Door edges open now: whole doors, single leaves, automatic doors with a nose before."""
    cells = {tuple(n["pos"]) for n in view["noses"] if n["status"] == "in_play" and n["pos"]}
    out: set[tuple[str, int, int]] = set()
    for door in m.doors:
        if door.id in view["open_doors"] or (door.spec.automatic
                                            and any(c in cells for c in door_cells(door))):
            out.update(door.edges)
    out.update(m.doors[d].edges[leaf] for d, leaf in view["open_leaves"])
    return out


def _edge(m: Map, opened: set[tuple[str, int, int]], key: tuple[str, int, int],
          width: int) -> str:
    if key in m.walls:
        return "|" if width == 1 else "-" * width
    if key in m.door_of:
        return (":" if key in opened else "#") * width
    return " " * width


def _corner(m: Map, x: int, y: int) -> str:
    """'+' on the map's rim and where a wall or door meets the corner, else blank."""
    if x in (0, m.width) or y in (0, m.height):
        return "+"
    meeting = (("h", x - 1, y), ("h", x, y), ("v", x, y - 1), ("v", x, y))
    return "+" if any(k in m.walls or k in m.door_of for k in meeting) else " "


def grid(view: View) -> RenderableType:
    """The map as characters, three columns per cell (the west edge, then the cell); a map
    wider than BLOCK cells is drawn in blocks of columns, one under the other, so that a line
    fits 80 characters."""
    m = view_map(view)
    if m is None:
        return Text("The boards are still being laid out: " + str(view["boards"]))
    out = Text()
    for x0 in range(0, m.width, BLOCK):
        _block(view, m, range(x0, min(m.width, x0 + BLOCK)), out)
    out.append(LEGEND, style="dim")
    return out


def _block(view: View, m: Map, xs: range, out: Text) -> None:
    opened = _open_edges(view, m)
    names = labels(view)
    here = {tuple(n["pos"]): n for n in view["noses"] if n["status"] == "in_play" and n["pos"]}
    marked = {tuple(k["pos"]) for k in view["markers"] if k.get("pos")}
    blasts = {tuple(b["pos"]): b["kind"] for b in view["blasts"]}
    flaps = {tuple(c) for c in view["open_flaps"]}
    out.append("    " + "".join(f"{x:>2} " for x in xs) + "\n")
    for y in range(m.height + 1):
        out.append("   " + "".join(_corner(m, x, y) + _edge(m, opened, ("h", x, y), 2)
                                   for x in xs) + _corner(m, xs.stop, y) + "\n")
        if y == m.height:
            break
        out.append(f"{y:>2} ")
        for x in xs:
            out.append(_edge(m, opened, ("v", x, y), 1))
            p = (x, y)
            if p in here:
                n = here[p]
                out.append(names[n["id"]], style=side_style(view, view["squads"][n["squad"]]
                                                            ["side"]))
            elif p in blasts:
                out.append(BLASTS.get(blasts[p], "**"), style="red")
            elif p in marked:
                out.append("<>", style="yellow")
            else:
                cell = m.cell(p)
                out.append("  " if cell.flap and p in flaps else TERRAIN.get(cell.terrain, "??"),
                           style="dim")
        out.append(_edge(m, opened, ("v", xs.stop, y), 1) + "\n")


def noses(view: View) -> Group:
    """The squads in one line, then a row per nose (its squad's letter leads its label)."""
    names = labels(view)
    squads = Text("Squads: ")
    for i, sq in enumerate(view["squads"]):
        first = next((names[n["id"]][0] for n in view["noses"] if n["squad"] == sq["index"]), "?")
        squads.append(("" if i == 0 else ", ") + f"{first} {sq['spec']} ({sq['side']})",
                      style=side_style(view, sq["side"]))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for head in ("", "nose", "where", "pupae", "state", "weapons", "marks"):
        table.add_column(head, overflow="fold", ratio=2 if head == "weapons" else None)
    for n in view["noses"]:
        sq = view["squads"][n["squad"]]
        lead = " (leader)" if sq.get("leader") == n["id"] else ""
        most = n["attrs"]["pupae"]
        wounded = n["status"] == "in_play" and n["pupae"] < most
        state = STANDING.get(n["status"], n["status"]) + (" · WOUNDED" if wounded else "")
        where = f"{n['pos'][0]},{n['pos'][1]} {n['facing']}" if n["pos"] and \
            n["status"] == "in_play" else "-"
        table.add_row(Text(names[n["id"]], style=side_style(view, sq["side"])),
                      n["name"] + lead, where, f"{n['pupae']}/{most}", state, _weapons(n),
                      _marks(n))
    return Group(squads, table)


def _weapons(n: Mapping[str, Any]) -> str:
    parts = []
    for w in dict.fromkeys(n["weapons"]):  # a pair of pistols or SMGs is listed twice
        if w in everyones():
            continue
        held, jammed = n["weapons"].count(w), n["jammed"].count(w)
        text = ("2× " if held == 2 else "") + weapon_name(w).split(" (")[0]  # English name
        if w in n["ammo"]:
            text += f" {n['ammo'][w]} shots, {n['spares'].get(w, 0)} spare"
        if jammed:
            text += " JAMMED" if jammed >= held else f" {jammed} of {held} JAMMED"
        parts.append(text)
    parts += [f"{weapon_name(g).split(' (')[0]} x{k}" for g, k in n["grenades"].items() if k]
    if n["stowed"]:
        parts.append("stowed: " + ", ".join(weapon_name(w) for w in n["stowed"]))
    return ", ".join(parts) or "-"


def _marks(n: Mapping[str, Any]) -> str:
    marks = [word for key, word in (("alert", "on alert"), ("pajara", "pájara"),
                                    ("done", "done"), ("trolley", "trolley")) if n[key]]
    marks += [f"{k} {v}" for k, v in n["goods"].items() if v]
    if n["role"]:
        marks.append(humanize(n["role"]))
    marks += [f"card: {card_title(m['card'])}" for m in n["mods"]]
    return ", ".join(marks)


def cards(view: View) -> Text:
    """The seat's own event cards by title (with what they do); of the others, counts."""
    text = Text()
    if view["hand"]:
        text.append("Your event cards:\n", style="bold")
        for cid in view["hand"]:
            card = next((c for c in content().events.cards if c.id == cid), None)
            text.append(f"  {card_title(cid)}" + (f" ({humanize(card.timing)}): {card.effect}"
                                                   if card else "") + "\n")
    text.append("Cards in hand: " + ", ".join(
        f"seat {s} {k}" for s, k in enumerate(view["hand_counts"])) + " · decks: " + ", ".join(
        f"seat {s} {k}" for s, k in enumerate(view["deck_counts"])))
    lying = [k for k in view["markers"] if k.get("pos")]
    if lying:
        text.append("\nMarkers: " + ", ".join(
            f"{'face-down marker' if k['kind'] == 'face_down' else humanize(k['kind'])} at "
            f"{k['pos'][0]},{k['pos'][1]}" for k in lying))
    return text


def summary(view: View, outcome: Outcome) -> str:
    """The end in one line: the winning side and seats, and why."""
    result = view.get("result") or {}
    seats = ", ".join(f"seat {s}" for s in outcome.winners) or "no seat"
    if outcome.draw:
        return f"Outcome: draw: {outcome.reason}."
    return f"Outcome: {result.get('side') or 'nobody'} won ({seats}): {outcome.reason}."
