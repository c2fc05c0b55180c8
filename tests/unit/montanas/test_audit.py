"""Rule-by-rule audit against the rulebook: the divergences fixed and the readings chosen
where the book is unclear (each reading is recorded in RULES.md)."""

from partida.engine import Event, LocalRng
from partida.games.montanas import monsters as M

from .positions import CONTENT, SHIP, card_of, dice, monster, position


def plays(game, s):
    return [a.id for a in game.legal_actions(s, s.active) if a.id != "end"]


# ----- barricades: "Game Contents", "Game Preparation" (barricade tokens), "Cards" -------------
def test_barricade_card_needs_a_barricade_token_off_the_board(game):
    """Game Contents / Game Preparation: the box holds four barricade tokens and the barricade
    card rebuilds destroyed ones, so with all four standing the card has nowhere to go
    (partida's reading, RULES.md)."""
    c = card_of("barricade")
    s = position(hands=[[c]], barricades={1: "front", 2: "front", 3: "front", 4: "front"})
    assert plays(game, s) == []


def test_barricade_card_rebuilds_a_destroyed_token(game):
    """Game Preparation: once a monster has broken a barricade, the card may put it up again,
    anywhere a barricade may stand."""
    c = card_of("barricade")
    s = position(hands=[[c]], barricades={1: "front", 2: "front", 3: "front"}, destroyed=[4])
    assert set(plays(game, s)) == {f"play:{c}:front4", f"play:{c}:side4",
                                   f"play:{c}:front5", f"play:{c}:front6"}


def test_arsenal_can_fetch_a_barricade_only_with_a_token_free(game):
    """Cards, search the arsenal: the fetched card must be playable at once, and a barricade
    card is not while all four tokens stand."""
    a, b = card_of("arsenal"), card_of("barricade")
    s = position(hands=[[a]], barricades={1: "front", 2: "front", 3: "front", 4: "front"})
    s.discard = [b]
    assert plays(game, s) == []


def test_set_up_places_all_four_barricades(game):
    """Game Preparation: the cap is the number of tokens, so set-up still places all four."""
    s = game.new_state("standard", 1, {}, LocalRng(1))
    for _ in range(15):
        game.apply(s, 0, "deploy:1", LocalRng(0))
    for _ in range(4):
        game.apply(s, 0, game.legal_actions(s, 0)[-1].id, LocalRng(0))
    assert sum(b is not None for b in s.barricades) == 4


# ----- readings of unclear rules (RULES.md, "Decision") ---------------------------------------
def test_a_monster_that_just_came_in_is_in_the_yellow_band(game):
    """Game Preparation / Board: the access position is the first yellow square, so a monster
    that has just entered can be shot by a long-range card of its terrain."""
    s = position(pool=["trooper"])
    M.new_tiles(s, CONTENT, dice(5), [])
    c = card_of("range", "long", "ice")
    s.hands = [[c]]
    assert plays(game, s) == [f"play:{c}:m0"]


def test_arsenal_never_fetches_the_other_arsenal(game):
    """Cards, search the arsenal: fetching the second arsenal card would only fetch a third
    card from the same pile, so it is not offered."""
    a0, a1 = card_of("arsenal", nth=0), card_of("arsenal", nth=1)
    s = position(hands=[[a0]], monsters=[("fast", 1, 1)])
    s.discard = [a1]
    assert plays(game, s) == []


def test_inside_the_ship_sides_are_compared_by_their_total_pawns(game):
    """Boat: the greater concentration is the side of the monster with more pawns in all,
    not the single most crowded section."""
    s = position(monsters=[("super", 3, SHIP)], destroyed=[3],
                 explorers={1: [3], 5: [2], 6: [2]})
    M.monster_phase(s, CONTENT, dice(1, 1, 1), [])
    assert monster(s, 0).alley == 4 and s.destroyed[3]


def test_a_side_barricade_acts_on_monsters_that_step_into_its_section(game):
    """Boat, Cards: a lateral barricade built where a monster already stands does not hold
    that monster as it leaves; it stops the next one to step in."""
    s = position(monsters=[("super", 2, SHIP)], destroyed=[1, 2], barricades={2: "side"},
                 explorers={6: [1]})
    events: list[Event] = []
    M.monster_phase(s, CONTENT, dice(1, 1, 1), events)
    assert monster(s, 0).alley == 3 and s.barricades[1] == "side"
    assert [e.data["cause"] for e in events if e.kind == "monster_damaged"] == ["section"]


def test_immobilization_holds_only_the_dice_movement(game):
    """Special Tokens: a frozen band keeps its monsters still when the dice are rolled, but
    Advance and Lateral tokens revealed meanwhile still move them."""
    s = position(monsters=[("fast", 1, 1), ("fast", 3, 1)], pool=[])
    s.immobilized = ["long"]
    M.apply_special(s, "lateral_water_to_snow", CONTENT, dice(), [])
    M.apply_special(s, "advance_snow", CONTENT, dice(), [])
    assert [(m.alley, m.square) for m in s.monsters] == [(2, 1), (3, 3)]
