"""Bandas as rich renderables, from a view: the table in centimetres drawn to a character grid
(terrain pieces, vehicles, crates and each model at its rounded place, lettered by gang), a
roster of models (state, weapons, ammunition, armour, skills) and of vehicles, and the turn,
initiative and activation under way.

The book has no hidden information, so the view is the whole table. Terrain comes from the
game's content (the same tables the server plays on)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from shapely.geometry import Polygon
from shapely.geometry import box as cell_box

from partida.engine import Outcome
from partida.games.bandas.content import Content, load
from partida.games.bandas.geometry import footprint

View = Mapping[str, Any]

CM_PER_COLUMN, CM_PER_ROW = 2.0, 4.0    # a character is about twice as tall as it is wide
SEAT_STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green")
TERRAIN = {"building": "▒", "wall": "█", "solid": "▓", "light": "░"}
VEHICLE, CRATE, CROWD = "=", "$", "*"
LEGEND = (f"{TERRAIN['building']} building · {TERRAIN['wall']} wall · {TERRAIN['solid']} solid "
          f"· {TERRAIN['light']} light scenery · {VEHICLE} vehicle (crew at its centre) · "
          f"{CRATE} crate · {CROWD} several models · letters: models (see the roster)")
STATES = {"standing": "standing", "prone": "prone", "down": "DOWN", "stunned": "STUNNED",
          "out": "OUT of action"}


@cache
def content() -> Content:
    return load()


def humanize(word: Any) -> str:
    return str(word).replace("_", " ")


def gang_name(view: View, seat: int) -> str:
    """The gang a seat plays: its submitted sheet's name, else the table's gang."""
    side = view["sides"][seat]
    sheet = (view["options"].get("gangs") or {}).get(side)
    if isinstance(sheet, Mapping) and sheet.get("name"):
        return str(sheet["name"])
    table = content().table(view["table"])
    gang = next((s.gang for s in table.sides if s.id == side), None)
    return content().gangs[gang].name if gang in content().gangs else side


def labels(view: View) -> dict[str, str]:
    """model id -> one character: A.. for seat 0, a.. for seat 1, 1.. for seat 2, then
    other symbols."""
    series = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "123456789",
              "αβγδεζηθικλμ")
    counts: dict[int, int] = {}
    out = {}
    for mid, m in view["models"].items():
        i = counts.get(m["seat"], 0)
        counts[m["seat"]] = i + 1
        letters = series[m["seat"] % len(series)]
        out[mid] = letters[i % len(letters)]
    return out


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def render(view: View) -> RenderableType:
    return Group(status(view), table_grid(view), roster(view), vehicles(view))


def status(view: View) -> Text:
    title = content().table(view["table"]).title
    order = " then ".join(f"seat {s}" for s in view["order"]) or "not rolled"
    lines = [f"Bandas · {title} · turn {view['turn']}/{view['turn_limit']} · initiative: "
             f"{order} · to act: {', '.join(f'seat {s}' for s in view['to_act']) or 'nobody'}"]
    lines.append("Gangs: " + ", ".join(f"seat {s} {gang_name(view, s)} ({side})"
                                       + (" ROUTED" if s in view["routed"] else "")
                                       for s, side in enumerate(view["sides"])))
    a = view.get("active")
    if a:
        unit = view["models"].get(a["unit"]) or view["vehicles"].get(a["unit"]) or {}
        lines.append(f"Activating: {unit.get('name', a['unit'])} ({a.get('actions', 0)} "
                     "actions left" + (f", {a['shots']} shots" if a.get("shots") else "")
                     + (f", {a['blows']} blows" if a.get("blows") else "") + ")")
    result = view.get("result")
    if result:
        won = ", ".join(gang_name(view, s) for s in result["winners"]) or "nobody (a draw)"
        lines.append(f"MATCH OVER: {won} won: {result['reason']}")
    return Text("\n".join(lines))


def _cell(x: float, y: float, cols: int, rows: int) -> tuple[int, int]:
    """The character a point of the table falls in (the table's far edges in the last)."""
    return (min(cols - 1, max(0, int(x // CM_PER_COLUMN))),
            min(rows - 1, max(0, int(y // CM_PER_ROW))))


def table_grid(view: View) -> Text:
    """The table, y growing down the page; each character covers 2 cm by 4 cm."""
    t = content().table(view["table"])
    cols, rows = math.ceil(t.width / CM_PER_COLUMN), math.ceil(t.height / CM_PER_ROW)
    chars = [[(" ", "")] * cols for _ in range(rows)]

    def fill(shape: Polygon, char: str, style: str) -> None:
        """Every character the shape overlaps (a 1 cm wall still shows)."""
        x0, y0, x1, y1 = shape.bounds
        (c0, r0), (c1, r1) = _cell(x0, y0, cols, rows), _cell(x1, y1, cols, rows)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                here = cell_box(c * CM_PER_COLUMN, r * CM_PER_ROW, (c + 1) * CM_PER_COLUMN,
                           (r + 1) * CM_PER_ROW)
                if shape.intersection(here).area > 0:
                    chars[r][c] = (char, style)

    for p in sorted(t.pieces, key=lambda p: p.kind == "light", reverse=True):
        fill(Polygon(p.polygon), TERRAIN[p.kind], "dim")
    for v in view["vehicles"].values():
        kind = content().points.vehicles[v["kind"]]
        fill(footprint(v["x"], v["y"], v["heading"], kind.length, kind.width), VEHICLE,
             "dim strike" if v["wrecked"] else seat_style(v["seat"]))
    for x, y in view["loot"]:
        c, r = _cell(x, y, cols, rows)
        chars[r][c] = (CRATE, "yellow")
    marks = labels(view)
    placed: dict[tuple[int, int], int] = {}
    for mid, m in view["models"].items():
        if m["status"] == "out":
            continue
        x, y = (view["vehicles"][m["vehicle"]]["x"], view["vehicles"][m["vehicle"]]["y"]) \
            if m["vehicle"] else (m["x"], m["y"])
        c, r = _cell(x, y, cols, rows)
        placed[(c, r)] = placed.get((c, r), 0) + 1
        chars[r][c] = (marks[mid] if placed[(c, r)] == 1 else CROWD, seat_style(m["seat"]))
    out = Text("    " + "".join(f"{int(c * CM_PER_COLUMN):<5}" for c in range(0, cols, 5))
               + " cm\n")
    out.append("   +" + "-" * cols + "+\n")
    for r, line in enumerate(chars):
        out.append(f"{int(r * CM_PER_ROW):>3}|")
        for char, style in line:
            out.append(char, style=style)
        out.append("|\n")
    out.append("   +" + "-" * cols + "+\n")
    out.append(LEGEND, style="dim")
    return out


def _weapons(m: Mapping[str, Any]) -> str:
    parts = []
    for w in m["weapons"]:
        text = humanize(w)
        if w == "shotgun" and m.get("shotgun_ammo"):
            text += f" ({humanize(m['shotgun_ammo'])})"
        if m.get("reload") == w:
            text += " MUST RELOAD"
        parts.append(text)
    return ", ".join(parts) or "-"


def _where(view: View, m: Mapping[str, Any]) -> str:
    if m["vehicle"]:
        v = view["vehicles"][m["vehicle"]]
        return f"in {v['name']} ({m['role']})"
    return f"{m['x']:.0f},{m['y']:.0f}" + (f" on {m['roof']}" if m["roof"] else "")


def roster(view: View) -> Table:
    """A row per model, gang by gang (the status line names the gangs): grade, place, state,
    weapons with their ammunition, armour and skills."""
    marks = labels(view)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Models")
    for head in ("", "model", "where (cm)", "state", "weapons (ammo)", "armour, skills",
                 "notes"):
        table.add_column(head, overflow="fold", ratio=2 if head.startswith("weapons") else None)
    rows = sorted(view["models"].items(), key=lambda kv: kv[1]["seat"])
    for i, (mid, m) in enumerate(rows):
        notes = [w for key, w in (("activated", "activated"), ("netted", "netted"),
                                  ("amulet_used", "amulet used")) if m.get(key)]
        if m.get("loot"):
            notes.append(f"{m['loot']} crate(s)")
        if m.get("drugs"):
            notes.append(f"drugs taken {m['drugs']}")
        kit = ", ".join(map(humanize, [m["armour"] or "no armour", *m["skills"]]))
        last = i + 1 == len(rows) or rows[i + 1][1]["seat"] != m["seat"]
        table.add_row(Text(marks[mid], style=seat_style(m["seat"])),
                      f"{m['name']} ({m['grade']})", _where(view, m),
                      STATES.get(m["status"], m["status"]), _weapons(m), kit,
                      ", ".join(notes), end_section=last)
    return table


def vehicles(view: View) -> Table | Text:
    if not view["vehicles"]:
        return Text("")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Vehicles")
    for head in ("vehicle", "gang", "kind", "where (cm)", "heading", "damage", "weapon", "crew"):
        table.add_column(head, overflow="fold")
    for vid, v in view["vehicles"].items():
        damage = [f"{k} {v[k]}" for k in ("wheels", "engine") if v[k]]
        if v["wrecked"]:
            damage.insert(0, "WRECKED")
        weapon = humanize(v["weapon"]) + (" (broken)" if v["weapon_broken"] else "") \
            if v["weapon"] else "-"
        crew = [f"{m['name']} ({m['role']})" for m in view["models"].values()
                if m["vehicle"] == vid and m["status"] != "out"]
        table.add_row(Text(v["name"], style=seat_style(v["seat"])), gang_name(view, v["seat"]),
                      f"{v['kind']}, {v['armour'] or 'no'} armour",
                      f"{v['x']:.0f},{v['y']:.0f}", f"{v['heading']:.0f}°"
                      + (" moving" if v["moving"] else ""), ", ".join(damage) or "-", weapon,
                      ", ".join(crew) or "none")
    return table


def summary(view: View, outcome: Outcome) -> str:
    """The end in one line: the winning gangs and seats, and why."""
    if outcome.draw:
        return f"Outcome: draw: {outcome.reason}."
    gangs = " and ".join(gang_name(view, s) for s in outcome.winners)
    seats = ", ".join(f"seat {s}" for s in outcome.winners)
    return f"Outcome: {gangs} won ({seats}): {outcome.reason}."
