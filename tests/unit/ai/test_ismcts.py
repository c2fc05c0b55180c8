"""ISMCTS (partida.ai.ismcts) on Las Montañas and on two toy games with known answers.

The toys are written here against the engine contract: Nim (perfect information, the
winning move is known) and "bet or fold" (one hidden card each, where a search that could
see the opponent's card would bet and an honest one folds).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from partida.ai.ismcts import Ismcts, IsmctsBot, Node, outcome_rewards
from partida.engine import (
    Action,
    Event,
    Game,
    GameInfo,
    Json,
    LocalRng,
    Outcome,
    Rng,
    Scenario,
    Seat,
    get,
)
from partida.engine.bots import play_match
from partida.games.montanas.bots import HeuristicBot

# ----- toy games -------------------------------------------------------------------------


@dataclass
class NimState:
    pile: int
    mover: int = 0
    winner: int | None = None

    def clone(self) -> NimState:
        return NimState(self.pile, self.mover, self.winner)

    def to_dict(self) -> dict[str, Json]:
        return {"pile": self.pile, "mover": self.mover, "winner": self.winner}


class Nim(Game[NimState]):
    """Two seats take 1-3 stones in turn; whoever takes the last stone wins. The winning
    move leaves a multiple of four."""

    info = GameInfo("toy_nim", "Nim", (Scenario("standard", "Nim", 2, 2),), False)

    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> NimState:
        return NimState(int(options.get("pile", 10)))

    def to_act(self, state: NimState) -> tuple[Seat, ...]:
        return () if state.winner is not None else (state.mover,)

    def legal_actions(self, state: NimState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Action(f"take:{n}", f"take {n}") for n in (1, 2, 3) if n <= state.pile]

    def default_action(self, state: NimState, seat: Seat) -> str:
        return "take:1"

    def _apply(self, state: NimState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        state.pile -= int(action_id.split(":")[1])
        if state.pile == 0:
            state.winner = seat
        state.mover = 1 - seat
        return []

    def view(self, state: NimState, seat: Seat | None) -> dict[str, Json]:
        return state.to_dict()

    def determinize(self, state: NimState, seat: Seat | None, rng: Rng) -> NimState:
        return state.clone()

    def outcome(self, state: NimState) -> Outcome | None:
        return None if state.winner is None else Outcome((state.winner,), "last stone")

    def state_from_dict(self, data: Mapping[str, Json]) -> NimState:
        return NimState(**data)


CARDS = (1, 2, 3, 4)


@dataclass
class BetState:
    cards: list[int]
    result: str | None = None

    def clone(self) -> BetState:
        return BetState(list(self.cards), self.result)

    def to_dict(self) -> dict[str, Json]:
        return {"cards": list(self.cards), "result": self.result}


class BetOrFold(Game[BetState]):
    """Each seat holds one of four cards, seen only by itself. Seat 0 folds (a draw) or
    bets (the higher card wins). Holding a 2, a bet wins against one card in three."""

    info = GameInfo("toy_bet", "Bet or fold", (Scenario("standard", "Bet", 2, 2),), True)

    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> BetState:
        deck = list(CARDS)
        rng.shuffle(deck)
        return BetState(deck[:2])

    def to_act(self, state: BetState) -> tuple[Seat, ...]:
        return () if state.result else (0,)

    def legal_actions(self, state: BetState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Action("bet", "bet"), Action("fold", "fold")]

    def default_action(self, state: BetState, seat: Seat) -> str:
        return "fold"

    def _apply(self, state: BetState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        state.result = action_id
        return []

    def view(self, state: BetState, seat: Seat | None) -> dict[str, Json]:
        return {"mine": None if seat is None else state.cards[seat], "result": state.result}

    def determinize(self, state: BetState, seat: Seat | None, rng: Rng) -> BetState:
        out = state.clone()
        known = {seat} if seat is not None else set()
        unseen = [c for c in CARDS if c not in {out.cards[s] for s in known}]
        rng.shuffle(unseen)
        for s in (0, 1):
            if s not in known:
                out.cards[s] = unseen.pop()
        return out

    def outcome(self, state: BetState) -> Outcome | None:
        if state.result is None:
            return None
        if state.result == "fold":
            return Outcome((), "fold", draw=True)
        return Outcome((0 if state.cards[0] > state.cards[1] else 1,), "showdown")

    def state_from_dict(self, data: Mapping[str, Json]) -> BetState:
        return BetState(**data)


@dataclass
class PickState:
    picks: list[int | None] = field(default_factory=lambda: [None, None])

    def clone(self) -> PickState:
        return PickState(list(self.picks))

    def to_dict(self) -> dict[str, Json]:
        return {"picks": list(self.picks)}


class HighNumber(Game[PickState]):
    """Both seats pick 1, 2 or 3 at once; the higher number wins, equal numbers draw."""

    info = GameInfo("toy_high", "High number", (Scenario("standard", "High", 2, 2),), False)

    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> PickState:
        return PickState()

    def to_act(self, state: PickState) -> tuple[Seat, ...]:
        return tuple(s for s, pick in enumerate(state.picks) if pick is None)

    def legal_actions(self, state: PickState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Action(f"pick:{n}", f"pick {n}") for n in (1, 2, 3)]

    def default_action(self, state: PickState, seat: Seat) -> str:
        return "pick:1"

    def _apply(self, state: PickState, seat: Seat, action_id: str, rng: Rng) -> list[Event]:
        state.picks[seat] = int(action_id.split(":")[1])
        return []

    def view(self, state: PickState, seat: Seat | None) -> dict[str, Json]:
        return {"mine": None if seat is None else state.picks[seat]}

    def determinize(self, state: PickState, seat: Seat | None, rng: Rng) -> PickState:
        return state.clone()

    def outcome(self, state: PickState) -> Outcome | None:
        a, b = state.picks
        if a is None or b is None:
            return None
        if a == b:
            return Outcome((), "equal", draw=True)
        return Outcome((0 if a > b else 1,), "higher")

    def state_from_dict(self, data: Mapping[str, Json]) -> PickState:
        return PickState(**data)


class Peeking(BetOrFold):
    """The same game with a determinization that keeps the real cards: a search on it sees
    what it should not."""

    def determinize(self, state: BetState, seat: Seat | None, rng: Rng) -> BetState:
        return state.clone()


@dataclass
class Spy:
    """Wraps a game and counts the contract calls made through it."""

    game: Any
    calls: Counter[str] = field(default_factory=Counter)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.game, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return attr(*args, **kwargs)

        return counted


# ----- Las Montañas positions -------------------------------------------------------------

MONTANAS = get("montanas")


HEURISTIC = HeuristicBot()


def _heuristic_rollout(game: Any, state: Any, seat: Seat, rng: Rng) -> str:
    """The Montañas heuristic bot as a rollout policy: it reads only the seat's view."""
    return HEURISTIC.choose(game.view(state, seat), game.legal_actions(state, seat), rng)


