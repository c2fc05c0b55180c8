"""Face-down markers (two decoys and the secret passage, with the teddy bear in scenario 6):
hidden at set-up, revealed in play, the passage crossed or found (Scenario 4 and Scenario 6:
"The secret passage").

A marker is {"kind", "pos", "face_down", "owner"}; its kind is hidden from the side that does
not own it (rules.view, rules.determinize), and from its owner too until all are laid. Each is
laid where its owner picks (`hide:<x>,<y>`) and, as the book places them unseen, takes a kind
drawn at random from those left.
"""

from __future__ import annotations

from partida.engine import Action, Event, Rng
from partida.games.batallitas import area
from partida.games.batallitas.content import HiddenMarkers, Pos, load
from partida.games.batallitas.grid import Field
from partida.games.batallitas.shooting import weapon
from partida.games.batallitas.state import GONE, BatallitasState, Nose
from partida.games.batallitas.turn import can_pay, check_end, leader_out, pay, scenario_of
from partida.games.batallitas.world import field_of

PASSAGE = "secret_passage"


def spec(state: BatallitasState) -> HiddenMarkers | None:
    return scenario_of(state).hidden_markers


def hidden_cells(state: BatallitasState) -> list[Pos]:
    """Where the next marker may go: an empty cell a nose could stand in, on the scenario's
    board (scenario 6: the board of the first marker, any board for the first)."""
    hm = spec(state)
    assert hm is not None
    f = field_of(state)
    m = f.map
    taken = {(k["pos"][0], k["pos"][1]) for k in state.markers if k.get("pos")}
    placed = [k for k in state.markers if k.get("face_down")]
    board = hm.board if hm.board != "chosen" else \
        (m.board((placed[0]["pos"][0], placed[0]["pos"][1])) if placed else None)
    return [p for p in m.positions() if not f.blocks_step(p) and p not in taken
            and (board is None or m.board(p) == board)]


def hide(state: BatallitasState, rng: Rng, cell: Pos, ev: list[Event]) -> None:
    hm = spec(state)
    assert hm is not None
    left = list(hm.markers)
    for k in state.markers:
        if k.get("hidden"):
            left.remove(k["kind"])
    kind = left[rng.below(len(left), "hidden marker")]
    state.markers.append({"kind": kind, "pos": list(cell), "face_down": True,
                          "owner": hm.owner, "hidden": True})
    ev.append(Event("marker_hidden", {"cell": list(cell)}))


def laying(state: BatallitasState) -> bool:
    """The markers are still being laid: the book has them laid unseen and looked at only once
    all are down, so until then even their owner does not know which is which."""
    return any(item["kind"] == "hide" for item in state.setup)


def marker_at(state: BatallitasState, p: Pos, *, face_down: bool | None = None) -> dict | None:
    for k in state.markers:
        if k.get("hidden") and k.get("pos") == list(p) \
                and (face_down is None or k["face_down"] == face_down):
            return k
    return None


def barred(state: BatallitasState, n: Nose) -> set[Pos]:
    """Scenario 4: cells a nose of a barred family may not enter (the passage, even hidden:
    RULES.md decision)."""
    hm = spec(state)
    if hm is None or state.squads[n.squad].family not in hm.barred_families:
        return set()
    return {(k["pos"][0], k["pos"][1]) for k in state.markers
            if k.get("hidden") and k["kind"] == PASSAGE}


def stepped_on(state: BatallitasState, n: Nose, ev: list[Event]) -> None:
    """Scenario 4: a rebel nose on a face-down marker turns it over; a decoy goes."""
    hm = spec(state)
    if hm is None or hm.revealed_by != "rebel_steps_on" or n.cell is None \
            or state.side_of(n) != "rebel":
        return
    k = marker_at(state, n.cell, face_down=True)
    if k is not None:
        _reveal(state, k, ev)


def _reveal(state: BatallitasState, k: dict, ev: list[Event]) -> None:
    k["face_down"] = False
    ev.append(Event("marker_revealed", {"cell": list(k["pos"]), "kind": k["kind"]}))
    if k["kind"] != PASSAGE:
        state.markers.remove(k)


def actions(state: BatallitasState, f: Field, n: Nose) -> list[Action]:
    """`passage` (scenario 4: a rebel on the revealed passage crosses it) and `search`
    (scenario 6: a papal nose turns over the marker it stands on), each a generic action."""
    hm = spec(state)
    cost = load().rules.costs["generic"]
    if hm is None or n.cell is None or not can_pay(state, n, cost, "search"):
        return []
    side = state.side_of(n)
    if hm.revealed_by == "rebel_steps_on" and side == "rebel":
        k = marker_at(state, n.cell, face_down=False)
        if k is not None and k["kind"] == PASSAGE:
            return [Action("passage", f"{n.name} escapes through the secret passage ({cost})")]
    if hm.revealed_by == "papal_generic_action" and side == "papal" \
            and marker_at(state, n.cell, face_down=True) is not None:
        return [Action("search", f"{n.name} turns over the marker under it ({cost})")]
    return []


def cross(state: BatallitasState, n: Nose, ev: list[Event]) -> None:
    """Out of the game for good; a band member through counts (`counters["band_out"]`)."""
    pay(state, n, load().rules.costs["generic"], "search")
    ev.append(Event("passage_crossed", {"nose": n.id}))
    if n.role == "band":
        state.counters["band_out"] = state.counters.get("band_out", 0) + 1
    n.status, n.pos, n.alert, n.done = GONE, None, False, True
    if state.active_nose == n.id:
        state.active_nose = None
    leader_out(state, n)
    check_end(state, ev)


def search(state: BatallitasState, rng: Rng, n: Nose, ev: list[Event]) -> None:
    """Scenario 6: a decoy goes; the teddy bear goes off as a fragmentation grenade on its cell;
    the passage wins the game for the papal side."""
    pay(state, n, load().rules.costs["generic"], "search")
    assert n.cell is not None
    k = marker_at(state, n.cell, face_down=True)
    assert k is not None
    kind = k["kind"]
    _reveal(state, k, ev)
    if kind == "teddy_bear":
        area.explode(state, field_of(state), rng, n, weapon("frag_grenade"), n.cell,
                     critical=False, ev=ev)
    elif kind == PASSAGE:
        state.counters["passage_found"] = 1
        check_end(state, ev)


