"""The card procedure (7.2) and the cards' effects (appendix; reconstructed cards in
content/cards.json). Cards are played in the owner's rail step (see RULES.md)."""

from __future__ import annotations

from partida.engine import Event, Rng
from partida.games.pasaran import board as B
from partida.games.pasaran import chits as H
from partida.games.pasaran.content import Content
from partida.games.pasaran.state import PasaranState

LEFT_OUT: tuple[str, ...] = ()
"""Appendix cards whose effects are NOT IMPLEMENTED: kept out of the deck (RULES.md)."""

SEAT_SIDE = ("rep", "nat")


def _starred(state: PasaranState, card: str, content: Content) -> list[str]:
    return sorted(u for u, r in state.units.items()
                  if r["status"] == "locked" and content.unit(u).star == card)


def obsolete(content: Content, state: PasaranState, cid: str) -> bool:
    """7.2: a card whose action can no longer happen, or has happened another way."""
    card = content.card(cid)
    effect = card.effect or {}
    if card.needs_chits and not state.chits:
        return True                                  # combat chits (9.4) are not in play
    if card.latest is not None and state.turn > card.latest:
        return True
    if effect.get("pool") and not _starred(state, cid, content):
        return True
    if "choose_hq" in effect:
        return not any(state.units[h]["status"] == "locked" for h in effect["choose_hq"])
    if "hq" in effect:
        return not _hq_choices(state, effect)
    if "cancels" in effect:
        return effect["cancels"] in state.discard
    if "revolt" in effect:
        return state.control.get(str(effect["revolt"])) != "rep" or not _militia(content, state)
    return False


def _militia(content: Content, state: PasaranState) -> list[str]:
    return [u for u in state.on_map("rep") if content.unit(u).tag == "militia"]


def _hq_choices(state: PasaranState, effect: dict) -> list[str]:
    out = []
    if state.units[effect["hq"]]["status"] == "locked":
        out.append(effect["hq"])
    out += [f"remove:{h}" for h in effect["or_remove"]
            if state.units[h]["status"] in ("map", "queue")]
    return out


def _conditions_met(content: Content, state: PasaranState, cid: str, side: str) -> bool:
    card = content.card(cid)
    if card.earliest is not None and state.turn < card.earliest:
        return False
    if card.requires_permanent is not None and card.requires_permanent not in state.permanent:
        return False
    if card.requires_french_border and not any(
            state.control.get(a) == side for a in content.area("france").adjacent):
        return False
    if card.requires_city is not None and not (
            state.control.get(card.requires_city) == side
            and state.city_control.get(card.requires_city) == side):
        return False
    return not obsolete(content, state, cid)


def plays(content: Content, state: PasaranState, side: str, window: str = "rail"
          ) -> list[tuple[str, str]]:
    """(action id, description) of every card the side may play now: held since an earlier
    turn (7.2) with its conditions met; in its own rail step, or (REP Disorder) while the enemy
    attacks and the side reacts."""
    out = []
    for held in state.hands[side]:
        cid = held["card"]
        if held["turn"] >= state.turn or not _conditions_met(content, state, cid, side):
            continue
        effect = content.card(cid).effect or {}
        name = content.card(cid).name
        if _window(content, cid) != window:
            continue
        if "offensive" in effect and side != state.active:
            continue                                 # Offensive: only for an attack
        if "cancel_attack" in effect:
            out += [(f"play:{cid}:{p}", f"Play {name}: the attack on {p} is called off")
                    for p in state.attacks if _returning(state, p, B.ENEMY[side])]
        elif "choose_hq" in effect:
            out += [(f"play:{cid}:{h}", f"Play {name}: {content.unit(h).name} arrives next turn")
                    for h in effect["choose_hq"] if state.units[h]["status"] == "locked"]
        elif "hq" in effect:
            out += [(f"play:{cid}:{c}", f"Play {name}: {c}") for c in _hq_choices(state, effect)]
        else:
            out.append((f"play:{cid}", f"Play {name}"))
    return out


def _window(content: Content, cid: str) -> str:
    """When a card is played: during an enemy attack (REP Disorder), before a combat's first
    round (chit cards), else in the owner's rail step."""
    card = content.card(cid)
    if "cancel_attack" in (card.effect or {}):
        return "react"
    return "chits" if card.needs_chits else "rail"


def play(content: Content, state: PasaranState, side: str, action: str,
         events: list[Event], rng: Rng | None = None) -> None:
    parts = action.split(":")
    cid = parts[1]
    card = content.card(cid)
    effect = card.effect or {}
    state.hands[side] = [h for h in state.hands[side] if h["card"] != cid]
    events.append(Event("card_played", {"side": side, "card": cid, "choice": parts[2:]}))
    if effect.get("pool"):
        for uid in _starred(state, cid, content):
            state.units[uid]["status"] = "pool"
    if "bp" in effect:
        state.bp[side] += int(effect["bp"])
    if "turn_flag" in effect:
        state.flags.append(str(effect["turn_flag"]))
    if "invasion" in effect:
        state.sea_left += int(effect["invasion"])
    if "airlift" in effect:
        state.airlift_left += int(effect["airlift"])
    if "choose_hq" in effect or "hq" in effect:
        choice = parts[-1]
        if parts[2] == "remove":
            state.units[choice].update(status="removed", at=None)
        else:
            state.units[choice].update(status="queue", arrive=state.turn + 1)
    if "cancel_attack" in effect:
        for uid in _returning(state, parts[2], B.ENEMY[side]):
            B.move_to(state, uid, state.units[uid].pop("from"))
        if not B.units_at(state, parts[2], B.ENEMY[side]):
            state.attacks.remove(parts[2])
    if "cancel_chits" in effect:
        H.void(state, B.ENEMY[side])
    if "offensive" in effect:
        assert rng is not None
        H.draw(state, side, int(effect["offensive"]), rng, events)
    if "revolt" in effect:
        _revolt(content, state, str(effect["revolt"]), int(effect["militia"]), events)
    if "cancels" in effect and effect["cancels"] in state.permanent:
        state.permanent.remove(str(effect["cancels"]))
        state.discard.append(str(effect["cancels"]))
    {"discard": state.discard, "bottom": state.deck, "permanent": state.permanent}[
        card.after].append(cid)


