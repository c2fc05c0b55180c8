"""The Las Montañas board, hands and status as rich renderables, built from a view dict only
(terrains and band widths come from the view's `alleys` and `bands`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from partida.engine import Outcome

View = Mapping[str, Any]

TERRAIN_STYLE = {"water": "bold blue", "snow": "bold white", "ice": "bold cyan"}
BAND_STYLE = {"long": "yellow", "medium": "dark_orange", "short": "red"}
MONSTER_CODES = {"fast": "F", "trooper": "T", "strong": "S", "very_strong": "VS",
                 "fast_strong": "FS", "strong_trooper": "ST", "super": "Su"}


def terrain_of(view: View, alley: int) -> str:
    return str(view["alleys"][alley - 1]["terrain"])


def monster_code(kind: str) -> str:
    return MONSTER_CODES.get(kind) or "".join(w[:1].upper() for w in kind.split("_"))


def monster_name(kind: str) -> str:
    return kind.replace("_", " ").title()


def band_squares(view: View) -> list[tuple[str, int]]:
    """(band, square) for every square of an alley, access edge first."""
    out: list[tuple[str, int]] = []
    for band in view["bands"]:
        for _ in range(band["squares"]):
            out.append((band["band"], len(out)))
    return out


def render(view: View) -> RenderableType:
    """The whole table-top: board, legend, hands and status."""
    return Group(board(view), legend(view), hands(view), status(view))


def board(view: View) -> Table:
    """Alleys as columns; a row per square (grouped by band), then the ship's rows."""
    sections = len(view["ship"])
    ship_square = view["alley_squares"]
    table = Table(title=f"Las Montañas de la Locura · {view['scenario']}", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    table.add_column("square", justify="right", no_wrap=True)
    for alley in range(1, sections + 1):
        terrain = terrain_of(view, alley)
        table.add_column(f"{alley} {terrain}", header_style=TERRAIN_STYLE.get(terrain, "bold"),
                         justify="center", min_width=6, ratio=1)
    cells: dict[tuple[int, int], list[str]] = {}
    for m in view["monsters"]:
        cells.setdefault((m["alley"], min(m["square"], ship_square)), []).append(
            f"{monster_code(m['kind'])}{m['life']}")
    rows = band_squares(view)
    for i, (band, square) in enumerate(rows):
        last_of_band = i + 1 == len(rows) or rows[i + 1][0] != band
        label = Text(f"{band} {square:>2}", style=BAND_STYLE[band])
        table.add_row(label, *(_cell(cells.get((a, square))) for a in range(1, sections + 1)),
                      end_section=last_of_band)
    _ship_rows(table, view, cells.get)
    return table


def _cell(codes: Sequence[str] | None, style: str = "bold") -> Text:
    return Text(" ".join(codes), style=style) if codes else Text("·", style="dim")


def _ship_rows(table: Table, view: View, inside: Any) -> None:
    ship = view["ship"]
    square = view["alley_squares"]
    table.add_row(Text("section", style="bold"),
                  *(Text("wrecked", style="bold red") if s["destroyed"] else Text("ok", "green")
                    for s in ship))
    table.add_row("barricade", *(Text(s["barricade"] or "-", style="bold" if s["barricade"]
                                      else "dim") for s in ship))
    table.add_row("explorers", *(Text(_explorers(s["explorers"]) or "-") for s in ship))
    table.add_row(Text("in ship", style="bold red"),
                  *(_cell(inside((s["section"], square)), "bold red") for s in ship))


def _explorers(per_seat: Sequence[int]) -> str:
    return " ".join(f"s{seat}×{n}" for seat, n in enumerate(per_seat) if n)


def legend(view: View) -> Text:
    kinds = sorted({m["kind"] for m in view["monsters"]}, key=monster_code)
    if not kinds:
        return Text("No monsters on the board.", style="dim")
    words = " · ".join(f"{monster_code(k)} {monster_name(k)}" for k in kinds)
    return Text(f"Monsters: code + life left. {words}", style="dim")


def hands(view: View) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    table.add_column("seat", no_wrap=True)
    table.add_column("teams")
    table.add_column("pawns", justify="right")
    table.add_column(f"hand (limit {view['hand_limit']})")
    to_act = set(view["to_act"])
    for seat, hand in enumerate(view["hands"]):
        pawns = sum(s["explorers"][seat] for s in view["ship"])
        marker = "▶ " if seat in to_act else "  "
        names = ", ".join(card["name"] for card in hand) or "-"
        out = not pawns and view["phase"] != "deploy"
        table.add_row(Text(f"{marker}{seat}", style="bold" if seat in to_act else ""),
                      ", ".join(view["teams"][seat]), "out" if out else str(pawns), names)
    return table


def status(view: View) -> Text:
    lines = [
        f"Turn {view['turn']} · phase {view['phase']} · active seat {view['active']} · "
        f"to act: {_seats(view['to_act'])}",
        f"Deck {view['deck_count']} · discard {len(view['discard'])} · "
        f"tiles left {view['pool_count']} · killed {view['killed']}/{view['monsters_total']}",
    ]
    if view["immobilized"]:
        lines.append("Immobilized at the next monster move: " + ", ".join(view["immobilized"]))
    pending = pending_text(view)
    if pending:
        lines.append(pending)
    result = view.get("result")
    if result:
        lines.append(("WON: " if result["won"] else "LOST: ") + result["reason"])
    return Text("\n".join(lines))


def summary(view: View, outcome: Outcome) -> str:
    """The end of a match in one line: won or lost, why, and the monsters killed."""
    verdict = "WON" if outcome.winners else "LOST"
    return (f"Outcome: {verdict}: {outcome.reason}. Monsters killed: {view['killed']}/"
            f"{view['monsters_total']} (turn {view['turn']}).")


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"


def card_names(view: View) -> dict[int, str]:
    cards = [c for hand in view["hands"] for c in hand] + list(view["discard"])
    return {c["id"]: c["name"] for c in cards}


def pending_text(view: View) -> str:
    """The open decision in words: explorers or barricades left, an exchange offer, moves."""
    pending, phase = view["pending"], view["phase"]
    if phase == "deploy" and "left" in pending:
        left = ", ".join(f"s{seat}×{n}" for seat, n in enumerate(pending["left"]) if n)
        return f"Explorers still to place: {left}"
    if phase == "barricade" and "left" in pending:
        return f"Barricades still to place: {pending['left']}"
    if phase == "reply" and "proposal" in pending:
        kind, mine, theirs = pending["proposal"]
        names = card_names(view)
        give, take = names.get(mine, f"card {mine}"), names.get(theirs, f"card {theirs}")
        offer = {"give": f"gives you {give}", "ask": f"asks you for {take}",
                 "swap": f"offers {give} for your {take}"}.get(kind, kind)
        return f"Exchange: seat {view['active']} {offer} (seat {pending['partner']} answers)"
    if phase == "redeploy" and "moves_left" in pending:
        return f"Explorer moves left: {pending['moves_left']}"
    return ""
