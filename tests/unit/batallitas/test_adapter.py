"""The typed protobuf contract of Batallitas (adapter.py): every action id met in bot playouts
of every scenario round-trips exactly, every event kind and every seat's view converts key for
key, names the content does not have are refused with errors that say what is wrong, and an
engine verb or event kind the protos do not carry is caught here rather than lost."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from partida.engine import Event, LocalRng
from partida.engine.bots import RandomBot, play_match
from partida.engine.conformance import GARBAGE_IDS
from partida.games.batallitas import setup
from partida.games.batallitas.adapter import (
    ADAPTER,
    EVENT_KINDS,
    VERBS,
    action_from_proto,
    action_to_proto,
    event_to_proto,
    view_to_proto,
)
from partida.games.batallitas.bots import HeuristicBot
from partida.games.batallitas.rules import Batallitas
from partida.games.batallitas.v1 import batallitas_pb2 as pb

from .. import adapter_kit as kit

GAME = Batallitas()
PACKAGE = Path(__file__).resolve().parents[3] / "services/partida/games/batallitas"

# Engine data key -> typed field where the names differ, per event kind (written out here,
# apart from the adapter). Keys not listed keep their name.
RENAMED: dict[str, dict[str, str]] = {
    "action": {"action": "action_id"},
    "moved": {"from": "from_cell", "to": "to_cell"},
    "leader_chosen": {"type": "nose_type"},
}
UPPER_ENUMS = ("FACING_", "DIRECTION_")  # the engine writes these words in capitals
LOWER_ENUMS = ("SIDE_", "EDGE_", "ATTRIBUTE_", "SWEEP_WAY_", "PRODUCT_", "TROLLEY_MOVE_",
               "ATTACK_RESULT_", "PHASE_", "NOSE_STATUS_", "PROMPT_KIND_")

# Every scenario, with the random bot and the heuristic one, two seeds each.
MATCHES = [(s.id, bot, seed) for s in GAME.info.scenarios for bot in ("random", "heuristic")
           for seed in (1, 2)]


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    seen = kit.seen_in_play()

    def observe(state: Any, seat: Any, action: Any, events: list[Event]) -> None:
        kit.remember_events(seen, [shown for e in events for viewer in (None, 0, 1)
                                   if (shown := e.for_seat(viewer)) is not None])
        for s in range(state.seats):
            seen["ids"].update(a.id for a in GAME.legal_actions(state, s))
        for viewer in (None, 0, 1):
            view = GAME.view(state, viewer)
            kinds = tuple(p["kind"] for p in view["prompts"])
            moment = (viewer, view["scenario"], view["turn"], view["phase"], kinds)
            seen["views"].setdefault(moment, view)

    bots = {"random": RandomBot, "heuristic": HeuristicBot}
    for scenario, bot, seed in MATCHES:
        play_match(GAME, scenario, [bots[bot](), bots[bot]()], seed, observe=observe)
    return seen


def test_every_action_id_round_trips(played: dict[str, Any]) -> None:
    cases = kit.round_trip(ADAPTER, pb.Action, played["ids"])
    every = kit.every_case(pb.Action)
    assert len(cases) >= len(every) // 2, sorted(every - cases)


def _listed_verbs() -> set[str]:
    """Every verb an engine module writes into an action id (`Action("verb...` or
    `Action(f"verb:...`), and every `_do_<verb>` of the rules."""
    verbs = {name[4:] for name in dir(Batallitas) if name.startswith("_do_")}
    for path in PACKAGE.glob("*.py"):
        verbs.update(re.findall(r'Action\(f?"([a-z_]+)[:"{]', path.read_text(encoding="utf-8")))
    return verbs


def test_every_verb_of_the_engine_has_a_typed_case() -> None:
    """A new verb in the engine fails here until the protos and the adapter carry it."""
    verbs = _listed_verbs()
    assert {"move", "fire", "play", "alert", "leader", "pass"} <= verbs  # the scan works
    assert verbs <= VERBS, sorted(verbs - VERBS)


def test_every_event_kind_of_the_engine_has_a_typed_case() -> None:
    """A new event kind fails here until the protos carry it (the playouts may not meet it)."""
    kinds: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        kinds.update(re.findall(r'Event\(\s*"([a-z_]+)"', text))
        kinds.update(re.findall(r'Event\(\s*"[a-z_]+" if [^"]* else "([a-z_]+)"', text))
    assert {"shot", "moved", "match_over"} <= kinds  # the scan works
    assert kinds <= EVENT_KINDS, sorted(kinds - EVENT_KINDS)
    for path in PACKAGE.glob("*.py"):  # kinds built by f-string: some case has the prefix
        for prefix in re.findall(r'Event\(f"([a-z_]+)\{', path.read_text(encoding="utf-8")):
            assert any(k.startswith(prefix) for k in EVENT_KINDS), prefix


@pytest.mark.parametrize(("action_id", "typed"), [
    ("move:3,4", pb.Action(move=pb.Action.Move(cell=pb.Cell(x=3, y=4)))),
    ("move:0,0", pb.Action(move=pb.Action.Move(cell=pb.Cell()))),
    ("deploy:s2.1:5,0:S", pb.Action(deploy=pb.Action.Deploy(
        nose="s2.1", cell=pb.Cell(x=5), facing=pb.FACING_S))),
    ("alert", pb.Action(go_on_alert=pb.Action.GoOnAlert())),
    ("alert:s0.3:cannon", pb.Action(alert_shot=pb.Action.AlertShot(nose="s0.3",
                                                                   weapon="cannon"))),
    ("sweep:chainsaw:4,5:ccw", pb.Action(sweep=pb.Action.Sweep(
        weapon="chainsaw", start=pb.Cell(x=4, y=5), way=pb.SWEEP_WAY_CCW))),
    ("scatter:NE", pb.Action(scatter=pb.Action.Scatter(direction=pb.DIRECTION_NE))),
    ("atrophy:s1.2:muscles", pb.Action(atrophy=pb.Action.Atrophy(
        nose="s1.2", attribute=pb.ATTRIBUTE_MUSCLES))),
    ("play:rebel_fury:s2.3", pb.Action(play_card=pb.Action.PlayCard(card="rebel_fury",
                                                                    nose="s2.3"))),
    ("play:rebel_for_sarge:0", pb.Action(play_card=pb.Action.PlayCard(card="rebel_for_sarge",
                                                                       squad=0))),
    ("play:rebel_booby_trap:2,9", pb.Action(play_card=pb.Action.PlayCard(
        card="rebel_booby_trap", cell=pb.Cell(x=2, y=9)))),
    ("play:papal_full_fire:s0.1:smg:8,11", pb.Action(play_card=pb.Action.PlayCard(
        card="papal_full_fire", shot=pb.Action.CardShot(nose="s0.1", weapon="smg",
                                                        cell=pb.Cell(x=8, y=11))))),
    ("play:papal_whistle", pb.Action(play_card=pb.Action.PlayCard(card="papal_whistle"))),
    ("pick:east", pb.Action(pick=pb.Action.Pick(edge=pb.EDGE_EAST))),
    ("pick:s0.4", pb.Action(pick=pb.Action.Pick(nose="s0.4"))),
    ("pick:7,1", pb.Action(pick=pb.Action.Pick(cell=pb.Cell(x=7, y=1)))),
    ("take:beers", pb.Action(take_product=pb.Action.TakeProduct(product=pb.PRODUCT_BEERS))),
    ("trolley:drop", pb.Action(trolley=pb.Action.Trolley(move=pb.TROLLEY_MOVE_DROP))),
    ("leave:east", pb.Action(leave_board=pb.Action.LeaveBoard(edge=pb.EDGE_EAST))),
    ("grenades:s0.0:2", pb.Action(split_grenades=pb.Action.SplitGrenades(nose="s0.0",
                                                                         fragmentation=2))),
])
def test_typed_forms(action_id: str, typed: pb.Action) -> None:
    kit.check_typed_form(ADAPTER, action_id, typed)


@pytest.mark.parametrize("action_id", [
    *GARBAGE_IDS, "move", "move:3", "move:3,4:5", "move:-1,2", "move:03,4", "move:999,0",
    "act:s99.0", "act:s0.99", "act:x0.1", "act:s0.1.2", "fire:laser:3,4", "fire:smg",
    "play:joker", "play:papal_whistle:s0.1:smg", "reroll:papal_nothing", "turn:north",
    "turn:n", "scatter:ne", "scatter:NNE", "open:999", "open:x", "activate:99", "activate:-1",
    "enter:up:0,0", "atrophy:s0.1:charm", "leader_type:0:emperor", "take:wine",
    "trolley:push", "sweep:chainsaw:4,5:left", "grenades:s0.0:99", "alert:s0.1",
    "end_squad:now", "done:", "pick:up", "pick:"])
def test_malformed_ids_raise_value_error(action_id: str) -> None:
    kit.check_refused_id(ADAPTER, action_id)


@pytest.mark.parametrize(("msg", "says"), [
    (pb.Action(), "empty"),
    (pb.Action(move=pb.Action.Move()), "Move.cell is not set"),
    (pb.Action(move=pb.Action.Move(cell=pb.Cell(x=500, y=1))), "'500,1' is not a batallitas cell"),
    (pb.Action(act=pb.Action.Act(nose="Bob")), "'Bob' is not a batallitas nose"),
    (pb.Action(fire=pb.Action.Fire(weapon="laser", cell=pb.Cell())), "'laser' is not a "
                                                                       "batallitas weapon"),
    (pb.Action(play_card=pb.Action.PlayCard(card="queen")), "'queen' is not a batallitas card"),
    (pb.Action(turn=pb.Action.Turn()), "Turn.facing is missing"),
    (pb.Action(open_door=pb.Action.OpenDoor(door=999)), "not a batallitas door"),
    (pb.Action(pick=pb.Action.Pick()), "pick needs edge, nose or cell"),
])
def test_malformed_messages_are_refused_clearly(msg: pb.Action, says: str) -> None:
    kit.check_refused_message(ADAPTER, msg, says)


def test_the_services_accept_a_typed_action() -> None:
    kit.check_services_accept(ADAPTER, "fire:cannon:3,4")


def _words(x: Any) -> Any:
    """A message as plain data, back in the engine's words: enum names as its words and
    cells as [x, y] lists."""
    if isinstance(x, dict):
        if set(x) == {"x", "y"}:
            return [x["x"], x["y"]]
        return {k: _words(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_words(v) for v in x]
    if isinstance(x, str):
        if x.endswith("_UNSPECIFIED"):
            return None
        for p in UPPER_ENUMS + LOWER_ENUMS:
            if x.startswith(p) and x[len(p):].isupper():
                word = x[len(p):]
                return word if p in UPPER_ENUMS else word.lower()
    return x


def _plain(msg: Any) -> Any:
    return _words(json_format.MessageToDict(msg, preserving_proto_field_name=True,
                                            always_print_fields_with_no_presence=True))


_strip = kit.strip  # no map field is compared entry for entry: zeros drop on both sides


def _same_event(e: Event) -> None:
    typed = kit.typed_event(ADAPTER, e)
    names = RENAMED.get(e.kind, {})
    got = _strip(_plain(typed))
    if e.kind == "action":
        assert action_from_proto(typed.action) == e.data["action"]
        got.pop("action", None)
    want = {names.get(k, k): v for k, v in e.data.items()}
    if e.kind == "board_placed":  # [board, col, row] triples are BoardPlacement messages
        want["boards"] = [{"board": b, "col": c, "row": r} for b, c, r in want["boards"]]
    assert got == _strip(want), e.kind


def test_every_event_kind_met_converts_key_for_key(played: dict[str, Any]) -> None:
    kinds = set()
    for (kind, _), e in sorted(played["events"].items()):
        kinds.add(kind)
        _same_event(e)
    assert len(kinds) >= 30, sorted(EVENT_KINDS - kinds)


def test_cards_dealt_converts_in_full_and_public_form() -> None:
    """Dealing happens in new_state, before any observer: dealt here as set-up deals."""
    state = GAME.new_state("last_game", 2, {}, LocalRng(3))
    state.hands, state.decks = [], []
    events: list[Event] = []
    setup.deal(GAME.content, state, LocalRng(4), events)
    assert {e.kind for e in events} == {"cards_dealt"}
    for e in events:
        for viewer in (None, 0, 1):
            shown = e.for_seat(viewer)
            assert shown is not None
            _same_event(shown)


def test_views_of_every_seat_convert_key_for_key(played: dict[str, Any]) -> None:
    """Field for field; each viewer's typed view holds only its own hand."""
    viewers = set()
    for (viewer, *_), view in played["views"].items():
        viewers.add(viewer)
        typed = view_to_proto(view)
        got = _strip(_plain(typed))
        want = _strip(view)
        want["open_leaves"] = [{"door": d, "leaf": k} for d, k in want.get("open_leaves", [])]
        want["boards"] = [{"board": b, "col": c, "row": r} for b, c, r in want.get("boards", [])]
        want = _strip(want)
        for p in want.get("prompts", []):
            if "from" in p:
                p["from_cell"] = p.pop("from")
            if isinstance(p.get("card"), bool):
                p["by_card"] = p.pop("card")
        assert got == want
        assert list(typed.hand) == view["hand"]
    assert viewers == {None, 0, 1}


def test_unknown_data_is_refused() -> None:
    kit.check_unknown_data_refused(ADAPTER, "moved", {"nose": "s0.1"}, "weather")
    with pytest.raises(ValueError, match="is not a batallitas Facing"):
        event_to_proto("turned", {"nose": "s0.1", "facing": "n", "cost": 1})
    with pytest.raises(ValueError, match="is not a cell"):
        event_to_proto("deployed", {"nose": "s0.1", "cell": [1, 2, 3], "facing": "N"})


def test_a_turncoat_forming_a_squad_of_its_own_round_trips():
    """Traidor ajuqueroso with no Fanhunter squad in play: the Fan forms its own (`:new`); a
    full run of the suite met this id and the adapter refused it."""
    for action_id in ("play:papal_traitor:s2.1:new", "play:papal_traitor:s2.1:1"):
        typed = action_to_proto(action_id)
        assert typed.play_card.turncoat.new_squad == action_id.endswith(":new")
        assert action_from_proto(typed) == action_id
