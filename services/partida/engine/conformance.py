"""The conformance kit: checks every game must pass, usable by any registered game.

Each check raises AssertionError with a message naming the game, scenario, seed and step.
`tests/conformance/` runs them for every registered game; a third-party game runs the same
functions on itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from partida.engine.bots import MatchRecord, replay_record
from partida.engine.errors import BadSetup, IllegalAction
from partida.engine.game import Game
from partida.engine.rng import LocalRng, StreamRng
from partida.engine.types import Action, Event, Json, Outcome, Scenario, Seat

GARBAGE_IDS = ("", "garbage", "\x00", "play:", "9" * 200, "é/../..", "discard:XX,YY")


@dataclass
class Playout:
    """A finished random playout: the action log and the states it went through."""

    game: Game  # type: ignore[type-arg]
    scenario: str
    seats: int
    seed: bytes
    match_id: str
    options: dict[str, Any]
    log: list[tuple[Seat, str]] = field(default_factory=list)
    state: Any = None
    steps: int = 0


def match_rng(seed: bytes, match_id: str) -> StreamRng:
    return StreamRng(seed, match_id)


def canonical(data: Json) -> str:
    """A stable text form, so states and views compare exactly."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


Chooser = Callable[[Game, Any, Seat, LocalRng], str]  # type: ignore[type-arg]


def _random_choice(game: Game, state: Any, seat: Seat, chooser: LocalRng) -> str:  # type: ignore[type-arg]
    actions = game.legal_actions(state, seat)
    assert actions, f"{game.info.id}: seat {seat} is to act but has no legal action"
    ids = [a.id for a in actions]
    assert len(set(ids)) == len(ids), f"{game.info.id}: duplicate action ids"
    return chooser.choice(ids)


def _default_choice(game: Game, state: Any, seat: Seat, chooser: LocalRng) -> str:  # type: ignore[type-arg]
    return game.default_action(state, seat)


def playout(
    game: Game,  # type: ignore[type-arg]
    scenario: str,
    seats: int,
    seed: int,
    max_steps: int,
    choose: Chooser,
    options: dict[str, Any] | None = None,
    each_step: Callable[[Playout, Seat], None] | None = None,
) -> Playout:
    """Play `choose`'s actions until the match ends or `max_steps` is reached. When several
    seats are to act, one of them is picked at random."""
    p = Playout(game, scenario, seats, seed.to_bytes(8, "big"), f"conf-{seed}", dict(options or {}))
    rng = match_rng(p.seed, p.match_id)
    chooser = LocalRng(seed)
    p.state = game.new_state(scenario, seats, p.options, rng)
    while game.outcome(p.state) is None and p.steps < max_steps:
        to_act = game.to_act(p.state)
        where = f"{game.info.id}/{scenario} seed={seed} step={p.steps}"
        assert to_act, f"{where}: no outcome yet nobody is to act"
        seat = chooser.choice(list(to_act))
        if each_step is not None:
            each_step(p, seat)
        action = choose(game, p.state, seat, chooser)
        game.apply(p.state, seat, action, rng)
        p.log.append((seat, action))
        p.steps += 1
    return p


def random_playout(
    game: Game,  # type: ignore[type-arg]
    scenario: str,
    seats: int,
    seed: int,
    max_steps: int,
    options: dict[str, Any] | None = None,
    each_step: Callable[[Playout, Seat], None] | None = None,
) -> Playout:
    """Play uniformly random legal actions until the match ends or `max_steps` is reached."""
    return playout(game, scenario, seats, seed, max_steps, _random_choice, options, each_step)


def replay(p: Playout) -> Any:
    """Rebuild the final state from the set-up and the action log with the same stream."""
    record = MatchRecord(p.game.info.id, p.scenario, p.seats, p.options, p.seed.hex(),
                         p.match_id, list(p.log))
    return replay_record(p.game, record)


def check_terminates(p: Playout) -> None:
    assert p.game.outcome(p.state) is not None, (
        f"{p.game.info.id}/{p.scenario}: no outcome after {p.steps} steps"
    )


