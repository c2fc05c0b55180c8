"""Pure rendering: views to rich renderables and events to lines, chosen by game id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import RenderableType

from partida.cli.render import (
    bandas,
    bandas_events,
    batallitas,
    batallitas_events,
    dynamit_joe,
    dynamit_joe_events,
    generic,
    montanas,
    montanas_events,
    pasaran,
    pasaran_events,
)
from partida.engine import Outcome


class Narrator(Protocol):
    def learn(self, view: Mapping[str, Any]) -> None: ...

    def line(self, kind: str, data: Mapping[str, Any]) -> str | None: ...


@dataclass(frozen=True)
class Renderer:
    render: Callable[[Mapping[str, Any]], RenderableType]
    narrator: Callable[[], Narrator]
    summary: Callable[[Mapping[str, Any], Outcome], str]


GENERIC = Renderer(generic.render, generic.Narrator, generic.summary)

RENDERERS: dict[str, Renderer] = {
    "montanas": Renderer(montanas.render, montanas_events.Narrator, montanas.summary),
    "dynamit_joe": Renderer(dynamit_joe.render, dynamit_joe_events.Narrator, dynamit_joe.summary),
    "pasaran": Renderer(pasaran.render, pasaran_events.Narrator, pasaran.summary),
    "batallitas": Renderer(batallitas.render, batallitas_events.Narrator, batallitas.summary),
    "bandas": Renderer(bandas.render, bandas_events.Narrator, bandas.summary),
}


def renderer_for(game_id: str) -> Renderer:
    return RENDERERS.get(game_id, GENERIC)