def cancel_window(content: Content, state: PasaranState, side: str) -> bool:
    """Whether the side is asked during the enemy's attacks because it might hold a card that
    calls one off. Decided on public facts only (the card not seen played, a hand not empty),
    so that being asked tells the enemy nothing about the hand."""
    if not state.hands[side] or not any(_returning(state, p, B.ENEMY[side])
                                        for p in state.attacks):
        return False
    for card in content.cards.cards:
        effect = card.effect or {}
        if ("cancel_attack" in effect and side in held_side(content, card.id)
                and card.id not in state.discard
                and (card.latest is None or state.turn <= card.latest)):
            return True
    return False


def _returning(state: PasaranState, place: str, side: str) -> list[str]:
    """The side's units that attacked `place` this step, each with the place it came from."""
    return [u for u in B.units_at(state, place, side) if "from" in state.units[u]]


def _revolt(content: Content, state: PasaranState, area: str, count: int,
            events: list[Event]) -> None:
    """Barcelona Revolt: the nearest Republican militia (by land areas, then id) go to the
    area."""
    dist = B.distances(content, area, len(content.map.areas),
                       lambda a: content.area(a).kind == "land")
    far = len(content.map.areas)
    movers = sorted((u for u in _militia(content, state)
                     if B.area_of(state.units[u]["at"]) != area),
                    key=lambda u: (dist.get(B.area_of(state.units[u]["at"]), far), u))[:count]
    for uid in movers:
        B.move_to(state, uid, area)
        events.append(Event("revolt", {"unit": uid, "to": area}))


def lift_revolts(content: Content, state: PasaranState, events: list[Event]) -> None:
    """Barcelona Revolt ends in the turn that enough Republican regulars stand in the area:
    ground units only (the French note's regulars are a kind of ground unit), HQs aside."""
    for cid in list(state.permanent):
        effect = content.card(cid).effect or {}
        area = effect.get("revolt")
        if not isinstance(area, str):
            continue
        regulars = [u for u in state.on_map("rep") if B.area_of(state.units[u]["at"]) == area
                    and content.unit(u).tag in ("regular", "int")
                    and state.units[u]["kind"] not in ("hq", "air")]
        if len(regulars) >= int(effect["regulars"]):
            state.permanent.remove(cid)
            state.discard.append(cid)
            events.append(Event("revolt_over", {"card": cid, "area": area}))


# ----- buying (7.2) ------------------------------------------------------------------------
def draw_offer(content: Content, state: PasaranState, side: str, events: list[Event]) -> None:
    """Take two cards from the top: the enemy's go straight under the deck, obsolete ones are
    discarded and replaced. What is left waits for keep/decline, unless none is affordable."""
    offer: list[str] = []
    taken = 0
    while taken < 2 and state.deck:
        cid = state.deck.pop(0)
        card = content.card(cid)
        if obsolete(content, state, cid):
            state.discard.append(cid)
            events.append(Event("card_discarded", {"card": cid, "why": "obsolete"}))
            continue
        taken += 1
        if card.side not in (side, "both"):
            state.deck.append(cid)
            events.append(Event("card_returned", {"side": side, "card": cid},
                                frozenset({SEAT_SIDE.index(side)}), {"side": side}))
            continue
        offer.append(cid)
    if offer:
        events.append(Event("cards_drawn", {"side": side, "cards": offer},
                            frozenset({SEAT_SIDE.index(side)}),
                            {"side": side, "count": len(offer)}))
    if any(content.card(c).cost <= state.bp[side] for c in offer):
        state.offer = {"side": side, "cards": offer}
    else:
        state.deck.extend(offer)


def keep(content: Content, state: PasaranState, cid: str | None, events: list[Event]) -> None:
    """Pay for one card of the offer and hold it (playable from next turn), or send both
    under the deck."""
    assert state.offer is not None
    side = state.offer["side"]
    for c in state.offer["cards"]:
        if c != cid:
            state.deck.append(c)
    if cid is not None:
        cost = content.card(cid).cost
        state.bp[side] -= cost
        state.hands[side].append({"card": cid, "turn": state.turn})
        events.append(Event("card_kept", {"side": side, "card": cid, "cost": cost},
                            frozenset({SEAT_SIDE.index(side)}), {"side": side, "cost": cost}))
    else:
        events.append(Event("cards_declined", {"side": side}))
    state.offer = None


def offer_actions(content: Content, state: PasaranState) -> list[tuple[str, str]]:
    assert state.offer is not None
    side = state.offer["side"]
    out = [(f"keep:{c}", f"Keep {content.card(c).name} for {content.card(c).cost} BP")
           for c in state.offer["cards"] if content.card(c).cost <= state.bp[side]]
    return [("decline", "Return the cards under the deck"), *out]


def held_side(content: Content, cid: str) -> tuple[str, ...]:
    side = content.card(cid).side
    return B.SIDES if side == "both" else (side,)
