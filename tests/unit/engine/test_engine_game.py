"""The Game.apply template, and the conformance kit itself, on a small toy game.

The toy ("high card") has hidden information (the deck order and the other hands), private
events and randomness, so every conformance check has something to bite on. Broken variants
of it show that each check really fails on the bug it is meant to catch: a check that passes
on everything would make the conformance suite prove nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from partida.engine import (
    Action,
    BadSetup,
    Event,
    Game,
    GameInfo,
    IllegalAction,
    Json,
    LocalRng,
    Outcome,
    Rng,
    Scenario,
    Seat,
    StreamRng,
)
from partida.engine import conformance as kit
from partida.engine.errors import RefusedItsOwnAction


@dataclass
class ToyState:
    deck: list[int]
    hands: list[list[int]]
    turn: int = 0
    passes: int = 0
    bonus: int = 0
    over: bool = False

    def clone(self) -> ToyState:
        return ToyState(list(self.deck), [list(h) for h in self.hands], self.turn, self.passes,
                        self.bonus, self.over)

    def to_dict(self) -> dict[str, Json]:
        return {"deck": list(self.deck), "hands": [list(h) for h in self.hands],
                "turn": self.turn, "passes": self.passes, "bonus": self.bonus, "over": self.over}


class Toy(Game[ToyState]):
    """Seats in turn draw the top card (privately) or pass; a draw also rolls a die whose
    six gives a bonus point. It ends when the deck is empty or everyone passed in a row;
    the highest hand total (plus bonus points) wins."""

    info = GameInfo("toy", "High card", (Scenario("basic", "Basic", 2, 4),),
                    hidden_information=True, options={"cards": "deck size"})

    def __init__(self) -> None:
        self.applied = 0

    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> ToyState:
        if scenario != "basic":
            raise BadSetup(f"unknown scenario {scenario!r}")
        if not 2 <= seats <= 4:
            raise BadSetup("2-4 seats")
        if set(options) - {"cards"}:
            raise BadSetup("unknown option")
        deck = list(range(1, int(options.get("cards", 12)) + 1))
        rng.shuffle(deck)
        return ToyState(deck, [[] for _ in range(seats)])

    def to_act(self, state: ToyState) -> tuple[Seat, ...]:
        return () if state.over else (state.turn,)

    def legal_actions(self, state: ToyState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        out = [Action("pass", "pass")]
        if state.deck:
            out.insert(0, Action("draw", "draw the top card"))
        return out

    def default_action(self, state: ToyState, seat: Seat) -> str:
        return "pass"

    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        self.applied += 1
        seats = len(state.hands)
        if action_id == "draw":
            card = state.deck.pop(0)
            state.hands[seat].append(card)
            state.passes = 0
            roll = rng.d6()
            state.bonus += roll == 6
            events = [Event("drew", {"seat": seat, "card": card}, frozenset({seat}),
                            {"seat": seat}),
                      Event("rolled", {"seat": seat, "die": roll})]
        else:
            state.passes += 1
            events = [Event("passed", {"seat": seat})]
        if not state.deck or state.passes >= seats:
            state.over = True
            events.append(Event("over", {}))
        else:
            state.turn = (state.turn + 1) % seats
        return events

    def view(self, state: ToyState, seat: Seat | None) -> dict[str, Json]:
        return {"hand": None if seat is None else sorted(state.hands[seat]),
                "counts": [len(h) for h in state.hands], "deck": len(state.deck),
                "turn": state.turn, "passes": state.passes, "bonus": state.bonus,
                "over": state.over}

    def determinize(self, state: ToyState, seat: Seat | None, rng: Rng) -> ToyState:
        out = state.clone()
        others = [s for s in range(len(out.hands)) if s != seat]
        unseen = out.deck + [c for s in others for c in out.hands[s]]
        rng.shuffle(unseen)
        out.deck, unseen = unseen[:len(out.deck)], unseen[len(out.deck):]
        for s in others:
            n = len(out.hands[s])
            out.hands[s], unseen = unseen[:n], unseen[n:]
        return out

    def outcome(self, state: ToyState) -> Outcome | None:
        if not state.over:
            return None
        totals = {s: float(sum(h)) for s, h in enumerate(state.hands)}
        best = max(totals.values())
        return Outcome(tuple(s for s, t in totals.items() if t == best), "highest total",
                       scores=totals)

    def state_from_dict(self, data: Mapping[str, Json]) -> ToyState:
        return ToyState(list(data["deck"]), [list(h) for h in data["hands"]], data["turn"],
                        data["passes"], data["bonus"], data["over"])


def fresh(seats: int = 3, seed: bytes = b"toy") -> tuple[Toy, ToyState, StreamRng]:
    game = Toy()
    rng = StreamRng(seed, "toy-match")
    return game, game.new_state("basic", seats, {}, rng), rng


# ----- the Game.apply template --------------------------------------------------------------------

def test_apply_accepts_a_legal_id_or_action() -> None:
    game, state, rng = fresh()
    game.apply(state, 0, "draw", rng)
    game.apply(state, 1, Action("pass", "whatever the description"), rng)
    assert state.turn == 2 and game.applied == 2


@pytest.mark.parametrize("seat", [1, 2, 3, -1, 99, None, "0"])
def test_apply_refuses_a_seat_that_is_not_to_act(seat: Any) -> None:
    game, state, rng = fresh()
    before, position, draws = state.to_dict(), rng.position, len(rng.draws)
    with pytest.raises(IllegalAction) as info:
        game.apply(state, seat, "draw", rng)
    assert info.value.reason and str(info.value) == info.value.reason
    assert state.to_dict() == before
    assert game.applied == 0 and rng.position == position and len(rng.draws) == draws


@pytest.mark.parametrize("action", [17, None, 1.5, b"draw", ["draw"], {"id": "draw"},
                                    Action(17, "not a string")])  # type: ignore[arg-type]
def test_apply_refuses_non_string_ids(action: Any) -> None:
    game, state, rng = fresh()
    position = rng.position
    with pytest.raises(IllegalAction, match="string"):
        game.apply(state, 0, action, rng)
    assert game.applied == 0 and rng.position == position


@pytest.mark.parametrize("action", ["", "Draw", "draw ", "nope", "pass:0"])
def test_apply_refuses_ids_that_are_not_legal(action: str) -> None:
    game, state, rng = fresh()
    with pytest.raises(IllegalAction, match="not a legal action"):
        game.apply(state, 0, action, rng)
    assert game.applied == 0


class RefusesItsDraw(Toy):
    """Lists "draw", then refuses it when applying: a bug in a game."""

    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        if action_id == "draw":
            raise IllegalAction("no drawing after all")
        return super()._apply(state, seat, action_id, rng)


@pytest.mark.parametrize("listed", [(), ("draw", "pass")])
def test_a_legal_action_refused_when_applied_is_the_games_bug_not_a_refusal(listed) -> None:
    """Validated (or listed by the caller's memo), then refused by `_apply`: not an
    IllegalAction, which a caller reads as the player's mistake or the match moving on."""
    game = RefusesItsDraw()
    state = game.new_state("basic", 2, {}, StreamRng(b"s" * 32, "toy-match"))
    with pytest.raises(RefusedItsOwnAction, match="toy: seat 0's legal 'draw' was refused"):
        game.apply(state, 0, "draw", LocalRng(1), listed)
    assert game.apply(state, 0, "pass", LocalRng(1))  # its other actions are applied


def test_apply_refuses_everything_after_the_outcome() -> None:
    game, state, rng = fresh(seats=2)
    game.apply(state, 0, "pass", rng)
    game.apply(state, 1, "pass", rng)
    assert game.outcome(state) is not None
    # Even the seat whose turn it would have been, with an id legal a moment ago:
    state_turn = state.turn
    for seat in (0, 1, state_turn):
        for action in ("pass", "draw"):
            with pytest.raises(IllegalAction, match="over"):
                game.apply(state, seat, action, rng)
    assert game.applied == 2


def test_validate_does_not_reach_apply_when_legal_actions_say_no() -> None:
    game, state, rng = fresh(seats=2)
    state.deck.clear()  # no card left: "draw" is no longer offered
    with pytest.raises(IllegalAction):
        game.apply(state, 0, "draw", rng)
    assert game.applied == 0


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_apply_refuses_seats_that_are_not_ints(seat: Any) -> None:
    game, state, rng = fresh()
    game.apply(state, 0, "pass", rng)  # seat 1 is to act now
    with pytest.raises(IllegalAction):
        game.apply(state, seat, "pass", rng)


# ----- the conformance kit accepts a correct game ... ---------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_kit_passes_the_toy(seats: int, seed: int) -> None:
    game = Toy()
    differed = []

    def each(p: kit.Playout, seat: Seat) -> None:
        kit.full_check(p, seat)
        kit.check_clone_independent(game, p.state)
        kit.check_serialization_detached(game, p.state)
        kit.check_decisions(game, p.state, seats)
        kit.check_refusals(game, p.state, seats, kit.stale_ids([a for _, a in p.log],
                                                               p.state, game))
        kit.check_views_json(game, p.state, seats)
        kit.check_view_detached(game, p.state, seats)
        differed.append(kit.check_determinize(game, p.state, seats, seed + p.steps))
        kit.check_resign(game, p.state, seats)

    p = kit.random_playout(game, "basic", seats, seed, 1000, each_step=each)
    kit.check_terminates(p)
    kit.check_outcome(game, p.state, seats)
    kit.check_refusals(game, p.state, seats, ["draw", "pass"])
    kit.check_replay(p)
    kit.check_replay_events(p)
    for cut in range(p.steps + 1):
        kit.check_resume(p, cut)
    for _, _, step in kit.replay_steps(p):
        if step:
            kit.check_events(game, step.events, seats)
    assert any(differed)
    kit.check_terminates(kit.default_playout(game, "basic", seats, seed, 1000))
    kit.check_bad_setup(game)


def test_seat_counts() -> None:
    assert kit.seat_counts(Scenario("a", "A", 1, 5)) == [1, 3, 5]
    assert kit.seat_counts(Scenario("a", "A", 2, 4)) == [2, 3, 4]
    assert kit.seat_counts(Scenario("a", "A", 2, 3)) == [2, 3]
    assert kit.seat_counts(Scenario("a", "A", 4, 4)) == [4]


# ----- ... and each check fails on the bug it is meant to catch --------------------------------

def playout(game: Game, seats: int = 3, seed: int = 1) -> kit.Playout:  # type: ignore[type-arg]
    return kit.random_playout(game, "basic", seats, seed, 1000)


def some_states(game: Game, seats: int = 3) -> list[Any]:  # type: ignore[type-arg]
    p = playout(game, seats)
    return [state.clone() for state, _, _ in kit.replay_steps(p)]


class LeakyView(Toy):
    def view(self, state: ToyState, seat: Seat | None) -> dict[str, Json]:
        return {**super().view(state, seat), "top": state.deck[:1]}


class LazyDeterminize(Toy):
    def determinize(self, state: ToyState, seat: Seat | None, rng: Rng) -> ToyState:
        return state.clone()


class AliasingView(Toy):
    def view(self, state: ToyState, seat: Seat | None) -> dict[str, Json]:
        return {**super().view(state, seat), "hands": state.hands}


class TupleView(Toy):
    def view(self, state: ToyState, seat: Seat | None) -> dict[str, Json]:
        return {**super().view(state, seat), "counts": tuple(len(h) for h in state.hands)}


class ShallowClone(Toy):
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> ToyState:
        state = super().new_state(scenario, seats, options, rng)
        state.clone = lambda: ToyState(state.deck, state.hands, state.turn)  # type: ignore[method-assign]
        return state


class GlobalRandom(Toy):
    """Draws from Python's global random instead of the match stream: replays diverge."""

    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        events = super()._apply(state, seat, action_id, rng)
        state.bonus += random.randint(0, 1000)
        return events


class MutatingValidate(Toy):
    def validate(self, state: ToyState, seat: Seat, action_id: str) -> None:
        state.passes += 0 if action_id in ("draw", "pass") else 1
        super().validate(state, seat, action_id)


class RandomValidate(Toy):
    """Consumes randomness before refusing (e.g. a game that rolls before checking)."""

    def apply(self, state: ToyState, seat: Seat, action: Any, rng: Rng) -> list[Event]:
        rng.d6()
        return super().apply(state, seat, action, rng)


class LeakyEvent(Toy):
    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        return [Event(e.kind, e.data, frozenset({seat, 9}), e.public)
                if e.visible_to else e for e in super()._apply(state, seat, action_id, rng)]


class TupleEvent(Toy):
    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        return [*super()._apply(state, seat, action_id, rng), Event("t", {"pair": (1, 2)})]


class LaxSetup(Toy):
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> ToyState:
        return super().new_state("basic", max(2, min(seats, 4)), {}, rng)


class BadDefault(Toy):
    def default_action(self, state: ToyState, seat: Seat) -> str:
        return "draw!"


class Endless(Toy):
    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        events = super()._apply(state, seat, action_id, rng)
        state.over = False
        if not state.deck:
            state.deck.append(99)
        return events


class HalfResign(Toy):
    """Resigning records a forfeit but leaves the seat to act, and accepts unknown seats."""

    def resign(self, state: ToyState, seat: Seat) -> list[Event]:
        state.bonus -= 1
        return [Event("resigned", {"seat": seat})]


class Resigns(Toy):
    """Resigning ends the match at once (and is refused afterwards)."""

    def resign(self, state: ToyState, seat: Seat) -> list[Event]:
        if state.over or not 0 <= seat < len(state.hands):
            raise IllegalAction("no")
        state.over = True
        return [Event("resigned", {"seat": seat})]


class LossySerialization(Toy):
    def state_from_dict(self, data: Mapping[str, Json]) -> ToyState:
        state = super().state_from_dict(data)
        state.deck.sort()  # forgets the order of the deck
        return state


def test_kit_catches_a_leaky_view() -> None:
    game = LeakyView()
    with pytest.raises(AssertionError, match="view of seat"):
        for state in some_states(game):
            kit.check_views_leak_nothing(game, state, 3, 0)


def test_kit_notices_a_determinize_that_resamples_nothing() -> None:
    game = LazyDeterminize()
    assert not any(kit.check_determinize(game, s, 3, 0) for s in some_states(game))
    assert any(kit.check_determinize(Toy(), s, 3, 0) for s in some_states(Toy()))


def test_kit_catches_an_aliasing_view() -> None:
    game = AliasingView()
    with pytest.raises(AssertionError, match="mutating the view"):
        for state in some_states(game):
            kit.check_view_detached(game, state, 3)


def test_kit_catches_a_view_that_is_not_json_plain() -> None:
    game = TupleView()
    with pytest.raises(AssertionError, match="JSON-plain"):
        kit.check_views_json(game, some_states(game)[0], 3)


def test_kit_catches_a_shallow_clone() -> None:
    game = ShallowClone()
    state = game.new_state("basic", 3, {}, StreamRng(b"toy", "m"))
    with pytest.raises(AssertionError, match="clone"):
        kit.check_clone_independent(game, state)


def test_kit_catches_lossy_serialization() -> None:
    game = LossySerialization()
    with pytest.raises(AssertionError, match="lossy"):
        kit.check_roundtrip(game, some_states(game)[0])


def test_kit_catches_randomness_outside_the_stream() -> None:
    p = playout(GlobalRandom())
    with pytest.raises(AssertionError, match="replaying"):
        kit.check_replay(p)


def test_kit_catches_a_refusal_that_mutates() -> None:
    game = MutatingValidate()
    with pytest.raises(AssertionError, match="mutated"):
        kit.check_refusals(game, game.new_state("basic", 3, {}, StreamRng(b"t", "m")), 3)


def test_kit_catches_a_refusal_that_consumes_randomness() -> None:
    game = RandomValidate()
    with pytest.raises(AssertionError, match="consumed randomness"):
        kit.check_refusals(game, game.new_state("basic", 3, {}, StreamRng(b"t", "m")), 3)


def test_kit_catches_events_for_seats_that_do_not_exist() -> None:
    game = LeakyEvent()
    _, state, rng = fresh()
    with pytest.raises(AssertionError, match="visible to seats"):
        kit.check_events(game, game.apply(state, 0, "draw", rng), 3)


def test_kit_catches_events_that_are_not_json_plain() -> None:
    game = TupleEvent()
    _, state, rng = fresh()
    with pytest.raises(AssertionError, match="round-trip"):
        kit.check_events(game, game.apply(state, 0, "pass", rng), 3)


def test_kit_catches_lax_setup() -> None:
    with pytest.raises(AssertionError, match="accepted"):
        kit.check_bad_setup(LaxSetup())


def test_kit_catches_an_illegal_default() -> None:
    game = BadDefault()
    with pytest.raises(AssertionError, match="default"):
        kit.check_default_legal(game, game.new_state("basic", 2, {}, LocalRng(0)))


def test_kit_catches_a_game_that_never_ends() -> None:
    p = kit.random_playout(Endless(), "basic", 2, 0, 300)
    assert p.steps == 300
    with pytest.raises(AssertionError, match="no outcome"):
        kit.check_terminates(p)


def test_kit_accepts_refused_or_clean_resignation() -> None:
    for game in (Toy(), Resigns()):
        for state in some_states(game):
            kit.check_resign(game, state, 3)


def test_kit_catches_a_resignation_that_leaves_the_seat_deciding() -> None:
    game = HalfResign()
    with pytest.raises(AssertionError, match="resign of seat"):
        kit.check_resign(game, some_states(game)[0], 3)


class ShortPass(Toy):
    """Takes "pas" for a pass too, off its list, as Batallitas takes any outdoor cell for a
    bombing's grenade but lists only those near a rebel."""

    def validate(self, state: ToyState, seat: Seat, action_id: str) -> None:
        if action_id == "pas" and seat in self.to_act(state):
            return
        super().validate(state, seat, action_id)

    def _apply(self, state: ToyState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        return super()._apply(state, seat, "pass" if action_id == "pas" else action_id, rng)


def test_kit_does_not_probe_with_a_mangled_id_the_game_takes_off_its_list() -> None:
    """A legal id cut short ("pass" to "pas") is one of the kit's mangled probes; a game that
    takes it off its list is right to, and the kit must not call it an illegal action
    accepted (the conformance suite failed so on Batallitas at a random seed)."""
    game = ShortPass()
    state = game.new_state("basic", 2, {}, LocalRng(1))
    assert (0, "pas") not in kit.illegal_probes(game, state, 2)
    assert (0, "pass:") in kit.illegal_probes(game, state, 2)  # other mangled ids still are
    kit.check_refusals(game, state, 2)
