"""`make bench`: measurements, not tests. Prints figures; asserts nothing about speed.
(`--games-only` or `--platform-only` runs one half; `--runs N` repeats the platform half N
times, 3 by default, and prints medians.)

- Las Montañas bot strength: win rate of the heuristic and the random bot over 200 fixed
  seeds per player count (issue 2 asks the heuristic to win clearly more often).
- Dynamit Joe bot strength: over 200 fixed seeds of "The showdown" (three sides), how often seat 0
  wins when it is the heuristic (or the random) bot and the two other seats are random (issue 5).
- Bandas bot strength: over 200 fixed seeds of the street fight, the heuristic bot against the
  random one, taking each seat on every other seed (issue 8).
- Batallitas bot strength: over fixed seeds of scenario 2, "Shopping" (200, or
  `--batallitas-seeds N`), how often each side wins when it is played by the heuristic (or the
  random) bot against a random opponent (issue 6).
- ¿Pasarán? bot strength: heuristic self-play must decide every campaign (50 seeds, or
  `--pasaran-self N`), and the heuristic bot against the random one from either side over 200
  fixed seeds each (or `--pasaran-seeds N`); `--pasaran-only` runs just this (issue 7).
- Engine speed: actions applied per second and apply latency percentiles in random playouts,
  and the engine's whole part in serving one action (the rules service's CPU is mostly not it).
"""

from __future__ import annotations

import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from partida.engine import LocalRng, StreamRng, get
from partida.engine.bots import play_match
from partida.games.bandas.bots import BOTS as BANDAS_BOTS
from partida.games.batallitas.bots import BOTS as BATALLITAS_BOTS
from partida.games.dynamit_joe.bots import BOTS as JOE_BOTS
from partida.games.montanas.bots import BOTS
from partida.games.pasaran.bots import BOTS as PASARAN_BOTS
from partida.platform import jsonio

SEEDS = range(200)


def win_rates(players: int) -> dict[str, tuple[float, float]]:
    game = get("montanas")
    out = {}
    for name, bot in BOTS.items():
        wins = kills = 0
        for seed in SEEDS:
            state, record = play_match(game, "standard", [bot() for _ in range(players)], seed)
            wins += bool(record.outcome and record.outcome.winners)
            kills += state.killed
        out[name] = (wins / len(SEEDS), kills / len(SEEDS))
    return out


def joe_showdown(first: str) -> float:
    """Share of the 200 seeds in which seat 0, played by `first`, is among the winners."""
    game = get("dynamit_joe")
    won = 0
    for seed in SEEDS:
        bots = [JOE_BOTS[first](), JOE_BOTS["random"](), JOE_BOTS["random"]()]
        _, record = play_match(game, "showdown", bots, seed)
        won += bool(record.outcome and 0 in record.outcome.winners)
    return won / len(SEEDS)


def bandas_street_fight() -> tuple[int, int, int]:
    """Heuristic wins, random wins and draws over the 200 seeds; the heuristic bot sits in
    seat `seed % 2`."""
    game = get("bandas")
    won = lost = 0
    for seed in SEEDS:
        seat = seed % 2
        bots = [BANDAS_BOTS["random"](), BANDAS_BOTS["random"]()]
        bots[seat] = BANDAS_BOTS["heuristic"]()
        _, record = play_match(game, "street_fight", bots, seed)
        winners = record.outcome.winners if record.outcome else ()
        won += seat in winners
        lost += (1 - seat) in winners
    return won, lost, len(SEEDS) - won - lost


def batallitas_shopping(side: int, bot: str, seeds: int) -> float:
    """Share of the seeds in which `side` (0 papal, 1 rebel), played by `bot`, wins against
    the random bot."""
    game = get("batallitas")
    won = 0
    for seed in range(seeds):
        bots = [BATALLITAS_BOTS["random"](), BATALLITAS_BOTS["random"]()]
        bots[side] = BATALLITAS_BOTS[bot]()
        _, record = play_match(game, "shopping", bots, seed)
        won += bool(record.outcome and side in record.outcome.winners)
    return won / seeds


def pasaran_self_play(seed: int) -> tuple[int, ...]:
    """The winners of one campaign of heuristic self-play."""
    _, record = play_match(get("pasaran"), "campaign",
                           [PASARAN_BOTS["heuristic"]() for _ in "rn"], seed)
    return record.outcome.winners if record.outcome else ()


def pasaran_against_random(seed: int, seat: int) -> bool:
    """Whether the heuristic bot in `seat` (0 Republicans, 1 Nationalists) wins one campaign
    against the random bot."""
    bots = [PASARAN_BOTS["random"](), PASARAN_BOTS["random"]()]
    bots[seat] = PASARAN_BOTS["heuristic"]()
    _, record = play_match(get("pasaran"), "campaign", bots, seed)
    return bool(record.outcome and record.outcome.winners == (seat,))


def over_seeds(play, seeds: int, *args) -> list:
    """`play(seed, *args)` for every seed, spread over the machine's cores: a seed's campaign
    depends on nothing else, and a ¿Pasarán? campaign takes seconds."""
    with ProcessPoolExecutor() as pool:
        return list(pool.map(play, range(seeds), *(repeat(a, seeds) for a in args)))


