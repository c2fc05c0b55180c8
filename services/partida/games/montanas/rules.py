"""Las Montañas de la Locura as an engine: set-up, the turn sequence, decisions and views.

Cites the rulebook by heading: set-up in "Game Preparation", the turn in "Playing Order",
cards in "Cards", harm in "Damage Points", new tiles in "Monsters and Special Tokens Come into
Play", the ship in "Boat", specials in "Special Tokens", monsters in "Monster Tokens".
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from partida.engine import (
    Action,
    BadSetup,
    Event,
    Game,
    GameInfo,
    IllegalAction,
    Json,
    Outcome,
    Rng,
    Scenario,
    Seat,
)
from partida.games.montanas import cards as C
from partida.games.montanas import monsters as M
from partida.games.montanas.content import Card, Content, load
from partida.games.montanas.state import (
    BARRICADE,
    DEPLOY,
    DISCARD,
    EXCHANGE,
    OVER,
    PLAY,
    REDEPLOY,
    REPLY,
    Monster,
    MontanasState,
)

INFO = GameInfo(
    id="montanas",
    title="Fanhunter: Las Montañas de la Locura",
    scenarios=(
        Scenario("standard", "Defend the Gigamesh", 1, 5, ("defenders",),
                 "The full game with four barricades placed at set-up."),
        Scenario("no_barricades", "Defend the Gigamesh, no barricades", 1, 5, ("defenders",),
                 "The harder variant of 'Game Preparation': no barricades at set-up."),
    ),
    hidden_information=True,
    options={"first_seat": "seat that plays first (default: drawn at random)"},
    rules_revision=2,  # the editions are listed at the end of RULES.md
)


class Montanas(Game[MontanasState]):
    info = INFO

    def __init__(self, content: Content | None = None) -> None:
        self.content = content or load()

    # ----- set-up ("Game Preparation") -------------------------------------------------
    def new_state(self, scenario: str, seats: int, options: Mapping[str, Any],
                  rng: Rng) -> MontanasState:
        spec = _scenario(scenario)
        if type(seats) is not int or not spec.min_seats <= seats <= spec.max_seats:
            raise BadSetup(f"montanas takes {spec.min_seats}-{spec.max_seats} players, not {seats}")
        unknown = set(options) - set(INFO.options)
        if unknown:
            raise BadSetup(f"unknown options: {sorted(unknown)}")
        c = self.content
        first = options.get("first_seat")
        if first is not None and (type(first) is not int or not 0 <= first < seats):
            raise BadSetup(f"first_seat must be a seat number from 0 to {seats - 1}")
        teams: list[list[str]] = [[] for _ in range(seats)]
        for i, team in enumerate(c.setup.teams):  # all five teams play, dealt round the table
            teams[i % seats].append(team)
        deck = [card.id for card in c.cards]
        rng.shuffle(deck)
        state = MontanasState(
            seats=seats, scenario=scenario, teams=teams,
            explorers=[[0] * seats for _ in range(c.board.ship_sections)],
            destroyed=[False] * c.board.ship_sections,
            barricades=[None] * c.board.ship_sections,
            monsters=[], pool=[], deck=deck, discard=[],
            hands=[[] for _ in range(seats)], active=0, phase=DEPLOY,
        )
        size = c.setup.solo_hand_limit if seats == 1 else c.setup.hand_limit
        for seat in range(seats):
            state.hands[seat] = [state.deck.pop(0) for _ in range(size)]
        events: list[Event] = []
        tiles = Counter({m.kind: m.count for m in c.tiles.monsters})
        for kind, n in c.tiles.starters.items():
            for _ in range(n):
                tiles[kind] -= 1
                M.place_monster(state, kind, c, rng, events)
        state.pool = sorted(tiles.elements()) + [s.kind for s in c.tiles.specials]
        rng.shuffle(state.pool)
        state.active = first if first is not None else rng.below(seats, "first_seat")
        per_seat = [len(t) * c.setup.explorers_per_team for t in teams]
        state.pending = {"seat": state.active, "left": per_seat}
        return state

    # ----- who decides -----------------------------------------------------------------
    def to_act(self, state: MontanasState) -> tuple[Seat, ...]:
        if state.phase == OVER:
            return ()
        if state.phase in (DEPLOY, BARRICADE):
            return (state.pending["seat"],)
        if state.phase == REPLY:
            return (state.pending["partner"],)
        return (state.active,)

    def legal_actions(self, state: MontanasState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return _LEGAL[state.phase](self, state)

    def default_action(self, state: MontanasState, seat: Seat) -> str:
        phase = state.phase
        if phase == DEPLOY:
            counts = [sum(s) for s in state.explorers]
            return f"deploy:{counts.index(min(counts)) + 1}"
        if phase == BARRICADE:
            facing, sec = C.barricade_spots(state)[0]
            return f"barricade:{facing}{sec}"
        return {DISCARD: "discard:keep", EXCHANGE: "exchange:done", REPLY: "reply:refuse",
                PLAY: "end", REDEPLOY: "move:done"}[phase]

    # ----- legal actions per phase -------------------------------------------------------
    def _deploy_actions(self, state: MontanasState) -> list[Action]:
        return [Action(f"deploy:{s}", f"place an explorer in ship section {s}")
                for s in range(1, len(state.destroyed) + 1)]

    def _barricade_actions(self, state: MontanasState) -> list[Action]:
        return [Action(f"barricade:{f}{s}", f"place a {f} barricade on section {s}")
                for f, s in C.barricade_spots(state) if f == "front"]

    def _discard_actions(self, state: MontanasState) -> list[Action]:
        hand = sorted(state.hands[state.active])
        out = [Action("discard:keep", "keep the whole hand")]
        for i, a in enumerate(hand):
            out.append(Action(f"discard:{a}", f"discard {self._card(a).name} and redraw"))
            if self.content.setup.max_discard >= 2:
                out.extend(Action(f"discard:{a},{b}", f"discard {self._card(a).name} and "
                                  f"{self._card(b).name} and redraw") for b in hand[i + 1:])
        return out

    def _exchange_actions(self, state: MontanasState) -> list[Action]:
        out = [Action("exchange:done", "finish asking for help")]
        def name(cid: int | None) -> str:  # a card the proposal's kind names (never None)
            return self._card(cid).name if cid is not None else ""

        for kind, mine, partner, theirs in _proposals(state, self.content):
            if kind == "give":
                words = f"give {name(mine)} to seat {partner}"
            elif kind == "ask":
                words = f"ask seat {partner} for {name(theirs)}"
            else:
                words = f"swap {name(mine)} for seat {partner}'s {name(theirs)}"
            out.append(Action(_proposal_id(kind, mine, partner, theirs), words))
        return out

    def _reply_actions(self, state: MontanasState) -> list[Action]:
        return [Action("reply:accept", "accept the exchange"),
                Action("reply:refuse", "refuse the exchange")]

    def _play_actions(self, state: MontanasState) -> list[Action]:
        out = [Action("end", "end card play: the monsters move")]
        hand = _one_per_type(state.hands[state.active], self.content)
        for cid in hand:
            card = self._card(cid)
            if card.kind == "arsenal":
                continue
            for target, words in C.targets(state, self.content, card):
                out.append(Action(_join("play", cid, target), f"{card.name}: {words}"))
        arsenal = [cid for cid in hand if self._card(cid).kind == "arsenal"]
        if arsenal:
            fetchable = _one_per_type(
                [d for d in state.discard if self._card(d).kind != "arsenal"], self.content)
            for fid in fetchable:
                fetched = self._card(fid)
                for target, words in C.targets(state, self.content, fetched):
                    out.append(Action(_join("arsenal", arsenal[0], fid, target),
                                      f"Search the arsenal for {fetched.name}: {words}"))
        return out

    def _redeploy_actions(self, state: MontanasState) -> list[Action]:
        out = [Action("move:done", "stop moving explorers")]
        if state.pending.get("moves_left", 0) > 0:
            out.extend(Action(f"move:{seat}:{a}:{b}",
                              f"move one of seat {seat}'s explorers from section {a} to {b}")
                       for seat, a, b in C.redeploy_moves(state))
        return out

    # ----- applying ----------------------------------------------------------------------
    def _apply(self, state: MontanasState, seat: Seat, action_id: str,
               rng: Rng) -> list[Event]:
        events: list[Event] = [Event("action", {"seat": seat, "action": action_id})]
        verb, _, rest = action_id.partition(":")
        handler = getattr(self, f"_do_{verb}")
        handler(state, rest, rng, events)
        return events

    def _do_deploy(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        seat = state.pending["seat"]
        state.explorers[int(rest) - 1][seat] += 1
        ev.append(Event("explorer_placed", {"seat": seat, "section": int(rest)}))
        left = state.pending["left"]
        left[seat] -= 1
        if any(left):
            while not left[state.pending["seat"]]:
                state.pending["seat"] = (state.pending["seat"] + 1) % state.seats
            return
        if state.scenario == "no_barricades":
            self._start_turn(state, state.active, rng, ev)
        else:
            state.phase = BARRICADE
            state.pending = {"seat": state.active, "left": self.content.setup.barricades}

    def _do_barricade(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        facing, section = rest[:-1], int(rest[-1])
        state.barricades[section - 1] = facing
        ev.append(Event("barricade_built", {"section": section, "facing": facing}))
        state.pending["left"] -= 1
        state.pending["seat"] = (state.pending["seat"] + 1) % state.seats
        if state.pending["left"] == 0:
            self._start_turn(state, state.active, rng, ev)

    def _do_discard(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        if rest != "keep":
            chosen = [int(x) for x in rest.split(",")]
            hand = state.hands[state.active]
            for cid in chosen:
                hand.remove(cid)
                state.discard.append(cid)
            ev.append(Event("cards_discarded", {"seat": state.active, "cards": chosen}))
            self._draw(state, state.active, len(chosen), rng, ev)
        if len(state.seats_with_pawns()) > 1:
            state.phase, state.pending = EXCHANGE, {"moved": 0}
            if not _proposals(state, self.content):
                state.phase = PLAY
        else:
            state.phase, state.pending = PLAY, {}

    def _do_exchange(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        state.phase, state.pending = PLAY, {}

    def _do_give(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        mine, partner = (int(x) for x in rest.split(":"))
        self._propose(state, "give", mine, partner, None, ev)

    def _do_ask(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        theirs, partner = (int(x) for x in rest.split(":"))
        self._propose(state, "ask", None, partner, theirs, ev)

    def _do_swap(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        mine, partner, theirs = (int(x) for x in rest.split(":"))
        self._propose(state, "swap", mine, partner, theirs, ev)

    def _propose(self, state: MontanasState, kind: str, mine: int | None, partner: int,
                 theirs: int | None, ev: list[Event]) -> None:
        state.phase = REPLY
        state.pending.update(partner=partner, proposal=[kind, mine, theirs])
        ev.append(Event("exchange_proposed", {"seat": state.active, "partner": partner,
                                              "kind": kind, "give": mine, "take": theirs}))

    def _do_reply(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        kind, mine, theirs = state.pending.pop("proposal")
        partner = state.pending.pop("partner")
        state.pending["moved"] += 2 if kind == "swap" else 1  # a refusal uses the allowance too
        if rest == "accept":
            if mine is not None:
                state.hands[state.active].remove(mine)
                state.hands[partner].append(mine)
            if theirs is not None:
                state.hands[partner].remove(theirs)
                state.hands[state.active].append(theirs)
        ev.append(Event("exchange_answered", {"partner": partner, "accepted": rest == "accept"}))
        state.phase = EXCHANGE if _proposals(state, self.content) else PLAY

    def _do_play(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        cid_text, _, target = rest.partition(":")
        cid = int(cid_text)
        state.hands[state.active].remove(cid)
        self._resolve_card(state, cid, target, rng, ev)

    def _do_arsenal(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        aid_text, fid_text, target = (rest.split(":", 2) + [""])[:3]
        aid, fid = int(aid_text), int(fid_text)
        state.hands[state.active].remove(aid)
        state.discard.append(aid)
        state.discard.remove(fid)
        ev.append(Event("card_played", {"seat": state.active, "card": aid, "fetched": fid}))
        self._resolve_card(state, fid, target, rng, ev)

    def _resolve_card(self, state: MontanasState, cid: int, target: str, rng: Rng,
                      ev: list[Event]) -> None:
        card = self._card(cid)
        ev.append(Event("card_played", {"seat": state.active, "card": cid, "target": target}))
        state.discard.append(cid)
        C.play(state, self.content, card, target, rng, ev)
        if card.kind == "redeploy":
            state.phase = REDEPLOY
        self._check_end(state, ev)

    def _do_move(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        if rest == "done":
            state.phase, state.pending = PLAY, {}
            return
        seat, a, b = (int(x) for x in rest.split(":"))
        state.explorers[a - 1][seat] -= 1
        state.explorers[b - 1][seat] += 1
        ev.append(Event("explorer_moved", {"seat": seat, "from": a, "to": b}))
        state.pending["moves_left"] -= 1
        if state.pending["moves_left"] == 0:
            state.phase, state.pending = PLAY, {}

    def _do_end(self, state: MontanasState, rest: str, rng: Rng, ev: list[Event]) -> None:
        """Steps 5 and 6 of "Playing Order", then the next player's turn."""
        M.monster_phase(state, self.content, rng, ev)
        if self._check_end(state, ev):
            return
        M.new_tiles(state, self.content, rng, ev)
        if self._check_end(state, ev):
            return
        alive = state.seats_with_pawns()
        nxt = next(s for k in range(1, state.seats + 1)
                   if (s := (state.active + k) % state.seats) in alive)
        state.turn += 1
        self._start_turn(state, nxt, rng, ev)

    def resign(self, state: MontanasState, seat: Seat) -> list[Event]:
        """A defender who gives up abandons the shared defence: everyone loses (partida's
        decision, RULES.md: the book has no resignation in a cooperative game)."""
        if state.phase == OVER:
            raise IllegalAction("the match is over")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalAction(f"no seat {seat!r}")
        state.result = {"won": False, "reason": f"seat {seat} gave up the defence"}
        state.phase, state.pending = OVER, {}
        return [Event("match_over", dict(state.result))]

    # ----- turn helpers -------------------------------------------------------------------
    def _start_turn(self, state: MontanasState, seat: Seat, rng: Rng, ev: list[Event]) -> None:
        """Step 1: refill the hand to the limit."""
        state.active, state.phase, state.pending = seat, DISCARD, {}
        ev.append(Event("turn_started", {"seat": seat, "turn": state.turn}))
        self._draw(state, seat, hand_limit(state, self.content) - len(state.hands[seat]), rng, ev)

    def _draw(self, state: MontanasState, seat: Seat, n: int, rng: Rng,
              ev: list[Event]) -> None:
        for _ in range(max(0, n)):
            if not state.deck:
                if not state.discard:
                    return
                state.deck, state.discard = state.discard, []
                rng.shuffle(state.deck)
                ev.append(Event("deck_reshuffled", {"cards": len(state.deck)}))
            card = state.deck.pop(0)
            state.hands[seat].append(card)
            ev.append(Event("card_drawn", {"seat": seat, "card": card}))

    def _check_end(self, state: MontanasState, ev: list[Event]) -> bool:
        """Loss is checked before victory: a ship lost with its last attacker is still lost."""
        lost = M.is_lost(state)
        if lost:
            state.result = {"won": False, "reason": lost}
        elif state.killed == self.content.monster_total:
            state.result = {"won": True,
                            "reason": f"all {self.content.monster_total} monsters are dead"}
        else:
            return False
        state.phase, state.pending = OVER, {}
        ev.append(Event("match_over", dict(state.result)))
        return True

    def _card(self, cid: int) -> Card:
        return self.content.cards[cid]

    # ----- knowledge ----------------------------------------------------------------------
    def view(self, state: MontanasState, seat: Seat | None) -> dict[str, Json]:
        """Everything but the order of the deck and of the face-down tiles ("hands are open")."""
        c = self.content
        return {
            "game": INFO.id, "scenario": state.scenario, "turn": state.turn,
            "phase": state.phase, "active": state.active, "to_act": list(self.to_act(state)),
            "teams": [list(t) for t in state.teams],
            "alleys": [{"alley": a.number, "terrain": a.terrain} for a in c.board.alleys],
            "bands": [{"band": b.id, "colour": b.colour, "squares": b.squares}
                      for b in c.board.bands],
            "hands": [[self._card_view(cid) for cid in sorted(h)] for h in state.hands],
            "hand_limit": hand_limit(state, c),
            "discard": [self._card_view(cid) for cid in state.discard],
            "deck_count": len(state.deck),
            "pool_count": len(state.pool),
            "pool_contents": dict(sorted(Counter(state.pool).items())),
            "monsters": [self._monster_view(m) for m in state.monsters],
            "ship": [{"section": i + 1, "destroyed": state.destroyed[i],
                      "barricade": state.barricades[i], "explorers": list(state.explorers[i])}
                     for i in range(len(state.destroyed))],
            "immobilized": list(state.immobilized),
            "killed": state.killed, "monsters_total": c.monster_total,
            "alley_squares": c.alley_squares,
            "pending": copy.deepcopy(state.pending),
            "result": copy.deepcopy(state.result),
        }

    def _card_view(self, cid: int) -> dict[str, Json]:
        card = self._card(cid)
        return {"id": cid, "kind": card.kind, "band": card.band, "terrain": card.terrain,
                "name": card.name}

    def _monster_view(self, m: Monster) -> dict[str, Json]:
        return {"id": m.id, "kind": m.kind, "life": m.life, "alley": m.alley, "square": m.square,
                "zone": C.zone(m, self.content)}

    def determinize(self, state: MontanasState, seat: Seat | None, rng: Rng) -> MontanasState:
        out = state.clone()
        rng.shuffle(out.deck)
        rng.shuffle(out.pool)
        return out

    def outcome(self, state: MontanasState) -> Outcome | None:
        if state.result is None:
            return None
        winners = tuple(range(state.seats)) if state.result["won"] else ()
        return Outcome(winners, state.result["reason"],
                       scores={s: float(state.killed) for s in range(state.seats)})

    def seat_side(self, state: MontanasState, seat: Seat) -> str:
        return "defenders"  # every seat defends the ship together

    def state_from_dict(self, data: Mapping[str, Json]) -> MontanasState:
        return MontanasState.from_dict(data)


