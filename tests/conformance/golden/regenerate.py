"""Rewrite the golden transcripts in this directory.

    python tests/conformance/golden/regenerate.py          # rewrite every transcript
    python tests/conformance/golden/regenerate.py --check  # only report what would change

ONLY RUN THIS WHEN A RULE CHANGE IS INTENDED AND HAS BEEN REVIEWED. A transcript whose
recorded actions the game now adjudicates otherwise is rewritten only once the game's
GameInfo.rules_revision has been raised above the one the transcript names (matches logged
under the older rules then say so); one whose bots merely chose otherwise needs no raise.

The transcripts pin the exact behaviour of every registered game: seeded whole matches
played by the game's own bots, with every action, every event and the hash of the final
state. tests/conformance/test_golden.py fails as soon as an engine or game change alters any
of them. If that change is a deliberate, reviewed rule change, regenerate and commit the new
files together with it, and let the reviewer read the diff of the transcripts; otherwise the
failure is a regression to fix, not a file to regenerate.

This module is also the single source of the golden specification (which games, scenarios,
seat counts, seeds and bots): the test imports it, so the two cannot drift apart.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partida.engine import Event, StreamRng, get
from partida.engine.bots import MatchRecord, play_match
from partida.engine.conformance import canonical, state_digest

HERE = Path(__file__).resolve().parent
FORMAT = 1
MAX_BYTES = 300_000      # a transcript above this stores per-action digests instead ...
FULL_EVENT_STEPS = 50    # ... plus the full events of only the first this-many actions


@dataclass(frozen=True)
class GoldenMatch:
    scenario: str
    seats: int
    seed: int


@dataclass(frozen=True)
class GoldenSpec:
    """Which bots play a game's golden matches, and which matches."""

    bots_module: str     # a module with BOTS: name -> bot class (instantiated without arguments)
    bot: str             # the bot every seat plays
    matches: tuple[GoldenMatch, ...]


GOLDEN: dict[str, GoldenSpec] = {
    "batallitas": GoldenSpec(
        bots_module="partida.games.batallitas.bots",
        bot="heuristic",
        matches=(
            GoldenMatch("last_game", 2, 1),       # scenario 1: the raid on the club
            GoldenMatch("shopping", 2, 2),        # scenario 2: products, trolleys, leaving
            GoldenMatch("war_games", 2, 3),       # scenario 5: three boards, the videogame
        ),
    ),
    "bandas": GoldenSpec(
        bots_module="partida.games.bandas.bots",
        bot="heuristic",
        matches=(
            GoldenMatch("street_fight", 2, 1),    # on foot: both gangs break in one turn, a draw
            GoldenMatch("convoy_ambush", 2, 2),   # vehicles: the truck against the ambush
            GoldenMatch("scramble", 3, 3),        # three gangs and the crates
        ),
    ),
    "dynamit_joe": GoldenSpec(
        bots_module="partida.games.dynamit_joe.bots",
        bot="heuristic",
        matches=(
            GoldenMatch("arrest", 2, 24),         # the smallest scenario, two seats (147 actions)
            GoldenMatch("showdown", 3, 2),        # three sides
            GoldenMatch("eldorado", 4, 3),        # face-down markers and gold carried off
        ),
    ),
    "montanas": GoldenSpec(
        bots_module="partida.games.montanas.bots",
        bot="heuristic",
        matches=(
            GoldenMatch("standard", 1, 1),        # a solo win
            GoldenMatch("no_barricades", 3, 2),   # a loss, in the other scenario
            GoldenMatch("standard", 5, 3),        # a full-table win
        ),
    ),
    "pasaran": GoldenSpec(
        bots_module="partida.games.pasaran.bots",
        bot="heuristic",
        matches=(
            GoldenMatch("campaign", 2, 1),        # the one scenario: Madrid falls in 1937
            GoldenMatch("campaign", 2, 2),        # the 1937 schedule victory again (735 actions)
            GoldenMatch("campaign", 2, 3),        # the Republic reaches 20 BP (1037 actions)
        ),
    ),
}


def all_matches() -> list[tuple[str, GoldenMatch]]:
    return [(gid, m) for gid, spec in sorted(GOLDEN.items()) for m in spec.matches]


def match_id(game_id: str, m: GoldenMatch) -> str:
    return f"{game_id}-{m.scenario}-{m.seats}p-seed{m.seed}"


def path_for(game_id: str, m: GoldenMatch) -> Path:
    return HERE / f"{match_id(game_id, m)}.json"


def make_bots(game_id: str, seats: int) -> list[Any]:
    spec = GOLDEN[game_id]
    bots = importlib.import_module(spec.bots_module).BOTS
    return [bots[spec.bot]() for _ in range(seats)]


def play(game_id: str, m: GoldenMatch) -> tuple[Any, MatchRecord]:
    """The golden match played by the bots, as `play_match` plays it."""
    return play_match(get(game_id), m.scenario, make_bots(game_id, m.seats), m.seed)


def step_events(game_id: str, record: MatchRecord) -> tuple[str, str, int, list[list[Event]]]:
    """Replay a record's actions through the engine on its stream: (initial state sha256,
    final state sha256, stream values consumed, the events of every action)."""
    game = get(game_id)
    rng = StreamRng(bytes.fromhex(record.seed_hex), record.match_id)
    state = game.new_state(record.scenario, record.seats, record.options, rng)
    initial = state_digest(state)
    events = [list(game.apply(state, seat, action, rng)) for seat, action in record.actions]
    return initial, state_digest(state), rng.position, events