@pytest.fixture(scope="module")
def positions() -> dict[str, Any]:
    """Real decision points of a heuristic solo match: the first of each phase with a choice
    (keyed by phase), the first with a lone legal action (key "forced") and all of them
    (key "all", a list)."""
    found: dict[str, Any] = {"all": []}

    def observe(state: Any, seat: Seat | None, action: str | None, events: list[Event]) -> None:
        if MONTANAS.outcome(state) is not None:
            return
        mover = MONTANAS.to_act(state)[0]
        n = len(MONTANAS.legal_actions(state, mover))
        found.setdefault("forced" if n == 1 else state.phase, state.clone())
        found["all"].append(state.clone())

    play_match(MONTANAS, "standard", [HEURISTIC], seed=3, observe=observe)
    assert {"deploy", "barricade", "discard", "play", "forced"} <= set(found)
    return found


def _legal_ids(game: Any, state: Any, seat: Seat) -> list[str]:
    return [a.id for a in game.legal_actions(state, seat)]


def _hidden_twin(state: Any) -> Any:
    """A state the seat cannot tell from `state`: same view, other deck and tile order."""
    twin = MONTANAS.determinize(state, 0, LocalRng(99))
    assert MONTANAS.view(twin, 0) == MONTANAS.view(state, 0)
    assert (twin.deck, twin.pool) != (state.deck, state.pool)
    return twin


