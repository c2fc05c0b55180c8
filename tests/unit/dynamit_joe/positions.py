"""Building Dynamit Joe positions directly for rule tests."""

from __future__ import annotations

from partida.engine import LocalRng
from partida.games.dynamit_joe import GAME
from partida.games.dynamit_joe import resolve as R
from partida.games.dynamit_joe.state import JoeState


def make(scenario: str = "rivalry", seats: int = 2, seed: int = 0, **options: object) -> JoeState:
    """A new match with its starting zones of choice (9.6-9.8) set to the first zone offered
    (8.5's buying, when on, is left to the test)."""
    state = GAME.new_state(scenario, seats, options, LocalRng(seed))
    while state.prompt is not None and state.prompt["kind"] == "place":
        act(state, ids(state)[0])
    return state


def fresh(scenario: str, seats: int, seed: int = 0, **options: object) -> JoeState:
    """A new match with its set-up decisions still pending."""
    return GAME.new_state(scenario, seats, options, LocalRng(seed))


def turn(state: JoeState, name: str, ap: int = 4) -> JoeState:
    """Make `name` the active character with `ap` points; nothing pending, nobody in ambush
    and every joker put away (tests hand out the ones they need)."""
    state.prompt, state.queue, state.active, state.ap = None, [], name, ap
    state.pool = [n for n in state.order if n != name]
    for c in state.chars.values():
        c.update(ambush=False, dormant="", joker=None)
    return state


def put(state: JoeState, zone: str, *names: str) -> None:
    for n in names:
        state.chars[n]["zone"] = zone


def clear_zone_of_others(state: JoeState, keep: set[str], zone: str = "corral") -> None:
    """Park every other character out of the way (in a far zone)."""
    for n in state.order:
        if n not in keep:
            state.chars[n]["zone"] = zone


def stack(state: JoeState, pile: str, result: str, weapon: str, times: int = 1) -> None:
    """Put cards with `result` for `weapon` on top of a marksmen pile."""
    cards = R.marksmen(pile)
    wanted = [i for i in range(len(cards)) if cards[i][weapon] == result][:times]
    assert len(wanted) == times, f"no {times} {result} cards for {weapon} in {pile}"
    everything = state.piles[pile] + state.discards[pile]
    state.discards[pile] = []
    state.piles[pile] = wanted + [c for c in everything if c not in wanted]


def stack_panic(state: JoeState, effect: str) -> None:
    cards = R.panic_cards()
    card = cards.index(effect)
    everything = state.piles["panic"] + state.discards["panic"]
    state.discards["panic"] = []
    state.piles["panic"] = [card] + [c for c in everything if c != card]


def gun(state: JoeState, name: str) -> str:
    return str(state.chars[name]["guns"][0])


def act(state: JoeState, action: str, seed: int = 0) -> list:  # type: ignore[type-arg]
    seat = GAME.to_act(state)[0]
    return GAME.apply(state, seat, action, LocalRng(seed))


def ids(state: JoeState) -> list[str]:
    seat = GAME.to_act(state)[0]
    return [a.id for a in GAME.legal_actions(state, seat)]