def check_replay(p: Playout) -> None:
    again = replay(p)
    assert canonical(again.to_dict()) == canonical(p.state.to_dict()), (
        f"{p.game.info.id}/{p.scenario}: replaying the log gave another state"
    )


def check_roundtrip(game: Game, state: Any) -> None:  # type: ignore[type-arg]
    data = state.to_dict()
    text = canonical(data)
    back = game.state_from_dict(json.loads(text))
    assert canonical(back.to_dict()) == text, f"{game.info.id}: serialization is lossy"
    assert canonical(state.clone().to_dict()) == text, f"{game.info.id}: clone differs"


def check_illegal_refused(game: Game, state: Any, seat: Seat) -> None:  # type: ignore[type-arg]
    """Wrong seats, garbage ids and non-strings raise IllegalAction and change nothing."""
    before = canonical(state.to_dict())
    legal = {a.id for a in game.legal_actions(state, seat)}
    to_act = set(game.to_act(state))
    probes: list[tuple[Seat, Any]] = [(seat, g) for g in GARBAGE_IDS if g not in legal]
    probes += [(seat, 17), (seat, None)]
    for other in range(-1, 6):
        if other not in to_act and legal:
            probes.append((other, next(iter(legal))))
    for s, action in probes:
        rng = LocalRng(0)
        try:
            game.apply(state, s, action, rng)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{game.info.id}: seat {s} action {action!r} was accepted")
        assert not rng.draws, f"{game.info.id}: a refused action drew randomness"
    # Compared once after every probe (a state dump per probe made long games' suites slow);
    # a mutation stays, so it still shows here.
    assert canonical(state.to_dict()) == before, (
        f"{game.info.id}: a refused action mutated the state (probes: {probes!r})")


def check_stale_refused(game: Game, state: Any, seat: Seat, stale: str) -> None:  # type: ignore[type-arg]
    """An action id that was legal earlier but is not now is refused and changes nothing."""
    if any(a.id == stale for a in game.legal_actions(state, seat)) or \
            _accepted_off_list(game, state, stale):
        return
    before = canonical(state.to_dict())
    try:
        game.apply(state, seat, stale, LocalRng(0))
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{game.info.id}: stale action {stale!r} accepted")
    assert canonical(state.to_dict()) == before


def check_views_leak_nothing(game: Game, state: Any, seats: int, seed: int) -> None:  # type: ignore[type-arg]
    """view(s, x) == view(determinize(s, x), x) for every seat and for spectators."""
    for seat in [*range(seats), None]:
        det = game.determinize(state, seat, LocalRng(seed))
        assert canonical(game.view(det, seat)) == canonical(game.view(state, seat)), (
            f"{game.info.id}: the view of seat {seat} changes when hidden data is resampled"
        )


def check_default_legal(game: Game, state: Any) -> None:  # type: ignore[type-arg]
    for seat in game.to_act(state):
        default = game.default_action(state, seat)
        legal = {a.id for a in game.legal_actions(state, seat)}
        assert default in legal, f"{game.info.id}: default {default!r} of seat {seat} is illegal"


def full_check(p: Playout, seat: Seat) -> None:
    """Every per-step check, for use as `random_playout(..., each_step=full_check)`."""
    check_roundtrip(p.game, p.state)
    check_default_legal(p.game, p.state)
    check_illegal_refused(p.game, p.state, seat)
    check_views_leak_nothing(p.game, p.state, p.seats, p.steps)
    if p.log:
        check_stale_refused(p.game, p.state, seat, p.log[-1][1])


# ----- further checks (added with the conformance suite) ------------------------------------
# Each is game-agnostic: it uses only the engine contract, so a third-party game can run it.

NON_STRING_IDS: tuple[Any, ...] = (17, None, 1.5, True, b"end", ["end"], {"id": "end"})
"""Action ids of the wrong type: `apply` must refuse each with IllegalAction."""

_VANDAL = "__conformance_vandal__"


