"""Dynamit Joe as rich renderables, from a seat's view: the village laid out by the zones'
centre points, every character's card (wounds, guns and ammunition, objects, ambush, joker),
the round and the chip, and the pending decision in words.

Only the view is shown: another seat's joker arrives as "hidden" and is drawn face down. The
board's geometry and the names of things come from the game's content (the same data the
server plays with)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from partida.engine import Outcome
from partida.games.dynamit_joe.content import Content, load

View = Mapping[str, Any]

SIDE_STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green")
COLUMNS = 6
# Where the grid's rows start, as fractions of the board's height: the back and the front of
# the buildings north of the street, the two sides of the main street, the front and the back
# of what lies south of it (the reconstructed village of content/board.json).
ROW_TOPS = (0.15, 0.375, 0.5, 0.625, 0.775)


def humanize(word: str) -> str:
    return word.replace("_", " ").capitalize()


@cache
def _content() -> Content:
    return load()


@cache
def capacities() -> dict[str, int]:
    """Object kind -> bullets it holds (0: not a gun)."""
    return {k.kind: k.capacity for k in _content().objects.objects}


@cache
def zone_cells() -> dict[str, tuple[int, int]]:
    """zone -> (row, column) of the village grid, from its centre point."""
    board = _content().board
    out = {}
    for z in board.zones:
        x, y = z.centre
        row = sum(1 for top in ROW_TOPS if y >= top * board.height)
        out[z.id] = (row, min(COLUMNS - 1, int(x * COLUMNS / board.width)))
    return out


def side_styles(view: View) -> dict[str, str]:
    sides = [s.id for s in _content().scenario(view["scenario"]).sides]
    return {s: SIDE_STYLES[i % len(SIDE_STYLES)] for i, s in enumerate(sides)}


def kind_name(kind: str) -> str:
    return "face-down marker" if kind == "face_down" else kind.replace("_", " ")


def thing(obj: Mapping[str, Any]) -> str:
    """An object marker in words: 'colt 4/6', 'nugget ($2)', 'face-down marker'."""
    kind = obj["kind"]
    if kind == "face_down":
        return kind_name(kind)
    capacity = capacities().get(kind, 0)
    text = kind_name(kind)
    if capacity:
        text += f" {obj['ammo']}/{capacity}"
    if obj.get("value"):
        text += f" (${obj['value']})"
    if obj.get("face_down"):
        text += " (face down)"
    if obj.get("jammed"):
        text += " JAMMED"
    return text


def status_of(c: Mapping[str, Any]) -> str:
    """What the table sees of a character's state, most important first."""
    for key, word in (("dead", "dead"), ("captured", "arrested"), ("left", "left the board"),
                      ("tied", "tied up"), ("locked", "locked up")):
        if c[key]:
            return word
    marks = []
    if c["ambush"]:
        marks.append("in ambush")
    if c["dormant"]:
        marks.append("waiting (" + c["dormant"].split(":")[0] + ")")
    if c["skip"]:
        marks.append("skips his next turn")
    return ", ".join(marks) or "standing"


def joker_text(c: Mapping[str, Any]) -> Text:
    """The seat's own joker by name; anyone else's only as face down."""
    held = c["joker"]
    parts = []
    if held == "hidden":
        parts.append(Text("face down", style="dim"))
    elif held:
        parts.append(Text(humanize(held), style="bold green"))
    if c["jokers_played"]:
        parts.append(Text("played: " + ", ".join(humanize(j) for j in c["jokers_played"]),
                          style="dim"))
    return Text(" · ").join(parts) if parts else Text("-", style="dim")


def render(view: View) -> RenderableType:
    """The whole table: village, characters, then round, chip and pending decision."""
    return Group(village(view), characters(view), status(view))


def _marker(c: Mapping[str, Any]) -> str:
    if c["dead"]:
        return "†"
    return "*" if c["ambush"] else ""


