"""Information-Set Monte Carlo Tree Search over the engine contract.

Single-observer ISMCTS (SO-ISMCTS) as in P. I. Cowling, E. J. Powley and D. Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE Transactions on Computational Intelligence
and AI in Games 4(2), 2012, pp. 120-143 (Algorithm 3, "SO-ISMCTS"). Every iteration:

1. **Determinize**: sample a state the searching seat cannot tell apart from the one it was
   given (`Game.determinize`), so the search never relies on hidden information.
2. **Select**: from the root, while every legal move of the current node has a child, pick
   the child maximising UCB1 with *availability* counts (section IV.B of the paper):
   ``mean reward + c * sqrt(ln(availability) / visits)``, where a child's availability
   counts the selections at its parent in which its move was legal. Moves are identified by
   the seat that makes them and their stable action id, so one tree serves every
   determinization: a child only competes in iterations where its move is legal.
3. **Expand**: add a child for one untried legal move, chosen at random.
4. **Simulate**: play to the end with uniformly random legal moves (or a given rollout
   policy); a rollout cut at `max_rollout_steps` is scored by `evaluate`.
5. **Backpropagate**: each node on the path is credited with the reward of the seat that
   chose the move leading to it: 1 for a winner, 0 for a loser, 0.5 each on a draw. In a
   cooperative game where everyone wins or loses together all seats get the same reward.

Decisions of other seats are nodes of the same tree, searched from their own reward but
with the *searching seat's* determinizations. This is the known weakness of single-observer
ISMCTS (section V of the paper): the opponents are modelled as if they could see what the
searching seat cannot, and as if they could not see their own hidden information any better
than the searching seat does. Simultaneous decisions (`to_act` naming several seats) are
taken one after the other, the searching seat first and then in `to_act` order, so later
seats are modelled as seeing the earlier choices.

All randomness of a search comes from one `LocalRng` seeded by a single draw from the rng
given to `choose_from_state`: determinizations, expansion, rollouts and the chance inside
`Game.apply` all use it, never the match stream. A search with an iteration budget (and no
time limit reached first) is therefore reproducible from the given rng's seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from partida.engine.game import Game
from partida.engine.rng import LocalRng, Rng
from partida.engine.types import Outcome, Seat

RolloutPolicy = Callable[[Any, Any, Seat, Rng], str]
"""`policy(game, state, seat, rng) -> action_id`: the move `seat` makes in a simulation."""

Evaluate = Callable[[Any, Any], Mapping[Seat, float]]
"""`evaluate(game, state) -> {seat: reward}` for a rollout cut short; missing seats get 0.5."""

DEFAULT_EXPLORATION = 0.7  # the UCB1 constant the paper uses for rewards in [0, 1]
DEFAULT_ITERATIONS = 200
DEFAULT_SECONDS = 0.5
DEFAULT_MAX_ROLLOUT_STEPS = 1000
NEUTRAL_REWARD = 0.5

Move = tuple[Seat, str]
"""A tree edge: the seat that decides and the stable id of the action it takes."""


class Node:
    """One node of the information-set tree, reached by `move` from `parent`.

    `total_reward` sums the rewards of `seat` (the seat that chose `move` at the parent) over
    the `visits` iterations through this node; `availability` counts the selections at the
    parent in which `move` was legal (1 at creation, as in the paper's reference code).
    """

    __slots__ = ("parent", "move", "children", "visits", "availability", "total_reward")

    def __init__(self, parent: Node | None = None, move: Move | None = None) -> None:
        self.parent = parent
        self.move = move
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.availability = 1
        self.total_reward = 0.0

    @property
    def seat(self) -> Seat | None:
        """The seat that acted to reach this node (None at the root)."""
        return None if self.move is None else self.move[0]

    @property
    def action_id(self) -> str | None:
        return None if self.move is None else self.move[1]

    def untried(self, seat: Seat, legal: list[str]) -> list[str]:
        """Legal action ids of `seat` with no child yet, in the game's order."""
        return [a for a in legal if (seat, a) not in self.children]

    def add_child(self, move: Move) -> Node:
        child = Node(self, move)
        self.children[move] = child
        return child

    def select(self, seat: Seat, legal: list[str], exploration: float) -> Node:
        """UCB1 over the children available now; marks each of them available once more.

        Ties go to the smallest action id, so a search is reproducible.
        """
        available = [self.children[(seat, a)] for a in sorted(legal)]
        best = max(available, key=lambda child: child.ucb(exploration))
        for child in available:
            child.availability += 1
        return best

    def ucb(self, exploration: float) -> float:
        if self.visits == 0:
            return math.inf
        mean = self.total_reward / self.visits
        return mean + exploration * math.sqrt(math.log(self.availability) / self.visits)

    def backpropagate(self, rewards: Callable[[Seat], float]) -> None:
        """Credit this node and its ancestors with the reward of the seat that chose them."""
        node: Node | None = self
        while node is not None:
            node.visits += 1
            if node.seat is not None:
                node.total_reward += rewards(node.seat)
            node = node.parent

    def most_visited(self, seat: Seat) -> Node:
        """`seat`'s child with the most visits; ties go to the smallest action id."""
        own = [c for c in self.children.values() if c.seat == seat]
        if not own:
            raise ValueError(f"the search found no move for seat {seat}")
        return min(own, key=lambda c: (-c.visits, c.action_id))


def _random_policy(game: Game[Any], state: Any, seat: Seat, rng: Rng) -> str:
    return rng.choice(game.legal_actions(state, seat)).id


def _neutral_evaluation(game: Game[Any], state: Any) -> Mapping[Seat, float]:
    return {}


def outcome_rewards(outcome: Outcome) -> Callable[[Seat], float]:
    """Reward per seat of a finished match: 1 a winner, 0 a loser, 0.5 everyone on a draw."""
    if outcome.draw:
        return lambda seat: NEUTRAL_REWARD
    winners = frozenset(outcome.winners)
    return lambda seat: 1.0 if seat in winners else 0.0


def _mover(game: Game[Any], state: Any, observer: Seat) -> Seat | None:
    """The seat deciding next, or None when the match is over. Of several seats deciding
    at once the observer goes first, so the root holds its own moves."""
    if game.outcome(state) is not None:
        return None
    seats = game.to_act(state)
    if not seats:
        return None
    return observer if observer in seats else seats[0]


def _legal_ids(game: Game[Any], state: Any, seat: Seat) -> list[str]:
    return [a.id for a in game.legal_actions(state, seat)]


class Ismcts:
    """SO-ISMCTS (Cowling, Powley & Whitehouse 2012) for any game of the engine contract.

    `exploration` is the UCB1 constant; `rollout_policy(game, state, seat, rng)` picks the
    simulated moves (default: uniformly random legal actions); rollouts longer than
    `max_rollout_steps` stop and are scored by `evaluate(game, state)` (default: 0.5 each).
    """

    def __init__(
        self,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_policy: RolloutPolicy | None = None,
        max_rollout_steps: int = DEFAULT_MAX_ROLLOUT_STEPS,
        evaluate: Evaluate | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if max_rollout_steps < 0:
            raise ValueError("max_rollout_steps must not be negative")
        self.exploration = exploration
        self.rollout_policy = rollout_policy or _random_policy
        self.max_rollout_steps = max_rollout_steps
        self.evaluate = evaluate or _neutral_evaluation
        self.clock = clock

    def choose_from_state(
        self,
        game: Game[Any],
        state: Any,
        seat: Seat,
        rng: Rng,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> str:
        """The action `seat` should take in `state` (any state in its information set).

        The budget is `iterations` and/or `seconds`, whichever runs out first, and at least
        one iteration (200 iterations when neither is given). A lone legal action is
        returned without searching.
        """
        legal = _legal_ids(game, state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no decision to take")
        if len(legal) == 1:
            return legal[0]
        root = self.search(game, state, seat, rng, iterations, seconds)
        return root.most_visited(seat).action_id  # type: ignore[return-value]

    def search(
        self,
        game: Game[Any],
        state: Any,
        seat: Seat,
        rng: Rng,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> Node:
        """Run the search and return the root; `root.visits` is the number of iterations."""
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        deadline = None if seconds is None else self.clock() + seconds
        search_rng = LocalRng(rng.below(1 << 63, "ismcts_seed"))
        root = Node()
        while True:
            self._iterate(game, root, state, seat, search_rng)
            if iterations is not None and root.visits >= iterations:
                break
            if deadline is not None and self.clock() >= deadline:
                break
        return root

    def _iterate(self, game: Game[Any], root: Node, state: Any, seat: Seat, rng: Rng) -> None:
        """One determinize-select-expand-simulate-backpropagate pass."""
        world = game.determinize(state.clone(), seat, rng)
        node = self._select_and_expand(game, root, world, seat, rng)
        node.backpropagate(self._simulate(game, world, seat, rng))

    def _select_and_expand(self, game: Game[Any], node: Node, world: Any,
                           observer: Seat, rng: Rng) -> Node:
        """Descend while every legal move has a child, then add one child; mutates `world`."""
        while (mover := _mover(game, world, observer)) is not None:
            legal = _legal_ids(game, world, mover)
            untried = node.untried(mover, legal)
            if untried:
                action = rng.choice(untried)
                game.apply(world, mover, action, rng)
                return node.add_child((mover, action))
            node = node.select(mover, legal, self.exploration)
            game.apply(world, mover, node.action_id, rng)  # type: ignore[arg-type]
        return node

    def _simulate(self, game: Game[Any], world: Any, observer: Seat,
                  rng: Rng) -> Callable[[Seat], float]:
        """Play `world` out with the rollout policy; the rewards per seat at the end."""
        steps = 0
        while (mover := _mover(game, world, observer)) is not None:
            if steps >= self.max_rollout_steps:
                return self._evaluation(game, world)
            game.apply(world, mover, self.rollout_policy(game, world, mover, rng), rng)
            steps += 1
        outcome = game.outcome(world)
        return self._evaluation(game, world) if outcome is None else outcome_rewards(outcome)

    def _evaluation(self, game: Game[Any], world: Any) -> Callable[[Seat], float]:
        """The rewards `evaluate` gives an unfinished rollout (0.5 for seats it leaves out)."""
        scores = dict(self.evaluate(game, world))
        return lambda seat: scores.get(seat, NEUTRAL_REWARD)


class StateBot(Protocol):
    """A bot that searches: it is given a state of its seat's information set (the server
    hands bots a determinized state), not only the view and the legal actions."""

    def choose_from_state(self, game: Game[Any], state: Any, seat: Seat, rng: Rng) -> str: ...


class IsmctsBot:
    """A `StateBot` running `Ismcts` with a fixed budget (default 200 iterations or 0.5 s,
    whichever comes first)."""

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS,
                 seconds: float | None = DEFAULT_SECONDS, search: Ismcts | None = None) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.search = search or Ismcts()

    def choose_from_state(self, game: Game[Any], state: Any, seat: Seat, rng: Rng) -> str:
        return self.search.choose_from_state(game, state, seat, rng,
                                             iterations=self.iterations, seconds=self.seconds)