def state_digest(state: Any) -> str:
    """sha256 of a state's canonical text: what golden transcripts and replays compare."""
    return hashlib.sha256(canonical(state.to_dict()).encode()).hexdigest()


def seat_counts(scenario: Scenario) -> list[int]:
    """The seat counts worth testing for a scenario: its minimum, a middle one and its maximum."""
    lo, hi = scenario.min_seats, scenario.max_seats
    return sorted({lo, (lo + hi) // 2, hi})


def default_playout(
    game: Game,  # type: ignore[type-arg]
    scenario: str,
    seats: int,
    seed: int,
    max_steps: int,
    options: dict[str, Any] | None = None,
    each_step: Callable[[Playout, Seat], None] | None = None,
) -> Playout:
    """Like `random_playout`, but every seat always takes its `default_action` (all timeouts)."""
    return playout(game, scenario, seats, seed, max_steps, _default_choice, options, each_step)


@dataclass
class Step:
    """One replayed action and the events it produced (`index` counts from 0)."""

    index: int
    seat: Seat
    action: str
    events: list[Event]


def replay_steps(p: Playout) -> Iterator[tuple[Any, StreamRng, Step | None]]:
    """Rebuild `p` from its log, yielding (live state, match stream, step) after set-up (step
    None) and after every action. Callers must not mutate the yielded state."""
    rng = match_rng(p.seed, p.match_id)
    state = p.game.new_state(p.scenario, p.seats, p.options, rng)
    yield state, rng, None
    for i, (seat, action) in enumerate(p.log):
        events = p.game.apply(state, seat, action, rng)
        yield state, rng, Step(i, seat, action, list(events))


def replay_events(p: Playout) -> list[list[dict[str, Json]]]:
    """The events of every step of a replay of `p`, as `Event.to_dict()` data."""
    return [[e.to_dict() for e in step.events] for _, _, step in replay_steps(p) if step]


def check_replay_events(p: Playout) -> None:
    """Two replays of one log give the same events, step by step, and the same final state."""
    first, second = replay_events(p), replay_events(p)
    for i, (a, b) in enumerate(zip(first, second, strict=True)):
        assert canonical(a) == canonical(b), (
            f"{p.game.info.id}/{p.scenario} seed={p.match_id} step={i}: "
            "replaying the same log gave other events"
        )


def check_resume(p: Playout, at_step: int) -> None:
    """Serializing the state after `at_step` actions (JSON text), restoring it and going on
    with the stream from the same position ends in the same final state: the state and the
    stream position are all a service needs to persist."""
    where = f"{p.game.info.id}/{p.scenario} seed={p.match_id} step={at_step}"
    rng = match_rng(p.seed, p.match_id)
    state = p.game.new_state(p.scenario, p.seats, p.options, rng)
    for seat, action in p.log[:at_step]:
        p.game.apply(state, seat, action, rng)
    restored = p.game.state_from_dict(json.loads(canonical(state.to_dict())))
    rng2 = StreamRng(rng.seed, rng.match_id, rng.position)
    for seat, action in p.log[at_step:]:
        p.game.apply(restored, seat, action, rng2)
    assert canonical(restored.to_dict()) == canonical(p.state.to_dict()), (
        f"{where}: resuming from the serialized state gave another final state"
    )
    assert rng2.position == match_rng_position(p), f"{where}: resuming consumed other randomness"


def match_rng_position(p: Playout) -> int:
    """How many stream values a whole playout consumes (set-up included)."""
    rng = match_rng(p.seed, p.match_id)
    state = p.game.new_state(p.scenario, p.seats, p.options, rng)
    for seat, action in p.log:
        p.game.apply(state, seat, action, rng)
    return rng.position


def _vandalize(data: Any) -> None:
    """Mutate every JSON container inside `data` in place."""
    if isinstance(data, dict):
        for value in list(data.values()):
            _vandalize(value)
        data[_VANDAL] = _VANDAL
    elif isinstance(data, list):
        for value in list(data):
            _vandalize(value)
        data.append(_VANDAL)


def check_clone_independent(game: Game, state: Any, limit: int = 6) -> None:  # type: ignore[type-arg]
    """A clone is equal but independent: taking an action (the default and up to `limit`
    legal ones of the first seat to act) on a clone leaves the original unchanged, and on
    the original leaves an earlier clone unchanged."""
    before = canonical(state.to_dict())
    to_act = game.to_act(state)
    if not to_act:
        return
    seat = to_act[0]
    legal = [a.id for a in game.legal_actions(state, seat)]
    actions = list(dict.fromkeys([game.default_action(state, seat), *legal[:limit]]))
    for action in actions:
        clone = state.clone()
        assert clone is not state, f"{game.info.id}: clone() returned the state itself"
        game.apply(clone, seat, action, StreamRng(b"clone", "clone"))
        assert canonical(state.to_dict()) == before, (
            f"{game.info.id}: taking {action!r} on a clone changed the original"
        )
        work = state.clone()  # a stand-in for the original, so `state` stays intact
        snapshot = work.clone()
        game.apply(work, seat, action, StreamRng(b"clone", "clone"))
        assert canonical(snapshot.to_dict()) == before, (
            f"{game.info.id}: taking {action!r} on the original changed a clone taken before"
        )


def check_serialization_detached(game: Game, state: Any) -> None:  # type: ignore[type-arg]
    """`to_dict()` returns data the state does not share, and `state_from_dict` does not keep
    references into the data it was given."""
    before = canonical(state.to_dict())
    data = state.to_dict()
    _vandalize(data)
    assert canonical(state.to_dict()) == before, (
        f"{game.info.id}: mutating to_dict() output changed the state"
    )
    fresh = json.loads(before)
    back = game.state_from_dict(fresh)
    _vandalize(fresh)
    assert canonical(back.to_dict()) == before, (
        f"{game.info.id}: state_from_dict keeps references into its input"
    )


def _viewers(seats: int) -> list[Seat | None]:
    return [*range(seats), None]


def check_views_json(game: Game, state: Any, seats: int) -> None:  # type: ignore[type-arg]
    """Every seat's and the spectators' view is JSON-plain: it survives JSON text unchanged
    (no tuples, no int keys, no NaN, no objects)."""
    for seat in _viewers(seats):
        view = game.view(state, seat)
        try:
            text = json.dumps(view, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise AssertionError(f"{game.info.id}: view of seat {seat} is not JSON: {exc}") from exc
        assert json.loads(text) == view, (
            f"{game.info.id}: view of seat {seat} is not JSON-plain (tuples or non-str keys?)"
        )


def check_view_detached(game: Game, state: Any, seats: int) -> None:  # type: ignore[type-arg]
    """A view shares nothing with the state: whoever receives it (a bot, a renderer) may
    mutate it without touching the match. Works on clones, so `state` survives a failure."""
    before = canonical(state.to_dict())
    for seat in _viewers(seats):
        work = state.clone()
        expected = canonical(game.view(work, seat))
        _vandalize(game.view(work, seat))
        assert canonical(work.to_dict()) == before, (
            f"{game.info.id}: mutating the view of seat {seat} changed the state"
        )
        assert canonical(game.view(work, seat)) == expected, (
            f"{game.info.id}: mutating the view of seat {seat} changed later views"
        )


def check_events(game: Game, events: Iterable[Event], seats: int) -> None:  # type: ignore[type-arg]
    """Events are JSON-plain and round-trip through to_dict/from_dict; a private event shows
    its data only to the seats it names (the others get `public` or nothing)."""
    for e in events:
        assert isinstance(e, Event), f"{game.info.id}: apply returned {e!r}, not an Event"
        d = e.to_dict()
        try:
            text = json.dumps(d, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise AssertionError(f"{game.info.id}: event {e.kind} is not JSON: {exc}") from exc
        back = Event.from_dict(json.loads(text))
        assert back == e, f"{game.info.id}: event {e.kind} does not round-trip: {d}"
        assert canonical(back.to_dict()) == canonical(d), f"{game.info.id}: event {e.kind} drifts"
        if e.visible_to is None:
            continue
        assert all(isinstance(s, int) and 0 <= s < seats for s in e.visible_to), (
            f"{game.info.id}: event {e.kind} is visible to seats {sorted(e.visible_to)}"
        )
        for seat in _viewers(seats):
            seen = e.for_seat(seat)
            if seat is not None and seat in e.visible_to:
                assert seen is not None and seen.data == e.data, (
                    f"{game.info.id}: event {e.kind} hides its data from listed seat {seat}"
                )
            else:
                assert seen is None or (
                    e.public is not None and canonical(dict(seen.data)) == canonical(dict(e.public))
                ), f"{game.info.id}: event {e.kind} shows private data to seat {seat}"
            assert seen is None or seen.visible_to is None


def illegal_probes(
    game: Game,  # type: ignore[type-arg]
    state: Any,
    seats: int,
    stale: Iterable[str] = (),
) -> list[tuple[Any, Any]]:
    """(seat, action) pairs that `apply` must refuse now: acting out of turn, garbage and
    mangled ids, ids of the wrong type and `stale` ids that are no longer legal."""
    to_act = list(game.to_act(state))
    legal = {s: [a.id for a in game.legal_actions(state, s)] for s in to_act}
    probes: list[tuple[Any, Any]] = []
    some_legal = [ids[0] for ids in legal.values() if ids]
    for other in [-1, *range(seats + 1), None, "0"]:
        if other not in to_act:
            probes.extend((other, a) for a in some_legal)
    for seat, ids in legal.items():
        allowed = set(ids)
        mangled = [g for a in ids[:3] for g in (a + "x", a + ":", " " + a, a.upper(), a[:-1])]
        candidates = [*GARBAGE_IDS, *mangled, *stale]
        # A mangled id may still name a choice the game takes off its list (a bombing's
        # 'pick:0,31' cut to 'pick:0,3', another outdoor cell): not a probe then.
        probes.extend((seat, c) for c in dict.fromkeys(candidates)
                      if c not in allowed and not _accepted_off_list(game, state, c, seat))
        probes.extend((seat, bad) for bad in NON_STRING_IDS)
        probes.append((seat, Action(17, "an id that is not a string")))  # type: ignore[arg-type]
        probes.append((seat, Action("garbage", "an Action whose id is not legal")))
    if not to_act:  # over: even an action that was legal a moment ago is refused
        probes.extend((s, a) for s in range(seats) for a in [*GARBAGE_IDS, *stale])
    return probes


def check_refusals(
    game: Game,  # type: ignore[type-arg]
    state: Any,
    seats: int,
    stale: Iterable[str] = (),
) -> None:
    """Every probe of `illegal_probes` raises IllegalAction and changes nothing: not the state
    and not the match stream (no value consumed, nothing drawn).

    The probes run on a clone, compared once at the end (serializing after every probe is
    slow); on a difference each probe is retried on a fresh clone to name the culprit.
    """
    before = canonical(state.to_dict())
    probes = illegal_probes(game, state, seats, stale)
    work = state.clone()
    for seat, action in probes:
        _refuse(game, work, seat, action)
    if canonical(work.to_dict()) == before:
        return
    for seat, action in probes:
        work = state.clone()
        _refuse(game, work, seat, action)
        assert canonical(work.to_dict()) == before, (
            f"{game.info.id}: refusing seat {seat!r} action {action!r} mutated the state"
        )
    raise AssertionError(f"{game.info.id}: refusing the probes together mutated the state")


def _refuse(game: Game, state: Any, seat: Any, action: Any) -> None:  # type: ignore[type-arg]
    rng = StreamRng(b"refusal", "probe", 7)
    try:
        game.apply(state, seat, action, rng)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{game.info.id}: seat {seat!r} action {action!r} was accepted")
    assert rng.position == 7 and not rng.draws, (
        f"{game.info.id}: refusing seat {seat!r} action {action!r} consumed randomness"
    )


def check_decisions(game: Game, state: Any, seats: int) -> None:  # type: ignore[type-arg]
    """Who acts is consistent with what they may do: to_act names real seats once each, each
    has at least one legal action (unique string ids) and every other seat has none."""
    to_act = game.to_act(state)
    where = f"{game.info.id}: to_act={to_act}"
    assert len(set(to_act)) == len(to_act), f"{where}: a seat is listed twice"
    assert all(isinstance(s, int) and 0 <= s < seats for s in to_act), f"{where}: not a seat"
    if game.outcome(state) is not None:
        assert not to_act, f"{where}: seats still act after the outcome"
    for seat in range(seats):
        actions = game.legal_actions(state, seat)
        assert all(isinstance(a, Action) and isinstance(a.id, str) for a in actions), where
        ids = [a.id for a in actions]
        assert len(set(ids)) == len(ids), f"{where}: seat {seat} has duplicate action ids"
        if seat in to_act:
            assert ids, f"{where}: seat {seat} is to act but has no legal action"
        else:
            assert not ids, f"{where}: seat {seat} has legal actions out of turn"


def check_seat_sides(game: Game, state: Any, scenario: str, seats: int) -> None:  # type: ignore[type-arg]
    """Each seat plays one of its scenario's sides ("" where the scenario names none)."""
    sides = game.info.scenario(scenario).sides
    for seat in range(seats):
        side = game.seat_side(state, seat)
        assert side in sides if sides else side == "", (
            f"{game.info.id}/{scenario}: seat {seat} plays {side!r}, not one of {sides}")


def check_dealt_sides(game: Game, scenario: str, seats: int, seed: int) -> None:  # type: ignore[type-arg]
    """A set-up on any dice deals the sides `dealt_sides` tells (matchmaking seats a
    campaign's teams by them before the match exists)."""
    state = game.new_state(scenario, seats, {}, LocalRng(seed))
    dealt = tuple(game.seat_side(state, seat) for seat in range(seats))
    assert dealt == game.dealt_sides(scenario, seats), (
        f"{game.info.id}/{scenario}: {seats} seats were dealt {dealt}, not "
        f"{game.dealt_sides(scenario, seats)}")


def check_outcome(game: Game, state: Any, seats: int) -> None:  # type: ignore[type-arg]
    """A finished match names only real seats as winners and in its scores."""
    out = game.outcome(state)
    assert isinstance(out, Outcome), f"{game.info.id}: outcome {out!r} is not an Outcome"
    assert all(0 <= s < seats for s in out.winners), f"{game.info.id}: winners {out.winners}"
    assert len(set(out.winners)) == len(out.winners), f"{game.info.id}: a winner twice"
    assert all(0 <= s < seats for s in out.scores), f"{game.info.id}: scores {out.scores}"
    assert not (out.draw and out.winners), f"{game.info.id}: a draw with winners"
    assert isinstance(out.reason, str) and out.reason, f"{game.info.id}: no reason given"


def check_determinize(game: Game, state: Any, seats: int, seed: int) -> bool:  # type: ignore[type-arg]
    """Determinizing returns a separate, valid state, leaves the original alone and keeps the
    seat's own legal actions; with no hidden information it changes nothing.

    Returns whether any determinization differed from the original, so a caller can assert
    that, over a playout, a game with hidden information really resamples something.
    """
    before = canonical(state.to_dict())
    differed = False
    for seat in _viewers(seats):
        det = game.determinize(state, seat, LocalRng(seed))
        where = f"{game.info.id}: determinize for seat {seat} (seed {seed})"
        assert det is not state, f"{where}: returned the state itself"
        text = canonical(det.to_dict())
        back = game.state_from_dict(json.loads(text))
        assert canonical(back.to_dict()) == text, f"{where}: the result does not round-trip"
        if seat is not None and seat in game.to_act(state):
            mine = [a.id for a in game.legal_actions(state, seat)]
            assert [a.id for a in game.legal_actions(det, seat)] == mine, (
                f"{where}: the seat's legal actions depend on what it cannot see"
            )
        if text != before:
            differed = True
            assert game.info.hidden_information, (
                f"{where}: changed the state of a game without hidden information"
            )
    assert canonical(state.to_dict()) == before, f"{game.info.id}: determinize changed the original"
    return differed


def check_bad_setup(game: Game, seed: int = 0) -> None:  # type: ignore[type-arg]
    """new_state refuses, with BadSetup, seat counts outside a scenario's range, unknown
    scenarios and unknown options; it accepts every seat count in range."""
    gid = game.info.id

    def refused(scenario: Any, seats: Any, options: dict[str, Any], why: str) -> None:
        try:
            game.new_state(scenario, seats, options, StreamRng(b"setup", "setup"))
        except BadSetup:
            return
        raise AssertionError(f"{gid}: new_state accepted {why}")

    for sc in game.info.scenarios:
        for bad in sorted({0, -1, sc.min_seats - 1, sc.max_seats + 1, sc.max_seats + 10}):
            if not sc.min_seats <= bad <= sc.max_seats:
                refused(sc.id, bad, {}, f"{bad} seats in scenario {sc.id!r}")
        refused(sc.id, sc.min_seats, {"no such option": 1}, "an unknown option")
        for seats in range(sc.min_seats, sc.max_seats + 1):
            state = game.new_state(sc.id, seats, {}, StreamRng(seed.to_bytes(8, "big"), "setup"))
            assert game.to_act(state) or game.outcome(state) is not None, (
                f"{gid}/{sc.id}: nobody acts after set-up with {seats} seats"
            )
    ids = {sc.id for sc in game.info.scenarios}
    for unknown in ("no such scenario", "", f"{sorted(ids)[0]} ", sorted(ids)[0].upper()):
        if unknown not in ids:
            smallest = min(sc.min_seats for sc in game.info.scenarios)
            refused(unknown, smallest, {}, f"the unknown scenario {unknown!r}")


def _accepted_off_list(game: Game, state: Any, action_id: str,  # type: ignore[type-arg]
                       seat: int | None = None) -> bool:
    """Whether a game with continuous choices (its own `validate`; ARCHITECTURE: Bandas'
    destinations) accepts an id its legal list does not show, such as an earlier point:
    from `seat`, or from any seat to act."""
    if type(game).validate is Game.validate:
        return False
    for who in (game.to_act(state) if seat is None else [seat]):
        try:
            game.validate(state, who, action_id)
            return True
        except IllegalAction:
            pass
    return False


def stale_ids(history: Sequence[str], state: Any, game: Game, limit: int = 8) -> list[str]:  # type: ignore[type-arg]
    """Up to `limit` ids from `history` (most recent first) that no seat may take now."""
    now = {a.id for s in game.to_act(state) for a in game.legal_actions(state, s)}
    out: list[str] = []
    for a in reversed(history):
        if a not in now and a not in out and not _accepted_off_list(game, state, a):
            out.append(a)
            if len(out) == limit:
                break
    return out


def check_resign(game: Game, state: Any, seats: int) -> None:  # type: ignore[type-arg]
    """`resign` either refuses with IllegalAction and changes nothing, or returns JSON-plain
    events and leaves a valid state in which the seat has no decision left. Seats that do not
    exist and resigning after the outcome are refused. Works on clones: `state` is untouched."""
    before = canonical(state.to_dict())
    over = game.outcome(state) is not None
    for seat in range(-1, seats + 1):
        work = state.clone()
        where = f"{game.info.id}: resign of seat {seat}"
        try:
            events = game.resign(work, seat)
        except IllegalAction:
            assert canonical(work.to_dict()) == before, f"{where}: refused but mutated"
            continue
        assert 0 <= seat < seats, f"{where} was accepted, but there is no such seat"
        assert not over, f"{where} was accepted after the outcome"
        check_events(game, events, seats)
        check_roundtrip(game, work)
        check_decisions(game, work, seats)
        assert seat not in game.to_act(work), f"{where}: the seat still has a decision"
        if game.outcome(work) is not None:
            check_outcome(game, work, seats)
    assert canonical(state.to_dict()) == before, f"{game.info.id}: resign changed the original"