def village(view: View) -> Table:
    """A grid of the board (west to east, north to south): each zone with the characters who
    stand in it and the objects lying there."""
    styles = side_styles(view)
    title = _content().scenario(view["scenario"]).title
    table = Table(title=f"Dynamit Joe · {title}", box=box.SQUARE, show_header=False,
                  expand=True, padding=(0, 1))
    for _ in range(COLUMNS):
        table.add_column(ratio=1, vertical="top")
    here: dict[str, list[Text]] = {}
    for c in view["characters"]:
        if c["zone"] and not c["captured"] and not c["left"]:
            style = "dim strike" if c["dead"] else styles.get(c["side"], "bold")
            if view["active"] == c["name"]:
                style += " reverse"
            here.setdefault(c["zone"], []).append(Text(c["name"] + _marker(c), style=style))
    lying: dict[str, list[str]] = {}
    for o in view["ground"]:
        lying.setdefault(o["zone"], []).append(thing(o))
    cells = zone_cells()
    rows = max(r for r, _ in cells.values()) + 1
    grid: list[list[list[Text]]] = [[[] for _ in range(COLUMNS)] for _ in range(rows)]
    for z in _content().board.zones:
        r, col = cells[z.id]
        who = here.get(z.id)
        line = Text(z.id + (":" if who else ""), style="" if who else "dim")
        if who:
            line += Text(" ") + Text(" ").join(who)
        grid[r][col].append(line)
        if lying.get(z.id):
            grid[r][col].append(Text("  · " + ", ".join(lying[z.id]), style="yellow"))
    for r, cols in enumerate(grid):
        table.add_row(*(Text("\n").join(cell) for cell in cols), end_section=r in (1, 3))
    table.caption = "name* in ambush · name† dead (the body stays) · indented: on the ground"
    return table


def characters(view: View) -> Table:
    styles = side_styles(view)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for head in ("character", "seat", "zone", "wounds", "state", "guns", "objects", "joker"):
        table.add_column(head, overflow="fold", min_width=14 if head == "zone" else None)
    to_act = set(view["to_act"])
    for c in view["characters"]:
        marker = "▶ " if view["active"] == c["name"] else "  "
        wounds = "■" * c["wounds"] + "□" * (3 - c["wounds"])
        table.add_row(
            Text(marker + c["name"], style=styles.get(c["side"], "")),
            Text(f"{c['seat']} {c['side']}", style="bold" if c["seat"] in to_act else ""),
            c["zone"] or "-", wounds, status_of(c),
            ", ".join(thing(g) for g in c["guns"]) or "-",
            ", ".join(thing(o) for o in c["objects"]) or "-",
            joker_text(c))
    return table


def status(view: View) -> Text:
    chip = view["active"] and f"{view['active']} ({view['ap']} action points left)"
    lines = [
        f"Round {view['round']}/{view['round_limit']} · chip: {chip or 'none drawn'} · "
        f"chips left in the bag: {len(view['pool'])} · to act: {_seats(view['to_act'])}"
        + (" · shots have been heard" if view["noise"] else ""),
    ]
    if view["locks"]:
        lines.append("Locks: " + ", ".join(
            f"{humanize(lock)} {'holds' if holds else 'destroyed'}"
            for lock, holds in sorted(view["locks"].items())))
    if view["gold_off"]:
        lines.append("Gold carried off: " + ", ".join(
            f"{side} ${gold}" for side, gold in sorted(view["gold_off"].items())))
    pending = prompt_text(view)
    if pending:
        lines.append(pending)
    result = view.get("result")
    if result:
        lines.append(f"MATCH OVER: {' and '.join(result['sides']) or 'nobody'} won: "
                     f"{result['reason']}")
    return Text("\n".join(lines))


def prompt_text(view: View) -> str:
    """The decision pending outside the active turn, in words (as far as the seat may know)."""
    p = view["prompt"]
    if not p:
        return ""
    kind, who, seat = p["kind"], p.get("char", ""), p.get("seat")
    texts = {
        "window": f"{who} (seat {seat}) may answer {p.get('actor', '')}'s action",
        "reaction": f"Seat {seat} decides a reaction for {who}",
        "joker": f"{who} may play the joker {humanize(p.get('joker', ''))}",
        "initiative": f"Seat {seat} may play Initiative before the next chip is drawn",
        "chip_ambush": f"{who}'s chip is drawn in ambush: stay in ambush or take the turn",
        "clumsy": f"{who} drops an object (clumsiness)",
        "continue": f"Seat {seat} carries on after a surrender",
        "buy": f"Side {p.get('side', '')} buys its equipment (${p.get('money', 0)} left)",
        "hand": f"Seat {seat} gives a character to seat {p.get('to', '')} (8.1)",
    }
    if kind == "place":
        what = who or (thing(p["item"]) if "item" in p else "an object")
        return f"Seat {seat} chooses where {what} starts"
    return "Pending: " + texts.get(kind, f"{kind} for seat {seat}")


def summary(view: View, outcome: Outcome) -> str:
    """The end in one line: the winning sides and seats, why, and the gold carried off."""
    result = view.get("result") or {}
    sides = " and ".join(result.get("sides", [])) or "nobody"
    seats = ", ".join(f"seat {s}" for s in outcome.winners) or "no seat"
    gold = ", ".join(f"{s} ${g}" for s, g in sorted(view["gold_off"].items()))
    tail = f" Gold carried off: {gold}." if gold else ""
    if outcome.draw:
        return f"Outcome: draw: {outcome.reason}.{tail}"
    return f"Outcome: {sides} won ({seats}): {outcome.reason}.{tail}"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"