class CanonicalMontanas:
    """Las Montañas whose determinize first sorts the hidden deck and tile pool, so the
    worlds it samples depend only on what the seat knows. Same distribution as the game's
    own determinize; it makes "the search reads nothing hidden" testable exactly."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def determinize(self, state: Any, seat: Seat | None, rng: Rng) -> Any:
        canonical = state.clone()
        canonical.deck.sort()
        canonical.pool.sort()
        return self.game.determinize(canonical, seat, rng)


class NoDeterminization(Ismcts):
    """A broken search that plays every iteration on the state it was given."""

    def _iterate(self, game: Any, root: Node, state: Any, seat: Seat, rng: Rng) -> None:
        world = state.clone()
        node = self._select_and_expand(game, root, world, seat, rng)
        node.backpropagate(self._simulate(game, world, seat, rng))


def _tree(node: Node) -> dict[Any, Any]:
    """Every node's visits, availability and reward, by the moves leading to it."""
    return {move: (c.visits, c.availability, c.total_reward, _tree(c))
            for move, c in node.children.items()}


# ----- Montañas: legality, determinism, budget --------------------------------------------


@pytest.mark.parametrize("phase", ["deploy", "barricade", "discard", "play"])
def test_montanas_choice_is_legal(positions: dict[str, Any], phase: str) -> None:
    state = positions[phase]
    seat = MONTANAS.to_act(state)[0]
    before = state.to_dict()
    choice = Ismcts().choose_from_state(MONTANAS, state, seat, LocalRng(1), iterations=12)
    assert choice in _legal_ids(MONTANAS, state, seat)
    assert state.to_dict() == before  # the search works on copies


def test_montanas_choice_is_legal_along_a_whole_match(positions: dict[str, Any]) -> None:
    search = Ismcts()
    for state in positions["all"][::6]:
        seat = MONTANAS.to_act(state)[0]
        choice = search.choose_from_state(MONTANAS, state, seat, LocalRng(2), iterations=6)
        assert choice in _legal_ids(MONTANAS, state, seat), state.phase


def test_montanas_same_seed_same_choice_and_tree(positions: dict[str, Any]) -> None:
    state = positions["discard"]
    runs = [Ismcts().search(MONTANAS, state, 0, LocalRng(7), iterations=40) for _ in range(2)]
    assert _tree(runs[0]) == _tree(runs[1])
    choices = {Ismcts().choose_from_state(MONTANAS, state, 0, LocalRng(7), iterations=40)
               for _ in range(2)}
    assert len(choices) == 1


def test_montanas_lone_action_is_returned_without_search(positions: dict[str, Any]) -> None:
    state = positions["forced"]
    (only,) = _legal_ids(MONTANAS, state, 0)
    spy, rng = Spy(MONTANAS), LocalRng(1)
    started = time.process_time()
    assert Ismcts().choose_from_state(spy, state, 0, rng, iterations=10**9) == only
    assert time.process_time() - started < 1.0  # a billion iterations were not run
    assert spy.calls["determinize"] == spy.calls["apply"] == 0
    assert rng.draws == []


def test_search_runs_exactly_the_iteration_budget(positions: dict[str, Any]) -> None:
    spy = Spy(MONTANAS)
    root = Ismcts().search(spy, positions["play"], 0, LocalRng(1), iterations=9)
    assert root.visits == 9 == spy.calls["determinize"]
    assert sum(c.visits for c in root.children.values()) == 9


def test_time_budget_stops_the_search_after_at_least_one_iteration() -> None:
    ticks = iter(range(10**6))
    search = Ismcts(clock=lambda: float(next(ticks)))  # one second per clock reading
    state = NimState(10)
    assert search.search(Nim(), state, 0, LocalRng(1), seconds=0).visits == 1
    assert search.search(Nim(), state, 0, LocalRng(1), seconds=5).visits == 5
    assert search.search(Nim(), state, 0, LocalRng(1), iterations=3, seconds=50).visits == 3


# ----- Montañas: no hidden information ----------------------------------------------------


