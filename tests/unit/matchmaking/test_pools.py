"""The pure match function: fairness, rating windows, scenarios, bots, determinism."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partida.matchmaking.pools import Policy, catalog_of, form_matches
from partida.matchmaking.tickets import CLAIMED
from tests.unit.matchmaking.factory import CATALOG, POLICY, ticket


def groups(proposals):
    return [p.ticket_ids for p in proposals]


def test_oldest_tickets_match_first_whatever_the_input_order():
    tickets = [ticket("c", created=2), ticket("a", created=0), ticket("b", created=1)]
    assert groups(form_matches(tickets, 3, POLICY)) == [("a", "b")]
    assert groups(form_matches(tickets[::-1], 3, POLICY)) == [("a", "b")]


def test_an_anchor_that_cannot_match_does_not_block_younger_tickets():
    tickets = [ticket("far", created=0, rating=2500), ticket("b", created=1),
               ticket("c", created=2)]
    assert groups(form_matches(tickets, 3, POLICY)) == [("b", "c")]


def test_an_older_ticket_still_waiting_joins_a_younger_anchors_table():
    # a's window (100) holds b but not c; b's holds both, so b's table takes a first
    tickets = [ticket("a", created=0, rating=1500, seats=3),
               ticket("b", created=1, rating=1600, seats=3),
               ticket("c", created=1.5, rating=1700, seats=3)]
    assert groups(form_matches(tickets, 2, POLICY)) == [("a", "b", "c")]


def test_each_window_widens_with_its_own_tickets_wait_and_both_must_hold_the_other():
    assert [POLICY.window(w) for w in (0, 4.9, 5, 30, 10_000)] == [100, 100, 150, 400, 1000]
    tickets = [ticket("a", created=0, rating=1500), ticket("b", created=1, rating=1800)]
    assert form_matches(tickets, 1, POLICY) == []
    assert form_matches(tickets, 19.9, POLICY) == []  # a's window 250
    assert form_matches(tickets, 20, POLICY) == []  # a's 300 holds b, b's (waited 19) 250 not
    assert groups(form_matches(tickets, 21, POLICY)) == [("a", "b")]  # both 300


def test_a_long_wait_does_not_draw_a_newcomer_beyond_the_newcomers_own_window():
    # a has waited 100 s (window 1000); b, older than c, is 900 from a, c 50
    tickets = [ticket("a", created=0, rating=1100), ticket("b", created=99, rating=2000),
               ticket("c", created=99.5, rating=1150)]
    assert groups(form_matches(tickets, 100, POLICY)) == [("a", "c")]
    # once b has waited 80 s its window is 900: a takes it, the older of the two
    assert groups(form_matches(tickets, 179, POLICY)) == [("a", "b")]


def test_within_the_window_the_oldest_partner_wins_not_the_closest_rating():
    tickets = [ticket("a", created=0, rating=1500), ticket("b", created=1, rating=1590),
               ticket("c", created=2, rating=1500)]
    assert groups(form_matches(tickets, 2, POLICY)) == [("a", "b")]


def test_any_scenario_joins_a_specific_one_and_takes_its_scenario():
    tickets = [ticket("a", created=0, scenario=""), ticket("b", created=1, scenario="forest")]
    [p] = form_matches(tickets, 1, POLICY)
    assert (p.ticket_ids, p.scenario_id) == (("a", "b"), "forest")


def test_only_any_scenario_plays_the_games_first_scenario_taking_that_many_seats():
    two = [ticket(f"t{i}", created=i, scenario="", seats=2) for i in range(2)]
    five = [ticket(f"f{i}", created=i, scenario="", seats=5) for i in range(5)]
    assert [p.scenario_id for p in form_matches(two + five, 9, POLICY)] == ["forest", "cave"]


def test_different_scenarios_never_share_a_table():
    tickets = [ticket("a", created=0, scenario="", seats=3),
               ticket("f1", created=1, scenario="forest", seats=3),
               ticket("c1", created=2, scenario="cave", seats=3),
               ticket("f2", created=3, scenario="forest", seats=3)]
    [p] = form_matches(tickets, 4, POLICY)
    assert (p.ticket_ids, p.scenario_id) == (("a", "f1", "f2"), "forest")
    assert form_matches([ticket("f", scenario="forest", seats=3),
                         ticket("c", created=1, scenario="cave", seats=3)], 99, POLICY) == []


def test_games_and_table_sizes_never_mix():
    tickets = [ticket("q2", seats=2), ticket("q3", created=1, seats=3),
               ticket("c2", created=2, game="chess", scenario="classic", seats=2)]
    assert form_matches(tickets, 3, POLICY) == []


@pytest.mark.parametrize("game,scenario,seats", [
    ("nope", "", 2),        # unknown game
    ("quest", "swamp", 2),  # unknown scenario
    ("chess", "classic", 3),  # too many seats for the scenario
    ("quest", "forest", 1),  # too few
    ("quest", "", 6),       # no scenario of the game takes 6
])
def test_invalid_tables_are_never_matched_even_with_bots(game, scenario, seats):
    tickets = [ticket(f"t{i}", created=i, game=game, scenario=scenario, seats=seats,
                      bots=True) for i in range(seats)]
    assert form_matches(tickets, 1000, POLICY) == []


def test_tickets_not_searching_are_ignored():
    tickets = [ticket("a"), ticket("b", created=1, status=CLAIMED)]
    assert form_matches(tickets, 2, POLICY) == []


def test_bots_complete_a_table_only_after_the_delay():
    alone = [ticket("a", created=0, seats=3, bots=True)]
    assert form_matches(alone, 9.9, POLICY) == []
    [p] = form_matches(alone, 10, POLICY)
    assert p.seats == [("p-a", None), (None, "heuristic"), (None, "heuristic")]
    assert p.bot_seats == 2


def test_bots_only_for_an_anchor_that_asked_for_them():
    assert form_matches([ticket("a", created=0, seats=3)], 10_000, POLICY) == []


def test_a_ticket_refusing_bots_is_not_put_at_a_bot_table():
    tickets = [ticket("a", created=0, seats=4, bots=True), ticket("b", created=1, seats=4),
               ticket("c", created=2, seats=4, bots=True)]
    [p] = form_matches(tickets, 20, POLICY)
    assert (p.ticket_ids, p.bot_seats) == (("a", "c"), 2)


def test_seats_follow_ticket_age():
    tickets = [ticket("y", created=5, seats=3), ticket("x", created=1, seats=3),
               ticket("z", created=7, seats=3)]
    [p] = form_matches(tickets, 8, POLICY)
    assert p.player_ids == ("p-x", "p-y", "p-z")


def test_proposals_and_their_request_ids_are_deterministic():
    tickets = [ticket(f"t{i}", created=i % 3, rating=1400 + 37 * i) for i in range(12)]
    first, again = form_matches(tickets, 4, POLICY), form_matches(tickets[::-1], 4, POLICY)
    assert first == again
    assert [p.request_id for p in first] == [p.request_id for p in again]
    assert len({p.request_id for p in first}) == len(first)


def test_catalog_of_reads_the_registered_games():
    import partida.engine

    catalog = catalog_of(g.info for g in partida.engine.all_games())
    assert catalog["montanas"][0].scenario_id == "standard"
    assert Policy(catalog).scenario_for("montanas", "", 2) == "standard"


tickets_strategy = st.lists(
    st.builds(
        lambda i, game, scenario, seats, rating, created, bots: ticket(
            f"t{i}", game=game, scenario=scenario, seats=seats, rating=rating,
            created=created, bots=bots),
        st.integers(0, 10**6), st.sampled_from(["quest", "chess", "nope"]),
        st.sampled_from(["", "forest", "cave", "classic", "swamp"]), st.integers(1, 6),
        st.floats(1000, 2200), st.floats(0, 60), st.booleans()),
    max_size=60, unique_by=lambda t: t.ticket_id)


@settings(max_examples=300)  # cheap examples: explore far more than the profile's default
@given(tickets_strategy, st.floats(0, 120))
def test_every_proposal_is_a_valid_full_table_and_no_ticket_is_used_twice(tickets, now):
    by_id = {t.ticket_id: t for t in tickets}
    proposals = form_matches(tickets, now, POLICY)
    used = [i for p in proposals for i in p.ticket_ids]
    assert len(used) == len(set(used))
    for p in proposals:
        members = [by_id[i] for i in p.ticket_ids]
        first = members[0]
        assert len(p.seats) == first.seats  # exactly the table size
        assert POLICY.scenario_for(p.game_id, p.scenario_id, first.seats) == p.scenario_id
        assert members == sorted(members, key=lambda t: (t.created, t.ticket_id))
        for t in members:
            assert (t.game_id, t.seats) == (p.game_id, first.seats)
            assert t.scenario_id in ("", p.scenario_id)
            assert t.fill_with_bots or not p.bot_seats
        assert any(could_anchor(m, members, now, p.bot_seats) for m in members)


@settings(max_examples=300)
@given(tickets_strategy, st.floats(0, 120))
def test_the_index_finds_what_walking_the_queue_finds(tickets, now):
    assert groups(form_matches(tickets, now, POLICY)) == reference(tickets, now)


def reference(tickets, now):
    """form_matches' rules written as the plain quadratic walk over each pool's queue."""
    queue = sorted((t for t in tickets if POLICY.scenario_for(t.game_id, t.scenario_id,
                                                               t.seats)),
                   key=lambda t: (t.game_id, t.seats, t.created, t.ticket_id))
    taken, out = set(), []
    for anchor in queue:
        if anchor.ticket_id in taken:
            continue
        waited, w = now - anchor.created, POLICY.window(now - anchor.created)
        may_bot = anchor.fill_with_bots and waited >= POLICY.bot_fill_after_seconds
        for bots_only in (False, True) if may_bot else (False,):
            table, scenario = [anchor], anchor.scenario_id
            for t in queue:
                if (len(table) < anchor.seats and t.ticket_id not in taken and t is not anchor
                        and (t.game_id, t.seats) == (anchor.game_id, anchor.seats)
                        and anchor.rating - w <= t.rating <= anchor.rating + w
                        and holds(t, anchor, now)
                        and (t.fill_with_bots or not bots_only)
                        and (not scenario or t.scenario_id in ("", scenario))):
                    table.append(t)
                    scenario = scenario or t.scenario_id
            if len(table) == anchor.seats or bots_only:
                taken.update(t.ticket_id for t in table)
                out.append(tuple(t.ticket_id for t in sorted(table, key=queue.index)))
                break
    return out


def holds(t, anchor, now):
    """`anchor` is within t's own window."""
    w = POLICY.window(now - t.created)
    return anchor.rating - w <= t.rating <= anchor.rating + w


def could_anchor(anchor, members, now, bots):
    """Every member is within the anchor's window and has the anchor within its own, and the
    anchor may call bots if any."""
    waited, w = now - anchor.created, POLICY.window(now - anchor.created)
    return (all(anchor.rating - w <= t.rating <= anchor.rating + w and holds(t, anchor, now)
                for t in members) and
            (not bots or waited >= POLICY.bot_fill_after_seconds))


def test_policy_is_a_plain_value():
    changed = dataclasses.replace(POLICY, window_base=10)
    assert changed.window(0) == 10 and changed.catalog is CATALOG
