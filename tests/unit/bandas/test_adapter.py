"""The typed protobuf contract of Bandas (adapter.py): every action id offered in bot playouts
of every table round-trips exactly, every event kind and view converts key for key, and ids
and messages naming what the content does not have (units, weapons, points off the table) are
refused with errors that say what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from partida.engine import Event, LocalRng
from partida.engine.bots import play_match
from partida.engine.conformance import GARBAGE_IDS
from partida.games.bandas.adapter import (
    ADAPTER,
    EVENT_KINDS,
    event_to_proto,
    view_to_proto,
)
from partida.games.bandas.bots import BOTS
from partida.games.bandas.v1 import bandas_pb2 as pb

from .. import adapter_kit as kit
from .positions import GAME

TABLES = (("street_fight", 2), ("convoy_ambush", 2), ("scramble", 3))
SOURCES = Path(__file__).parents[3] / "services" / "partida" / "games" / "bandas"

# Engine data key -> typed field where the names differ (written out here, apart from the
# adapter). Keys not listed keep their name.
RENAMED = {"from": "origin", "to": "destination"}
ENUM_PREFIXES = ("STATUS_", "ROLE_", "DRUG_", "WOUND_RESULT_")


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    seen = kit.seen_in_play()

    def observe(state: Any, seat: Any, action: Any, events: list[Event]) -> None:
        kit.remember_events(seen, events)
        for s in GAME.to_act(state):
            seen["ids"].update(a.id for a in GAME.legal_actions(state, s))
        view = GAME.view(state, seat)
        active = (view["active"] or {}).get("unit")
        seen["views"].setdefault((view["table"], view["turn"], active), view)

    for seed, (table, seats) in enumerate(TABLES, start=1):
        for bot in ("random", "heuristic"):
            play_match(GAME, table, [BOTS[bot]() for _ in range(seats)], seed, observe=observe)
    return seen


def test_every_action_id_round_trips(played: dict[str, Any]) -> None:
    cases = kit.round_trip(ADAPTER, pb.Action, played["ids"])
    # "continue" only follows a resignation, repairs and taking the wheel need a damaged or
    # driverless vehicle: their typed forms are checked below.
    assert kit.every_case(pb.Action) - cases <= {"carry_on", "repair", "wheel", "stand"}


@pytest.mark.parametrize(("action_id", "typed"), [
    ("activate:ch_jefa", pb.Action(activate=pb.Action.Activate(unit="ch_jefa"))),
    ("end", pb.Action(end=pb.Action.EndActivation())),
    ("stand", pb.Action(stand=pb.Action.StandUp())),
    ("move:12.3,0.0", pb.Action(move=pb.Action.Move(to=pb.Point(x=12.3, y=0)))),
    ("drive:120.0,45.5", pb.Action(drive=pb.Action.Drive(to=pb.Point(x=120, y=45.5)))),
    ("shoot:ca_camion:heavy_auto", pb.Action(shoot=pb.Action.Shoot(target="ca_camion",
                                                                   weapon="heavy_auto"))),
    ("fight:mu_sarna:net", pb.Action(fight=pb.Action.Fight(target="mu_sarna", weapon="net"))),
    ("fight:mu_sarna:pistol", pb.Action(fight=pb.Action.Fight(target="mu_sarna",
                                                              weapon="pistol"))),
    ("board:em_bugi", pb.Action(board=pb.Action.Board(vehicle="em_bugi"))),
    ("repair:em_bugi", pb.Action(repair=pb.Action.Repair(vehicle="em_bugi"))),
    ("wheel:em_bugi", pb.Action(wheel=pb.Action.TakeWheel(vehicle="em_bugi"))),
    ("drugs:pericia", pb.Action(drugs=pb.Action.TakeDrugs(effect=pb.DRUG_PERICIA))),
    ("continue", pb.Action(carry_on=pb.Action.CarryOn())),
])
def test_typed_forms(action_id: str, typed: pb.Action) -> None:
    kit.check_typed_form(ADAPTER, action_id, typed)


@pytest.mark.parametrize("action_id", [
    *GARBAGE_IDS, "move", "move:1,2", "move:12.30,4.0", "move:-1.0,4.0", "move:500.0,4.0",
    "move:nan,4.0", "move:1.0", "drive:x,y", "shoot:ch_jefa", "shoot:ch_jefa:sabre",
    "shoot:Jefa:pistol", "fight:ch_jefa:laser_rifle", "fight:ch_jefa:bazooka", "board:",
    "board:a:b", "drugs:beer", "drugs", "end:now", "activate:ch jefa", "continue:"])
def test_malformed_ids_raise_value_error(action_id: str) -> None:
    kit.check_refused_id(ADAPTER, action_id)


@pytest.mark.parametrize(("msg", "says"), [
    (pb.Action(), "empty"),
    (pb.Action(move=pb.Action.Move()), "needs its destination"),
    (pb.Action(move=pb.Action.Move(to=pb.Point(x=-0.5, y=3))), "not a bandas point"),
    (pb.Action(drive=pb.Action.Drive(to=pb.Point(x=30, y=400))), "not a bandas point"),
    (pb.Action(move=pb.Action.Move(to=pb.Point(x=1.25, y=3))), "at most one decimal"),
    (pb.Action(shoot=pb.Action.Shoot(target="ch_jefa", weapon="catapult")),
     "'catapult' is not a bandas ranged weapon"),
    (pb.Action(shoot=pb.Action.Shoot(target="ch_jefa", weapon="sabre")),
     "not a bandas ranged weapon"),
    (pb.Action(fight=pb.Action.Fight(target="ch_jefa", weapon="laser_rifle")),
     "not a bandas melee weapon"),
    (pb.Action(fight=pb.Action.Fight(target="Bad Id", weapon="sabre")),
     "'Bad Id' is not a bandas model or vehicle id"),
    (pb.Action(board=pb.Action.Board()), "not a bandas model or vehicle id"),
    (pb.Action(activate=pb.Action.Activate(unit="x:y")), "not a bandas model or vehicle id"),
    (pb.Action(drugs=pb.Action.TakeDrugs()), "missing or unknown"),
])
def test_malformed_messages_are_refused_clearly(msg: pb.Action, says: str) -> None:
    kit.check_refused_message(ADAPTER, msg, says)


def test_the_services_accept_a_typed_action() -> None:
    kit.check_services_accept(ADAPTER, "move:40.5,12.0")


POINTS = {"from", "to", "at"}
MAPS = {"scores", "faces", "foes"}  # every entry of a map is sent, zero included


def _shaped(data: Any, key: str = "") -> Any:
    """Engine data in the typed message's shape: renamed keys, `[x, y]` as points,
    initiative rounds under `faces`."""
    if isinstance(data, Mapping):
        out = {RENAMED.get(k, k): _shaped(v, k) for k, v in data.items()}
        return {"faces": out} if key == "rolls" else out
    if isinstance(data, list):
        if key in POINTS or key == "loot[]":
            return {"x": data[0], "y": data[1]}
        return [_shaped(v, f"{key}[]" if key == "loot" else key) for v in data]
    return data


def _same(msg: Any, data: Mapping[str, Any]) -> bool:
    return bool(kit.strip(kit.plain(msg, ENUM_PREFIXES), MAPS) == kit.strip(_shaped(data), MAPS))


def _check_event(e: Event) -> None:
    assert _same(kit.typed_event(ADAPTER, e), e.data), e.kind


def test_every_event_kind_in_play_converts_key_for_key(played: dict[str, Any]) -> None:
    kinds = set()
    for (kind, _), e in sorted(played["events"].items()):
        kinds.add(kind)
        _check_event(e)
    assert kinds <= EVENT_KINDS
    # The kinds these playouts did not bring out are made below.
    assert EVENT_KINDS - kinds <= {e.kind for e in RARE} | {"resigned"}, EVENT_KINDS - kinds


def test_every_event_kind_the_engine_writes_has_a_typed_case() -> None:
    written = kit.written_event_kinds(SOURCES)
    written |= {"boarding_failed"}  # vehicles.py names it in a conditional expression
    assert written == EVENT_KINDS


# The rarer kinds, with data in the form the engine writes it (see the source lines named).
RARE = [
    Event("stood_up", {"model": "ch_pico"}),                                   # actions.py
    Event("took_the_wheel", {"model": "ca_llave", "vehicle": "ca_camion"}),    # actions.py
    Event("acid_blood", {"model": "mu_grumo", "burns": "ch_pico"}),            # attacks.py
    Event("netted", {"model": "ch_pico"}),                                     # attacks.py
    Event("drifted", {"vehicle": "em_bugi", "scatter": 3, "cm": 7, "to": [40.5, 12.0],
                      "crashed": True}),                                       # vehicles.py
    Event("crew_hit", {"vehicle": "ca_camion", "roll": 5, "model": None}),     # vehicles.py
    Event("engine_roll", {"vehicle": "ca_camion", "roll": 6, "needed": 5}),    # vehicles.py
    Event("exploded", {"vehicle": "ca_camion"}),                               # vehicles.py
    Event("repaired", {"model": "ca_llave", "vehicle": "ca_camion"}),          # vehicles.py
    Event("pushed", {"model": "ch_pico", "from": [1.0, 2.0], "to": [1.0, 5.5], "cm": 3,
                     "scatter": 0}),                                           # combat.py
    Event("wound", {"model": "mu_ojo", "roll": 2, "result": "none"}),          # combat.py
    Event("recovered", {"model": "ch_pico", "now": "prone"}),
    Event("blow", {"model": "ch_pico", "target": "mu_sarna", "weapon": "spear", "blow": 2}),
    Event("boarded", {"model": "ca_llave", "vehicle": "em_bugi"}),             # vehicles.py
    Event("boarding_failed", {"model": "ca_moto", "vehicle": "ca_montura"}),
    Event("cargo_hit", {"vehicle": "ca_camion", "model": "ca_llave"}),         # vehicles.py
    Event("charged_while_down", {"model": "ca_ruedas", "now": "stunned"}),     # combat.py
    Event("fell", {"model": "em_polvo", "height": 99.0, "checks": 2}),         # combat.py
    Event("harpooned", {"model": "em_garfio", "vehicle": "ca_camion"}),        # attacks.py
    Event("parry", {"model": "em_polvo", "roll": 6, "parried": True}),         # attacks.py
    Event("spear_strikes_first", {"model": "ch_pico", "at": "mu_sarna"}),      # attacks.py
    Event("match_over", {"winners": [], "reason": "turn limit",
                         "scores": {"0": 0.5, "1": 0.5}}),                     # rules.py
]


@pytest.mark.parametrize("event", RARE, ids=[e.kind for e in RARE])
def test_rare_event_kinds_convert(event: Event) -> None:
    _check_event(event)


def test_resignation_events_convert() -> None:
    state = GAME.new_state("scramble", 3, {}, LocalRng(3))
    for e in GAME.resign(state, state.order[state.cursor]):
        _check_event(e)


def test_views_convert_key_for_key(played: dict[str, Any]) -> None:
    tables = set()
    for view in played["views"].values():
        tables.add(view["table"])
        assert _same(view_to_proto(view), {k: v for k, v in view.items() if k != "game"})
    assert tables == {t for t, _ in TABLES}


def test_a_view_with_submitted_gangs_converts() -> None:
    sheet = {"id": "yo", "name": "Los Míos", "points_limit": 120,
             "models": [{"id": "yo_jefe", "name": "Jefe", "grade": "veteran",
                         "weapons": ["light_auto", "sabre"], "armour": "composite"},
                        {"id": "yo_conductor", "name": "Volante", "grade": "ganger",
                         "weapons": ["pistol"], "skills": ["ace_driver"]}],
             "vehicles": [{"id": "yo_bugi", "name": "Bugi", "kind": "buggy",
                           "driver": "yo_conductor"}]}
    state = GAME.new_state("street_fight", 2, {"gangs": {"este": sheet}, "turn_limit": 5},
                           LocalRng(1))
    view = GAME.view(state, 0)
    typed = view_to_proto(view)
    assert typed.options.gangs["este"].vehicles[0].driver == "yo_conductor"
    assert typed.models["yo_conductor"].role == pb.ROLE_DRIVER
    assert _same(typed, {k: v for k, v in view.items() if k != "game"})


def test_unknown_data_is_refused() -> None:
    kit.check_unknown_data_refused(ADAPTER, "moved", {"model": "ch_pico"}, "weather")
    with pytest.raises(ValueError, match="not a bandas Status"):
        event_to_proto("recovered", {"model": "ch_pico", "now": "dancing"})