@pytest.mark.parametrize("phase", ["discard", "play"])
def test_montanas_search_sees_only_the_information_set(positions: dict[str, Any],
                                                        phase: str) -> None:
    """Two states that differ only in the deck and tile order (the second made with
    `determinize`), searched with the same seed, give the same choice and the very same tree.

    Las Montañas' own determinize shuffles the order it is given, so on the bare game the same
    seed samples different (equally likely) worlds for the twins and only the distribution of
    choices could match. `CanonicalMontanas` removes that: what is sampled then depends on the
    information set alone, and so must everything the search does. A search that skips
    determinization gives different trees on the twins, so this check catches a peek.
    """
    game, state = CanonicalMontanas(MONTANAS), positions[phase]
    twin = _hidden_twin(state)
    search = Ismcts(rollout_policy=_heuristic_rollout)
    honest = [search.search(game, s, 0, LocalRng(5), iterations=25) for s in (state, twin)]
    assert _tree(honest[0]) == _tree(honest[1])
    assert honest[0].most_visited(0).action_id == honest[1].most_visited(0).action_id
    choices = {search.choose_from_state(game, s, 0, LocalRng(5), iterations=25)
               for s in (state, twin)}
    assert choices == {honest[0].most_visited(0).action_id}
    peeking = NoDeterminization(rollout_policy=_heuristic_rollout)
    peeks = [_tree(peeking.search(game, s, 0, LocalRng(5), iterations=25)) for s in (state, twin)]
    assert peeks[0] != peeks[1]


# ----- toy games with known answers --------------------------------------------------------


@pytest.mark.parametrize("pile", [5, 6, 7, 9, 10, 11])
def test_nim_finds_the_winning_move(pile: int) -> None:
    choice = Ismcts().choose_from_state(Nim(), NimState(pile), 0, LocalRng(pile),
                                        iterations=500)
    assert choice == f"take:{pile % 4}"


def test_nim_second_seat_also_searches_for_itself() -> None:
    state = NimState(6, mover=1)
    assert Ismcts().choose_from_state(Nim(), state, 1, LocalRng(2), iterations=500) == "take:2"


@pytest.mark.parametrize("seat", [0, 1])
def test_simultaneous_decision_searches_the_asking_seat(seat: int) -> None:
    """Both seats decide at once; the search answers for the seat that asks (seat 1 is not
    first in `to_act`) and finds the highest number."""
    choice = Ismcts().choose_from_state(HighNumber(), PickState(), seat, LocalRng(4),
                                        iterations=300)
    assert choice == "pick:3"


@pytest.mark.parametrize(("mine", "expected"), [(1, "fold"), (2, "fold"), (3, "bet"),
                                                (4, "bet")])
def test_hidden_card_decision_uses_determinization(mine: int, expected: str) -> None:
    """The opponent really holds the lowest other card, so a bet would win. Holding 2, an
    honest search still folds (a bet wins 1 time in 3)."""
    theirs = min(c for c in CARDS if c != mine)
    state = BetState([mine, theirs])
    choice = Ismcts().choose_from_state(BetOrFold(), state, 0, LocalRng(3), iterations=500)
    assert choice == expected


def test_hidden_card_peeking_would_bet() -> None:
    """Control for the test above: the same search on a game that leaks the card bets."""
    state = BetState([2, 1])
    assert Ismcts().choose_from_state(Peeking(), state, 0, LocalRng(3), iterations=500) == "bet"


def test_rewards_from_outcomes() -> None:
    won = outcome_rewards(Outcome((1,), "win"))
    assert (won(0), won(1)) == (0.0, 1.0)
    drawn = outcome_rewards(Outcome((), "draw", draw=True))
    assert (drawn(0), drawn(1)) == (0.5, 0.5)
    shared_loss = outcome_rewards(Outcome((), "the ship fell"))
    assert shared_loss(0) == 0.0


def test_rollout_cap_uses_the_evaluation() -> None:
    """Rollouts cut at zero steps score every expanded node with `evaluate`."""
    search = Ismcts(max_rollout_steps=0, evaluate=lambda game, state: {0: 0.25})
    root = search.search(Nim(), NimState(10), 0, LocalRng(1), iterations=3)
    assert {c.total_reward / c.visits for c in root.children.values()} == {0.25}
    neutral = Ismcts(max_rollout_steps=0).search(Nim(), NimState(10), 0, LocalRng(1),
                                                 iterations=3)
    assert {c.total_reward / c.visits for c in neutral.children.values()} == {0.5}


def test_bot_delegates_with_its_budget() -> None:
    bot = IsmctsBot()
    assert (bot.iterations, bot.seconds) == (200, 0.5)
    spy = Spy(Nim())
    assert IsmctsBot(iterations=25, seconds=None).choose_from_state(
        spy, NimState(7), 0, LocalRng(1)) in {"take:1", "take:2", "take:3"}
    assert spy.calls["determinize"] == 25