def digest_chain(events: list[list[Event]]) -> list[str]:
    """sha256 per action, chained: digest[i] = sha256(digest[i-1] + canonical events of i)."""
    out, prev = [], ""
    for evs in events:
        prev = hashlib.sha256((prev + canonical([e.to_dict() for e in evs])).encode()).hexdigest()
        out.append(prev)
    return out


def flat_events(events: list[list[Event]], steps: int | None = None) -> list[list[Any]]:
    """[action index, event dict] for every event of the first `steps` actions (all: None)."""
    return [[i, e.to_dict()] for i, evs in enumerate(events[:steps]) for e in evs]


def transcript(game_id: str, m: GoldenMatch) -> dict[str, Any]:
    _, record = play(game_id, m)
    initial, final, position, events = step_events(game_id, record)
    out: dict[str, Any] = {
        "about": ("Golden transcript: a seeded match played by bots. Generated by "
                  "tests/conformance/golden/regenerate.py; never edit by hand, regenerate "
                  "only for an intended, reviewed rule change."),
        "format": FORMAT,
        "game": game_id, "scenario": m.scenario, "seats": m.seats, "seed": m.seed,
        "rules_revision": get(game_id).info.rules_revision,
        "bots": [GOLDEN[game_id].bot] * m.seats,
        "initial_state_sha256": initial,
        "final_state_sha256": final,
        "stream_values_used": position,
        "record": record.to_dict(),
        "events": flat_events(events),
    }
    if len(render(out).encode()) > MAX_BYTES:
        del out["events"]
        out["event_digests"] = digest_chain(events)
        out["events_head"] = flat_events(events, FULL_EVENT_STEPS)
    return out


def check_replay(game_id: str, data: dict[str, Any]) -> None:
    """Apply a transcript's recorded actions with its stream; compare everything it pins."""
    record = MatchRecord.from_dict(data["record"])
    initial, final, position, events = step_events(game_id, record)
    assert initial == data["initial_state_sha256"], "the set-up changed"
    if "events" in data:
        got = json.loads(json.dumps(flat_events(events)))
        for i, (want, have) in enumerate(zip(data["events"], got, strict=False)):
            assert have == want, f"event #{i} (of action {want[0]}) changed"
        assert len(got) == len(data["events"]), "the number of events changed"
    else:
        head = json.loads(json.dumps(flat_events(events, FULL_EVENT_STEPS)))
        assert head == data["events_head"], "the events of the first actions changed"
        chain = digest_chain(events)
        for i, (want, have) in enumerate(zip(data["event_digests"], chain, strict=False)):
            assert have == want, f"the events of action {i} changed"
        assert len(chain) == len(data["event_digests"]), "the number of actions changed"
    assert position == data["stream_values_used"], "the randomness consumed changed"
    assert final == data["final_state_sha256"], "the final state changed"


def render(value: Any) -> str:
    """Readable, diff-friendly JSON: one key per line at the top two levels and one list item
    (one action, one event) per line."""
    def dumps(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, sort_keys=True)

    def block(v: Any, depth: int) -> str:
        pad, inner = "  " * depth, "  " * (depth + 1)
        if isinstance(v, dict) and depth < 2 and v:
            items = [f"{inner}{dumps(k)}: {block(x, depth + 1)}" for k, x in v.items()]
            return "{\n" + ",\n".join(items) + f"\n{pad}}}"
        if isinstance(v, list) and v:
            return "[\n" + ",\n".join(inner + dumps(x) for x in v) + f"\n{pad}]"
        return dumps(v)

    return block(value, 0) + "\n"


def unannounced_change(game_id: str, old: dict[str, Any]) -> str | None:
    """Why a transcript may not be rewritten: its recorded actions no longer replay as it
    says (the game adjudicates them otherwise now), yet the game's rules_revision is the one
    it was written under. Such a change must raise the revision (GameInfo.rules_revision),
    so that matches logged before it are known to be of the older edition. None: it may."""
    try:
        check_replay(game_id, old)
    except Exception as e:  # a difference found, or a recorded action now refused
        revision = get(game_id).info.rules_revision
        if old.get("rules_revision", 1) == revision:
            return (f"its recorded actions now replay otherwise ({e}) under the same edition "
                    f"of the rules ({revision}): raise {game_id}'s GameInfo.rules_revision")
    return None


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed, refused = [], 0
    for game_id, m in all_matches():
        path = path_for(game_id, m)
        text = render(transcript(game_id, m))
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            print(f"unchanged  {path.name}")
            continue
        changed.append(path.name)
        why = unannounced_change(game_id, json.loads(old)) if old is not None else None
        if why:
            refused += 1
            print(f"REFUSED    {path.name}: {why}")
        elif check:
            print(f"DIFFERS    {path.name}")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"written    {path.name} ({len(text.encode())} bytes)")
    wanted = {path_for(g, m).name for g, m in all_matches()}
    for stray in sorted(p.name for p in HERE.glob("*.json") if p.name not in wanted):
        print(f"stray      {stray} (no longer in GOLDEN; delete it if that is intended)")
    return 1 if refused or (check and changed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
