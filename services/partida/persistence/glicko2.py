"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), as pure functions.

Each finished match is one rating period for the players in it, rated against the ratings
everyone had before the match.

How a match becomes games:

- Competitive matches: every pair of seats held by different players is one game: the
  winner scores 1, the loser 0, and two seats with the same result (both won, both lost, a
  draw) score 0.5 each. Except team-mates: two seats dealt the same side that end with the
  same result play no game against each other (a shared win is not a draw between them).
  Dynamit Joe may move a seat to another side during the match (8.1); seats whose results
  differ were opponents by the end, whatever side they were dealt.
- Cooperative matches, where the table wins or loses together: every seat won, or nobody
  won and it is not a draw, and all seats play the same side (or the game has no sides).
  Team-mates are not opponents, so each player plays one game against a virtual opponent
  standing for the scenario, with a fixed rating of 1500 and deviation 100: a win scores 1,
  a loss 0. A fixed, fairly certain opponent makes wins and losses move ratings by
  comparable amounts without the scenario's difficulty having to be estimated.
- Bots have no rating and are never rated. As opponents they stand in as that same fixed
  1500/100 player, so that beating (or losing to) bots still moves a person's rating; in a
  cooperative match they are team-mates and play no part.
- A player holding several seats plays the games of each of them, but not against
  themselves, and their match counts once; in a cooperative match their seats share the
  one game against the scenario.
- Bounds (a decision, as Lichess's Glicko-2 does): the volatility is kept at most
  MAX_VOLATILITY and the deviation at most a newcomer's. A match is several games with one
  result (each opponent of a team, each bot), far from the independent games of a rating
  period the paper assumes, so every result is a surprise; unbounded, the volatility fed on
  itself until ratings ran to minus tens of thousands and the update divided by zero.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from partida.persistence.records import Outcome, Seat

SCALE = 173.7178  # Glicko-2 units per Glicko point
TAU = 0.5  # constrains volatility changes; Glickman suggests 0.3 to 1.2
EPSILON = 1e-6  # convergence of the volatility iteration
MAX_VOLATILITY = 0.1  # see "Bounds" above


@dataclass(frozen=True)
class Skill:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


FIXED_OPPONENT = Skill(1500.0, 100.0, 0.06)  # bots, and the scenario in cooperative games


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "<=" rather than the paper's "<": with f(C) == 0 exactly, "<" would never converge.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Skill, games: Iterable[tuple[Skill, float]], tau: float = TAU) -> Skill:
    """The player's skill after one rating period of `games` (opponent, score in [0, 1])."""
    mu, phi = (player.rating - 1500.0) / SCALE, player.deviation / SCALE
    terms = []
    for opponent, score in games:
        g_j = _g(opponent.deviation / SCALE)
        e_j = _expected(mu, (opponent.rating - 1500.0) / SCALE, g_j)
        terms.append((g_j, e_j, score))
    max_phi = Skill().deviation / SCALE
    if not terms:  # no games: only the uncertainty grows
        phi_star = min(max_phi, math.sqrt(phi * phi + player.volatility ** 2))
        return Skill(player.rating, phi_star * SCALE, player.volatility)
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    sigma = min(MAX_VOLATILITY, _volatility(player.volatility, phi, v, v * improvement, tau))
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = min(max_phi, 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v))
    new_mu = mu + new_phi * new_phi * improvement
    return Skill(new_mu * SCALE + 1500.0, new_phi * SCALE, sigma)


def is_cooperative(seats: Sequence[Seat], outcome: Outcome) -> bool:
    everyone = {s.seat for s in seats}
    together = set(outcome.winners) == everyone or (not outcome.winners and not outcome.draw)
    return bool(seats) and together and len({s.side for s in seats}) <= 1


def _team_mates(seat: Seat, other: Seat, outcome: Outcome) -> bool:
    same_result = (seat.seat in outcome.winners) == (other.seat in outcome.winners)
    return bool(seat.side) and seat.side == other.side and same_result


def _score(seat: int, other: int, outcome: Outcome) -> float:
    if outcome.draw:
        return 0.5
    won, other_won = seat in outcome.winners, other in outcome.winners
    return 0.5 if won == other_won else float(won)


def rate_match(seats: Sequence[Seat], outcome: Outcome,
               before: Mapping[str, Skill]) -> dict[str, Skill]:
    """The skill after the match of every player `rated_players` names, from `before`
    (missing: a newcomer)."""
    return {pid: update(before.get(pid, Skill()), g)
            for pid, g in _games(seats, outcome, before).items() if g}


def rated_players(seats: Sequence[Seat], outcome: Outcome) -> list[str]:
    """The seated players a match rates, in seat order: those who played a game in it. A
    player who held every seat of a competitive match played nobody: the match is no rating
    period of theirs."""
    return [pid for pid, g in _games(seats, outcome, {}).items() if g]


def _games(seats: Sequence[Seat], outcome: Outcome, before: Mapping[str, Skill]
           ) -> dict[str, list[tuple[Skill, float]]]:
    """Each seated player's games of the match: (opponent, score) pairs."""
    games: dict[str, list[tuple[Skill, float]]] = {s.player_id: [] for s in seats if s.player_id}
    cooperative = is_cooperative(seats, outcome)
    for seat in seats:
        if not seat.player_id:
            continue
        if cooperative:  # one game per player, however many seats they hold
            games[seat.player_id] = [(FIXED_OPPONENT, float(seat.seat in outcome.winners))]
            continue
        for other in seats:
            if other.seat == seat.seat or other.player_id == seat.player_id or (
                    _team_mates(seat, other, outcome)):
                continue
            opponent = before.get(other.player_id, Skill()) if other.player_id else FIXED_OPPONENT
            games[seat.player_id].append((opponent, _score(seat.seat, other.seat, outcome)))
    return games