def pasaran_bench() -> None:
    selfs, seeds = _number("--pasaran-self", 50), _number("--pasaran-seeds", len(SEEDS))
    t = time.perf_counter()
    winners = over_seeds(pasaran_self_play, selfs)
    decided = sum(len(w) == 1 for w in winners)
    republic = sum(w == (0,) for w in winners)
    print(f"¿Pasarán? — heuristic self-play: {decided} of {selfs} campaigns decided "
          f"(Republicans won {republic}) ({time.perf_counter() - t:.0f} s)")
    t = time.perf_counter()
    for seat, name in ((0, "Republicans"), (1, "Nationalists")):
        won = sum(over_seeds(pasaran_against_random, seeds, seat))
        print(f"  heuristic as the {name} beats random in {won} of {seeds} seeds")
    print(f"  ({time.perf_counter() - t:.0f} s)")
    print()


def _number(flag: str, default: int) -> int:
    """The number given after `flag` on the command line, or `default`."""
    return int(sys.argv[sys.argv.index(flag) + 1]) if flag in sys.argv else default


def engine_speed(game_id: str, matches: int = 100) -> tuple[float, float, float, float]:
    """Actions/s over random playouts, p50/p99 of one apply in microseconds, and the mean
    microseconds of the engine's whole part in serving one action as the rules service does:
    list the seat's actions, apply one, and take the state through JSON and back (as the
    session is written and read between actions)."""
    game = get(game_id)
    latencies: list[float] = []
    served = 0.0
    for seed in range(matches):
        scenario = game.info.scenarios[seed % len(game.info.scenarios)]
        seats = scenario.min_seats + seed % (scenario.max_seats - scenario.min_seats + 1)
        rng = StreamRng(seed.to_bytes(8, "big"), f"bench-{seed}")
        chooser = LocalRng(seed)
        state = game.new_state(scenario.id, seats, {}, rng)
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            t = time.perf_counter()
            actions = game.legal_actions(state, seat)
            listed = time.perf_counter() - t
            action = chooser.choice(actions).id
            t = time.perf_counter()
            game.apply(state, seat, action, rng)
            applied = time.perf_counter()
            state = game.state_from_dict(jsonio.loads(jsonio.dumps(state.to_dict())))
            latencies.append(applied - t)
            served += listed + time.perf_counter() - t
    latencies.sort()
    total = sum(latencies)
    pct = lambda q: latencies[int(q * (len(latencies) - 1))] * 1e6  # noqa: E731
    return len(latencies) / total, pct(0.50), pct(0.99), served / len(latencies) * 1e6


def main() -> int:
    if "--batallitas-only" in sys.argv:
        batallitas_bench()
        return 0
    if "--pasaran-only" in sys.argv:
        pasaran_bench()
        return 0
    if "--platform-only" not in sys.argv:
        games()
    if "--games-only" not in sys.argv:
        import stack_bench  # a sibling module: this file runs as a script
        stack_bench.main(_number("--runs", 3))
    return 0


def games() -> None:
    print("Las Montañas — bot win rates over 200 seeds (standard scenario)")
    print(f"{'players':>7}  {'heuristic win':>13}  {'random win':>10}  "
          f"{'heuristic kills':>15}  {'random kills':>12}")
    for players in (1, 2, 3, 4, 5):
        r = win_rates(players)
        print(f"{players:>7}  {r['heuristic'][0]:>13.1%}  {r['random'][0]:>10.1%}  "
              f"{r['heuristic'][1]:>15.1f}  {r['random'][1]:>12.1f}")
    print()
    print("Dynamit Joe — seat 0 win rate over 200 seeds of 'The showdown' (other seats random)")
    print(f"  heuristic {joe_showdown('heuristic'):.1%}, random {joe_showdown('random'):.1%}")
    print()
    t = time.perf_counter()
    won, lost, drawn = bandas_street_fight()
    print("Bandas — heuristic against random over 200 seeds of the street fight (seats alternate)")
    print(f"  heuristic wins {won}, random wins {lost}, draws {drawn} "
          f"({time.perf_counter() - t:.0f} s)")
    print()
    batallitas_bench()
    pasaran_bench()
    print("Engine — random playouts (validate + apply, one process)")
    for game in ("montanas", "dynamit_joe"):
        print_speed(game, 100)
    print()


def print_speed(game: str, matches: int) -> None:
    runs = [engine_speed(game, matches) for _ in range(3)]
    rate = statistics.median(r[0] for r in runs)
    p50 = statistics.median(r[1] for r in runs)
    p99 = statistics.median(r[2] for r in runs)
    served = statistics.median(r[3] for r in runs)
    print(f"  {game}: {rate:,.0f} actions/s, apply p50 {p50:.0f} µs, p99 {p99:.0f} µs; "
          f"a served action's engine work (list, apply, state through JSON) {served:.0f} µs "
          f"(median of 3 runs of {matches} matches)")


def batallitas_bench() -> None:
    seeds = _number("--batallitas-seeds", len(SEEDS))
    t = time.perf_counter()
    print(f"Batallitas — win rate of each side over {seeds} seeds of 'Shopping' "
          "against the random bot")
    for side, name in ((0, "papal"), (1, "rebel")):
        print(f"  {name}: heuristic {batallitas_shopping(side, 'heuristic', seeds):.1%}, "
              f"random {batallitas_shopping(side, 'random', seeds):.1%}")
    print(f"  ({time.perf_counter() - t:.0f} s)")
    print("Batallitas engine — random playouts of every scenario (validate + apply)")
    print_speed("batallitas", _number("--batallitas-matches", 20))  # ~1 000 actions a match
    print()


if __name__ == "__main__":
    sys.exit(main())