_LEGAL = {
    DEPLOY: Montanas._deploy_actions, BARRICADE: Montanas._barricade_actions,
    DISCARD: Montanas._discard_actions, EXCHANGE: Montanas._exchange_actions,
    REPLY: Montanas._reply_actions, PLAY: Montanas._play_actions,
    REDEPLOY: Montanas._redeploy_actions,
}


def hand_limit(state: MontanasState, content: Content) -> int:
    """Five cards when one player is (or is left) alone, else four ("Playing Order", step 1)."""
    alone = state.seats == 1 or len(state.seats_with_pawns()) == 1
    return content.setup.solo_hand_limit if alone else content.setup.hand_limit


def _scenario(scenario: str) -> Scenario:
    try:
        return INFO.scenario(scenario)
    except KeyError:
        raise BadSetup(f"unknown montanas scenario {scenario!r}") from None


def _join(*parts: Any) -> str:
    return ":".join(str(p) for p in parts if p != "")


def _one_per_type(card_ids: list[int], content: Content) -> list[int]:
    """The lowest id of each card type: identical cards offer identical plays."""
    seen: dict[tuple[str, str | None, str | None], int] = {}
    for cid in sorted(card_ids):
        seen.setdefault(content.cards[cid].type_key, cid)
    return sorted(seen.values())


def _proposal_id(kind: str, mine: int | None, partner: int, theirs: int | None) -> str:
    if kind == "give":
        return f"give:{mine}:{partner}"
    if kind == "ask":
        return f"ask:{theirs}:{partner}"
    return f"swap:{mine}:{partner}:{theirs}"


def _proposals(state: MontanasState, content: Content
               ) -> list[tuple[str, int | None, int, int | None]]:
    """Exchanges still open this turn ("Playing Order", step 3): at most two cards change
    hands in all, and no hand goes over the limit."""
    room = content.setup.max_exchange - state.pending.get("moved", 0)
    if room <= 0:
        return []
    limit = hand_limit(state, content)
    me = state.active
    mine = state.hands[me]
    out: list[tuple[str, int | None, int, int | None]] = []
    for partner in state.seats_with_pawns():
        if partner == me:
            continue
        theirs = state.hands[partner]
        if len(theirs) < limit:
            out.extend(("give", c, partner, None) for c in sorted(mine))
        if len(mine) < limit:
            out.extend(("ask", None, partner, c) for c in sorted(theirs))
        if room >= 2:
            out.extend(("swap", a, partner, b) for a in sorted(mine) for b in sorted(theirs))
    return out
