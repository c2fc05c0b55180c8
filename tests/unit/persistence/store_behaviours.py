"""What PersistenceStore must do on any database. Subclasses provide an `engine` fixture with
the schema migrated: TestStoreOnSqlite here, TestStoreOnPostgres in tests/integration."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command

from partida.persistence import db, models, records
from partida.persistence.hashchain import verify_chain
from partida.persistence.store import PersistenceStore
from partida.platform.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
)
from tests.unit.persistence.support import (
    COMMITMENT,
    SEED,
    U64_MAX,
    a_match,
    action,
    finished,
    race,
    setup_record,
    started,
)


def _log(store: PersistenceStore, match_id: str = "m1") -> list[records.LogRecord]:
    return store.get_match_log(match_id)[1]


class WithStore:
    @pytest.fixture
    def store(self, engine: sa.Engine) -> PersistenceStore:
        return PersistenceStore(engine)


class PlayerAndMatchBehaviours:
    def test_create_player_is_idempotent_per_integrator(self, store):
        ana = store.create_player("acme", "u-1", "Ana")
        assert store.create_player("acme", "u-1", "Renamed") == ana  # unchanged
        assert store.get_player(ana.player_id) == ana
        other = store.create_player("globex", "u-1", "Ana")
        assert other.player_id != ana.player_id and other.integrator == "globex"

    def test_get_player_of_unknown_id_is_not_found(self, store):
        with pytest.raises(NotFound):
            store.get_player("nobody")

    def test_record_match_round_trips_every_field(self, store):
        created = datetime(2030, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
        match = a_match(players=("p1",), bots=1, options_json='{"expansion":true}',
                        decision_timeout_seconds=60, spectator_delay_actions=2,
                        bot_after_missed_decisions=3, created_at=created)
        stored = store.record_match(match)
        assert stored == match  # version 0, active, no seed or outcome
        assert store.get_match("m1") == match

    def test_record_match_is_idempotent_but_refuses_other_content(self, store):
        first = store.record_match(a_match())
        assert store.record_match(a_match()) == first
        with pytest.raises(AlreadyExists):
            store.record_match(a_match(players=("p1", "p3")))

    def test_a_retried_record_after_a_seat_changed_is_the_same_record(self, store):
        """A RecordMatch retried after its lost answer carries the seats as first recorded;
        seats UpdateSeat changed since (a seat handed to a bot) do not make it another
        record. It was ALREADY_EXISTS, compared with the current seats."""
        match = a_match(players=("p1", "p2"))
        store.record_match(match)
        store.update_seat("m1", records.Seat(1, "p2", "bot", "heuristic"))
        store.update_seat("m1", records.Seat(1, "p2", "human", "heuristic"))
        current = store.get_match("m1")
        assert store.record_match(match) == current
        assert store.start_match(match, [setup_record()]) is True  # its set-up still lands
        assert store.get_match("m1").seats == current.seats  # the changes stand
        # Other seats are still another record, the current ones too (not what was recorded).
        for seats in (a_match(players=("p1", "p3")).seats, current.seats,
                      (match.seats[0], replace(match.seats[1], bot="heuristic"))):
            with pytest.raises(AlreadyExists):
                store.record_match(replace(match, seats=seats))

    def test_handing_a_seat_over_keeps_its_side(self, store):
        """UpdateSeat changes who controls a seat. The rules service, which hands seats to
        bots, knows no sides and leaves the side out: the side recorded stays (it was
        blanked, and the side decides whether a match is rated as cooperative)."""
        store.record_match(replace(a_match(), seats=(records.Seat(0, "p1", side="north"),
                                                     records.Seat(1, "p2", side="south"))))
        store.update_seat("m1", records.Seat(1, "p2", "bot", "heuristic"))
        assert store.get_match("m1").seats[1] == records.Seat(1, "p2", "bot", "heuristic",
                                                              side="south")
        store.update_seat("m1", records.Seat(1, "p2", "human", "heuristic", "south"))
        assert store.get_match("m1").seats[1].side == "south"

    def test_refused_seat_updates_change_nothing(self, store):
        """A seat's player and side are the match's set-up: another one is refused, as is a
        seat the match lacks or a finished match, and the record stays as it was."""
        store.record_match(replace(a_match(), seats=(records.Seat(0, "p1", side="north"),
                                                     records.Seat(1, "p2", side="south"))))
        before = store.get_match("m1")
        for seat in (records.Seat(1, "p3", "bot", "heuristic"),  # another player
                     records.Seat(1, "p2", "bot", "heuristic", "north"),  # another side
                     records.Seat(2, "", "bot", "heuristic")):  # no such seat
            with pytest.raises(InvalidArgument):
                store.update_seat("m1", seat)
            assert store.get_match("m1") == before
        started(store, a_match("m2"), actions=1)
        store.finish_match("m2", records.Outcome((0,)), SEED)
        ended = store.get_match("m2")
        with pytest.raises(FailedPrecondition):
            store.update_seat("m2", records.Seat(1, "p2", "bot", "heuristic"))
        assert store.get_match("m2") == ended
        with pytest.raises(NotFound):
            store.update_seat("nope", records.Seat(0, "p1", "bot", "heuristic"))

    def test_concurrent_record_match_records_once(self, store):
        outcomes = race(6, lambda _: store.record_match(a_match()))
        assert all(isinstance(o, records.Match) for o in outcomes), outcomes

    def test_get_match_of_unknown_id_is_not_found(self, store):
        with pytest.raises(NotFound):
            store.get_match("nope")


class LogBehaviours:
    def test_append_log_chains_every_record(self, store):
        store.record_match(a_match())
        last, digest = store.append_log("m1", [setup_record(), action(1), action(2, seat=1)])
        log = _log(store)
        assert [r.sequence for r in log] == [0, 1, 2] and (last, digest) == (2, log[-1].hash)
        assert log[0].prev_hash == bytes(32) and log[1].prev_hash == log[0].hash
        assert log[1].random_values == (U64_MAX, 1) and log[1].random_positions == (2, 3)
        assert verify_chain(log) == (True, None)
        assert store.get_match("m1").version == 2

    def test_append_log_continues_the_chain_across_calls(self, store):
        started(store, a_match(), actions=1)
        for sequence in (2, 3):
            store.append_log("m1", [action(sequence)])
        assert verify_chain(_log(store)) == (True, None)

    def test_a_taken_sequence_is_already_exists_and_writes_nothing(self, store):
        started(store, a_match(), actions=2)
        with pytest.raises(AlreadyExists):
            store.append_log("m1", [action(2, request_id="new"), action(3)])
        assert [r.sequence for r in _log(store)] == [0, 1, 2]

    def test_a_taken_request_id_is_already_exists_and_writes_nothing(self, store):
        started(store, a_match(), actions=2)
        with pytest.raises(AlreadyExists, match="request id"):
            store.append_log("m1", [action(3, request_id="fresh"), action(4, request_id="req-1")])
        assert _log(store)[-1].sequence == 2
        # Records without a request id (server-made) never collide.
        store.append_log("m1", [action(3, request_id=""), action(4, request_id="")])

    def test_a_gap_is_refused(self, store):
        started(store, a_match(), actions=1)
        with pytest.raises(FailedPrecondition, match="next sequence is 2"):
            store.append_log("m1", [action(3)])

    @pytest.mark.parametrize("new", [
        [], [action(0)], [setup_record(), action(2)], [setup_record(), action(1, seat=2)]])
    def test_malformed_records_are_refused(self, store, new):
        store.record_match(a_match())
        with pytest.raises(InvalidArgument):
            store.append_log("m1", new)
        assert _log(store) == []

    def test_append_to_an_unknown_or_finished_match_is_refused(self, store):
        with pytest.raises(NotFound):
            store.append_log("nope", [setup_record()])
        finished(store, a_match())
        with pytest.raises(FailedPrecondition):
            store.append_log("m1", [action(2)])

    def test_an_append_race_has_exactly_one_winner(self, store):
        started(store, a_match(), actions=1)
        outcomes = race(8, lambda i: store.append_log(
            "m1", [action(2, request_id=f"w{i}"), action(3, request_id=f"x{i}")]))
        winners = [o for o in outcomes if not isinstance(o, Exception)]
        assert len(winners) == 1, outcomes
        assert all(isinstance(o, AlreadyExists) for o in outcomes if o not in winners)
        log = _log(store)
        assert [r.sequence for r in log] == [0, 1, 2, 3]
        assert log[2].request_id[1:] == log[3].request_id[1:]  # both of the winner's
        assert verify_chain(log) == (True, None)

    def test_a_replica_with_a_remembered_head_behind_the_database_refuses_and_recovers(
            self, store, engine):
        # Two persistence replicas on one database: each remembers the heads it wrote.
        other = PersistenceStore(engine)
        started(store, a_match(), actions=1)
        other.append_log("m1", [action(2)])  # `store` still remembers head 1
        with pytest.raises(AlreadyExists):
            store.append_log("m1", [action(2, request_id="late")])
        assert store.append_log("m1", [action(3)])[0] == 3  # read the real head afresh
        # Now `other` remembers 2 where the log has 3: 4 is no gap, the head moved on.
        assert other.append_log("m1", [action(4)])[0] == 4
        assert other.append_log("m1", [action(5)])[0] == 5
        log = _log(store)
        assert [r.request_id for r in log[1:]] == ["req-1", "req-2", "req-3", "req-4", "req-5"]
        assert verify_chain(log) == (True, None)

    def test_a_match_recorded_here_but_started_by_another_replica_still_chains(
            self, store, engine):
        # `store` records the match and so takes its log to be empty; `other` appends first.
        other = PersistenceStore(engine)
        store.record_match(a_match())
        other.append_log("m1", [setup_record()])
        with pytest.raises(AlreadyExists):  # a set-up record again: refused, nothing written
            store.append_log("m1", [setup_record()])
        assert store.append_log("m1", [action(1)])[0] == 1
        log = _log(store)
        assert [r.sequence for r in log] == [0, 1] and verify_chain(log) == (True, None)

    # A match and its set-up in one transaction (RecordMatch with a set-up).
    def test_start_match_records_the_match_and_its_set_up_together(self, store):
        assert store.start_match(a_match(), [setup_record()]) is True
        stored = store.get_match("m1")
        assert (stored.seats, stored.dice_commitment, stored.version) == (
            a_match().seats, COMMITMENT, 0)
        assert [r.sequence for r in _log(store)] == [0]
        assert store.append_log("m1", [action(1)])[0] == 1  # the chain goes on from it
        assert verify_chain(_log(store)) == (True, None)

    def test_start_match_again_keeps_the_first_set_up_and_says_so(self, store):
        store.start_match(a_match(), [setup_record()])
        other = replace(setup_record(), events_json='[{"kind":"other"}]')
        assert store.start_match(a_match(), [other]) is False
        assert _log(store)[0].events_json == setup_record().events_json
        with pytest.raises(AlreadyExists):  # other content is refused as by record_match
            store.start_match(a_match(players=("p1", "p3")), [setup_record()])

    def test_start_match_of_a_match_recorded_without_its_log_appends_the_set_up(self, store):
        store.record_match(a_match())
        assert store.start_match(a_match(), [setup_record()]) is True
        assert [r.sequence for r in _log(store)] == [0]

    @pytest.mark.parametrize("setup", [[], [action(1)], [replace(setup_record(), seat=5)]])
    def test_a_refused_set_up_records_no_match_either(self, store, setup):
        with pytest.raises((InvalidArgument, FailedPrecondition)):
            store.start_match(a_match(), setup)
        with pytest.raises(NotFound):
            store.get_match("m1")

    def test_concurrent_start_match_writes_one_set_up(self, store):
        outcomes = race(6, lambda _: store.start_match(a_match(), [setup_record()]))
        assert sorted(outcomes, key=str) == [False] * 5 + [True], outcomes
        log = _log(store)
        assert [r.sequence for r in log] == [0] and verify_chain(log) == (True, None)

    def test_starts_together_are_written_by_one_statement_per_table(self, store, engine):
        statements: list[str] = []
        sa.event.listen(engine, "before_cursor_execute",
                        lambda conn, cursor, sql, *rest: statements.append(sql.split("(")[0]))
        outcomes = store.start_matches([(a_match(match_id=m), [setup_record()])
                                        for m in ("m1", "m2", "m3")])
        assert outcomes == [True, True, True]
        inserts = [s.split()[2] for s in statements if s.startswith("INSERT")]
        assert sorted(inserts) == ["log_records", "match_seats", "matches"], statements
        for m in ("m1", "m2", "m3"):  # each log chains on from its own genesis
            assert store.append_log(m, [action(1)])[0] == 1
            assert verify_chain(_log(store, m)) == (True, None)

    # Each start of a batch is answered as start_match alone would answer it.
    def test_starts_batched_together_each_get_their_own_answer(self, store):
        store.start_match(a_match(match_id="old"), [setup_record()])
        outcomes = store.start_matches([
            (a_match(match_id="m1"), [setup_record()]),
            (a_match(match_id="old"), [setup_record()]),                   # a repeat
            (a_match(match_id="old", players=("p1", "p9")), [setup_record()]),  # other content
            (a_match(match_id="m2"), []),                                   # no set-up
            (a_match(match_id="m3"), [setup_record()]),
            (a_match(match_id="m3"), [setup_record()]),                     # twice in one batch
        ])
        assert outcomes[0] is True and outcomes[1] is False
        assert isinstance(outcomes[2], AlreadyExists)
        assert isinstance(outcomes[3], InvalidArgument)
        assert outcomes[4:] == [True, False]
        with pytest.raises(NotFound):
            store.get_match("m2")
        assert store.get_match("old").seats == a_match().seats
        for m in ("m1", "m3", "old"):
            assert [r.sequence for r in _log(store, m)] == [0]

    def test_two_replicas_starting_the_same_matches_at_once_write_each_set_up_once(
            self, engine):
        # Two persistence replicas (each its own group commit) asked to start the same
        # matches, in opposite orders, at the same moment: neither deadlocks, and each
        # match's set-up is written by exactly one of them.
        replicas = [PersistenceStore(engine), PersistenceStore(engine)]
        for round_ in range(5):
            ids = [f"r{round_}-m{i}" for i in range(6)]
            starts = [(a_match(match_id=m), [setup_record()]) for m in ids]
            orders = [starts, starts[::-1]]
            outcomes = race(2, lambda i, orders=orders: replicas[i].start_matches(orders[i]))
            first, second = outcomes[0], outcomes[1][::-1]
            assert all(not isinstance(o, Exception) for o in first + second), outcomes
            assert [a + b for a, b in zip(first, second, strict=True)] == [1] * len(ids)
            for m in ids:
                assert [r.sequence for r in _log(replicas[0], m)] == [0]

    def test_a_set_up_refused_in_a_batch_leaves_the_other_starts_written(self, store):
        # Seat 5 of a two-seat match: refused only once the match row is in, which undoes the
        # batch; each start then runs alone.
        outcomes = store.start_matches([
            (a_match(match_id="m1"), [setup_record()]),
            (a_match(match_id="m2"), [replace(setup_record(), seat=5)]),
            (a_match(match_id="m3"), [setup_record()])])
        assert outcomes[0] is True and outcomes[2] is True
        assert isinstance(outcomes[1], InvalidArgument)
        with pytest.raises(NotFound):
            store.get_match("m2")
        assert [len(_log(store, m)) for m in ("m1", "m3")] == [1, 1]

    def test_appends_batched_together_each_get_their_own_answer(self, store):
        for m in ("m1", "m2", "m3"):
            started(store, a_match(match_id=m), actions=1)
        store.append_log("m3", [action(2, request_id="taken")])
        attempts = {"m1": [action(2)], "m2": [action(5)], "m3": [action(3, request_id="taken")],
                    "gone": [setup_record()]}
        outcomes = race(len(attempts), lambda i: store.append_log(*list(attempts.items())[i]))
        assert outcomes[0] == (2, _log(store, "m1")[-1].hash)
        assert isinstance(outcomes[1], FailedPrecondition)  # a gap in m2
        assert isinstance(outcomes[2], AlreadyExists)       # m3's request id is reused
        assert isinstance(outcomes[3], NotFound)
        assert [len(_log(store, m)) for m in ("m1", "m2", "m3")] == [3, 2, 3]
        assert all(verify_chain(_log(store, m)) == (True, None) for m in ("m1", "m2", "m3"))

    def test_find_log_record_by_request_id(self, store):
        started(store, a_match(), actions=2)
        found = store.find_log_record("m1", "req-2")
        assert found is not None and found == _log(store)[2]
        assert store.find_log_record("m1", "unknown") is None
        assert store.find_log_record("m1", "") is None
        with pytest.raises(NotFound):
            store.find_log_record("nope", "req-2")

    # Each edit of a stored row, made with SQL, must break the chain at that row.
    @pytest.mark.parametrize("column, value", [
        ("kind", "resign"), ("seat", 1), ("action_id", "play:other"), ("request_id", "forged"),
        ("random_positions", [4, 9]), ("random_values", [str(U64_MAX - 1), "2"]),
        ("events_json", '[{"kind":"nothing"}]'), ("prev_hash", b"\x01" * 32),
        ("hash", b"\x02" * 32), ("sequence", 99), ("match_id", "m2"),
    ])
    def test_tampering_with_any_hashed_column_is_detected(self, store, engine, column, value):
        store.record_match(a_match("m2"))
        started(store, a_match(), actions=3)
        assert verify_chain(_log(store)) == (True, None)
        with engine.begin() as conn:
            conn.execute(sa.update(models.LogRecord)
                         .where(models.LogRecord.match_id == "m1",
                                models.LogRecord.sequence == 2).values({column: value}))
        assert verify_chain(_log(store)) == (False, 2)


class FinishBehaviours:
    def test_finish_match_stores_outcome_results_and_ratings(self, store, engine):
        ratings = finished(store, a_match(players=("p1", "p2"), bots=1), winners=(0,),
                           reason="p1 escaped", scores={0: 10.0, 1: 4.5})
        match = store.get_match("m1")
        assert match.status == "finished" and match.dice_seed == SEED
        assert match.outcome == records.Outcome((0,), False, "p1 escaped", {0: 10.0, 1: 4.5})
        assert match.finished_at is not None
        with engine.connect() as conn:
            results = conn.execute(sa.select(models.Result.seat, models.Result.player_id,
                                             models.Result.result, models.Result.score)
                                   .order_by(models.Result.seat)).all()
        assert [tuple(r) for r in results] == [
            (0, "p1", "win", 10.0), (1, "p2", "loss", 4.5), (2, None, "loss", None)]
        assert [r.player_id for r in ratings] == ["p1", "p2"]
        assert ratings[0].rating > 1500 > ratings[1].rating
        assert all(r.matches == 1 and r.deviation < 350 for r in ratings)
        assert store.get_rating("p1", "montanas") == ratings[0]

    def test_finish_match_is_idempotent(self, store):
        ratings = finished(store, a_match(), winners=(1,))
        again = store.finish_match("m1", records.Outcome((1,)), SEED)
        assert again == ratings and again[0].matches == 1
        with pytest.raises(FailedPrecondition):
            store.finish_match("m1", records.Outcome((0,)), SEED)

    def test_a_retried_finish_answers_as_the_first_did(self, store):
        """A FinishMatch retried after its lost answer gets that answer: the ratings this
        match left, not the current ones, which the players' later matches moved. It was
        answered with the current ones."""
        first = finished(store, a_match(players=("p1", "p2", "p1"), bots=1), winners=(1,))
        finished(store, a_match("m2"), winners=(0,))  # both play on
        assert store.get_rating("p1", "montanas") != first[0]
        assert store.finish_match("m1", records.Outcome((1,)), SEED) == first
        assert [store.get_rating(p, "montanas").matches for p in ("p1", "p2")] == [2, 2]

    def test_concurrent_finishes_rate_once(self, store):
        started(store, a_match(), actions=1)
        outcomes = race(6, lambda _: store.finish_match("m1", records.Outcome((0,)), SEED))
        assert all(o == outcomes[0] for o in outcomes), outcomes
        assert store.get_rating("p1", "montanas").matches == 1

    @pytest.mark.parametrize("outcome, seed, error", [
        (records.Outcome((0,)), b"\x00" * 32, InvalidArgument),  # not the committed seed
        (records.Outcome((5,)), SEED, InvalidArgument),
        (records.Outcome((), scores={7: 1.0}), SEED, InvalidArgument),
        (records.Outcome((0,), draw=True), SEED, InvalidArgument),
    ])
    def test_finish_match_refuses_bad_input_and_changes_nothing(self, store, outcome, seed,
                                                                error):
        started(store, a_match(), actions=1)
        with pytest.raises(error):
            store.finish_match("m1", outcome, seed)
        assert store.get_match("m1").status == "active"
        assert store.get_rating("p1", "montanas").matches == 0

    def test_finish_of_an_unknown_match_is_not_found(self, store):
        with pytest.raises(NotFound):
            store.finish_match("nope", records.Outcome(), SEED)

    def test_cooperative_matches_rate_against_the_scenario(self, store):
        won = finished(store, a_match("m1", players=("p1", "p2"), bots=1), winners=(0, 1, 2))
        assert [r.matches for r in won] == [1, 1]
        assert won[0].rating == won[1].rating > 1500  # team-mates, not opponents
        lost = finished(store, a_match("m2", players=("p3", "p4")), winners=())
        assert lost[0].rating == lost[1].rating < 1500

    def test_an_all_bot_match_finishes_with_results_and_no_ratings(self, store, engine):
        assert finished(store, a_match(players=(), bots=2), winners=(1,)) == []
        assert store.get_match("m1").status == "finished"
        with engine.connect() as conn:
            results = conn.execute(sa.select(models.Result.seat, models.Result.player_id,
                                             models.Result.result)
                                   .order_by(models.Result.seat)).all()
            rated = conn.scalar(sa.select(sa.func.count()).select_from(models.Rating))
        assert [tuple(r) for r in results] == [(0, None, "loss"), (1, None, "win")]
        assert rated == 0

    def test_a_player_in_two_seats_is_rated_once(self, store):
        ratings = finished(store, a_match(players=("p1", "p2", "p1")), winners=(1,))
        assert [r.player_id for r in ratings] == ["p1", "p2"]
        assert [r.matches for r in ratings] == [1, 1]
        assert ratings[0].rating < 1500 < ratings[1].rating
        assert [store.get_rating(p, "montanas") for p in ("p1", "p2")] == ratings

    def test_a_player_holding_every_seat_is_not_rated_and_the_match_not_counted(self, store):
        """Nobody played anybody: no rating period (before: rated with no games, which
        widened the deviation, and the match counted)."""
        assert finished(store, a_match(players=("p1", "p1")), winners=(0,)) == []
        assert store.finish_match("m1", records.Outcome((0,)), SEED) == []  # a repeat too
        assert store.get_rating("p1", "montanas") == records.Rating(
            "p1", "montanas", 1500.0, 350.0, 0.06, 0)

    def test_beating_bots_moves_a_rating(self, store):
        [solo] = finished(store, a_match(players=("p1",), bots=2), winners=(0,))
        assert solo.rating > 1500

    def test_draws_between_equals_leave_ratings_level(self, store):
        ratings = finished(store, a_match(), winners=(), draw=True)
        assert ratings[0].rating == pytest.approx(1500) == ratings[1].rating

    def test_ratings_are_read_together_in_the_order_asked(self, store):
        rated = finished(store, a_match(), winners=(0,))
        keys = [("p9", "montanas"), ("p2", "montanas"), ("p1", "montanas"), ("p1", "bandas"),
                ("p2", "montanas")]
        assert store.get_ratings(keys) == [store.get_rating(*k) for k in keys]
        assert store.get_ratings(keys)[1:3] == [rated[1], rated[0]]

    def test_get_rating_defaults_for_newcomers(self, store):
        assert store.get_rating("p9", "montanas") == records.Rating("p9", "montanas", 1500.0,
                                                                    350.0, 0.06, 0)


class ListingBehaviours:
    def _finish_many(self, store, count, game_id="montanas", prefix="m"):
        for i in range(count):
            finished(store, a_match(f"{prefix}{i}", players=("p1", f"q{i}"), game_id=game_id))

    def _all_pages(self, fetch, page_size):
        seen, token = [], ""
        while True:
            page = fetch(page_size, token)
            seen.append([m.match_id for m in page.matches])
            if not page.next_page_token:
                return seen
            token = page.next_page_token

    def test_list_finished_pages_newest_first(self, store):
        self._finish_many(store, 5)
        self._finish_many(store, 2, game_id="other", prefix="o")
        started(store, a_match("active"))
        pages = self._all_pages(lambda n, t: store.list_finished("montanas", n, t), 2)
        assert pages == [["m4", "m3"], ["m2", "m1"], ["m0"]]
        everything = self._all_pages(lambda n, t: store.list_finished("", n, t), 3)
        assert sum(everything, []) == ["o1", "o0", "m4", "m3", "m2", "m1", "m0"]
        assert store.list_finished("montanas", 5).next_page_token == ""

    def test_pages_stay_right_while_matches_finish(self, store):
        self._finish_many(store, 4)
        first = store.list_finished("montanas", 2)
        self._finish_many(store, 1, prefix="late")
        second = store.list_finished("montanas", 2, first.next_page_token)
        assert [m.match_id for m in second.matches] == ["m1", "m0"]

    def test_equal_timestamps_are_ordered_by_match_id(self, store, engine):
        self._finish_many(store, 3)
        with engine.begin() as conn:
            conn.execute(sa.update(models.Match).values(finished_at=datetime(2030, 1, 1,
                                                                             tzinfo=UTC)))
        pages = self._all_pages(lambda n, t: store.list_finished("montanas", n, t), 1)
        assert pages == [["m2"], ["m1"], ["m0"]]

    @pytest.mark.parametrize("token", ["garbage!", "bm90IGpzb24", "WyJ4IiwiMjAzMCJd"])
    def test_bad_page_tokens_are_invalid(self, store, token):
        with pytest.raises(InvalidArgument):
            store.list_finished("montanas", 2, token)

    def test_a_token_only_serves_its_own_listing(self, store):
        self._finish_many(store, 3)
        token = store.list_finished("montanas", 1).next_page_token
        with pytest.raises(InvalidArgument):
            store.list_finished("", 1, token)
        with pytest.raises(InvalidArgument):
            store.player_history("p1", 1, token)

    def test_page_size_is_bounded(self, store):
        for size in (0, 101):
            with pytest.raises(InvalidArgument):
                store.list_finished("", size)
        for size in (0, 1001):
            with pytest.raises(InvalidArgument):
                store.unfinished_matches("", size)

    def test_unfinished_matches_are_listed_by_id_page_by_page(self, store):
        """What a rules service whose session store came back empty puts back in its index
        of deadlines."""
        self._finish_many(store, 2)
        for match_id in ("u3", "u1", "u2"):
            started(store, a_match(match_id))
        store.record_match(a_match("u0"))  # recorded, its set-up not yet: unfinished too
        assert store.unfinished_matches("", 2) == ["u0", "u1"]
        assert store.unfinished_matches("u1", 2) == ["u2", "u3"]
        assert store.unfinished_matches("u3", 2) == []
        assert store.unfinished_matches() == ["u0", "u1", "u2", "u3"]

    def test_player_history_lists_every_match_of_the_player_once(self, store):
        self._finish_many(store, 3)
        store.record_match(a_match("twice", players=("p1", "p1", "p2")))
        store.record_match(a_match("without", players=("p2", "p3")))
        pages = self._all_pages(lambda n, t: store.player_history("p1", n, t), 2)
        assert pages == [["twice", "m2"], ["m1", "m0"]]
        assert store.player_history("nobody").matches == ()
        assert store.player_history("p1", 1).matches[0].status == "active"


class DiceBehaviours:
    def test_create_stream_is_idempotent(self, store):
        assert store.create_stream("m1", SEED, COMMITMENT) == (COMMITMENT, 0)
        assert store.create_stream("m1", b"other", b"other-commitment")[0] == COMMITMENT
        assert store.get_stream("m1") == records.DiceStream("m1", SEED, COMMITMENT, 0, False)

    def test_create_stream_hands_out_its_first_positions_and_a_repeat_the_next(self, store):
        assert store.create_stream("m1", SEED, COMMITMENT, reserve=5) == (COMMITMENT, 0)
        assert store.create_stream("m1", b"other", b"other-commitment", 3) == (COMMITMENT, 5)
        assert store.advance("m1", 1) == 8
        assert store.get_stream("m1").seed == SEED

    def test_a_repeated_create_draws_nothing_from_a_revealed_stream(self, store):
        store.create_stream("m1", SEED, COMMITMENT, reserve=2)
        store.reveal("m1")
        assert store.create_stream("m1", b"other", b"other-commitment")[0] == COMMITMENT
        with pytest.raises(FailedPrecondition):
            store.create_stream("m1", b"other", b"other-commitment", reserve=1)
        with pytest.raises(InvalidArgument):
            store.create_stream("m2", SEED, COMMITMENT, reserve=-1)
        assert store.get_stream("m1").next_position == 2
        with pytest.raises(NotFound):
            store.get_stream("m2")

    def test_concurrent_creates_keep_one_stream_per_match_and_share_no_position(self, store):
        # Creates arriving together are written in batches (group commit): two for one
        # match may meet in the same batch, and only the first of them is its stream.
        made = race(12, lambda i: store.create_stream(f"m{i % 4}", bytes([i]) * 32,
                                                      f"c{i}".encode(), reserve=3))
        for m in range(4):
            answers = [made[i] for i in range(m, 12, 4)]
            assert {commitment for commitment, _ in answers} == {store.get_stream(
                f"m{m}").commitment}, answers
            assert sorted(first for _, first in answers) == [0, 3, 6]
            assert store.get_stream(f"m{m}").next_position == 9

    def test_create_streams_answers_each_as_create_stream_would_in_one_insert(self, store,
                                                                              engine):
        store.create_stream("old", SEED, COMMITMENT, reserve=2)
        store.create_stream("shown", SEED, COMMITMENT)
        store.reveal("shown")
        statements: list[str] = []
        sa.event.listen(engine, "before_cursor_execute",
                        lambda conn, cursor, sql, *rest: statements.append(sql.split("(")[0]))
        outcomes = store.create_streams([
            ("m1", b"s1", b"c1", 3),
            ("old", b"other", b"other-commitment", 4),  # had a stream: its next positions
            ("m2", b"s2", b"c2", 2),
            ("m2", b"s3", b"c3", 5),                    # twice in one call: one stream
            ("m3", b"s4", b"c4", -1),                   # refused alone
            ("shown", b"s5", b"c5", 1),                 # revealed: refused alone
        ])
        assert outcomes[:4] == [(b"c1", 0), (COMMITMENT, 2), (b"c2", 0), (b"c2", 2)]
        assert isinstance(outcomes[4], InvalidArgument)
        assert isinstance(outcomes[5], FailedPrecondition)
        inserts = [s.split()[2] for s in statements if s.startswith("INSERT")]
        assert inserts == ["dice_streams"], statements
        assert store.get_stream("m1") == records.DiceStream("m1", b"s1", b"c1", 3, False)
        assert store.get_stream("old").next_position == 6
        assert store.get_stream("m2") == records.DiceStream("m2", b"s2", b"c2", 7, False)
        with pytest.raises(NotFound):
            store.get_stream("m3")

    def test_advance_hands_out_consecutive_positions(self, store):
        store.create_stream("m1", SEED, COMMITMENT)
        assert [store.advance("m1", n) for n in (3, 1, 5)] == [0, 3, 4]
        assert store.get_stream("m1").next_position == 9
        with pytest.raises(InvalidArgument):
            store.advance("m1", 0)

    def test_reveal_closes_the_stream(self, store):
        store.create_stream("m1", SEED, COMMITMENT)
        store.advance("m1", 2)
        assert store.reveal("m1") == SEED == store.reveal("m1")
        with pytest.raises(FailedPrecondition):
            store.advance("m1", 1)
        assert store.get_stream("m1").revealed and store.get_stream("m1").next_position == 2

    @pytest.mark.parametrize("call", ["advance", "reveal", "get_stream"])
    def test_unknown_streams_are_not_found(self, store, call):
        args = ("nope", 1) if call == "advance" else ("nope",)
        with pytest.raises(NotFound):
            getattr(store, call)(*args)

    def test_concurrent_advances_never_share_a_position(self, store):
        store.create_stream("m1", SEED, COMMITMENT)
        counts = [[random.Random(i * 100 + j).randint(1, 4) for j in range(25)]
                  for i in range(8)]
        spans = race(8, lambda i: [(store.advance("m1", n), n) for n in counts[i]])
        positions = [p for thread in spans for first, n in thread for p in range(first, first + n)]
        assert sorted(positions) == list(range(sum(map(sum, counts))))
        assert store.get_stream("m1").next_position == len(positions)


class UpgradeBehaviours:
    def test_rows_from_before_0003_survive_it_and_retries_of_them_answer_as_before(
            self, store, engine):
        """Migration 0003 adds its columns in place (no row is lost to a cascade), NULL in
        earlier rows: a retried FinishMatch of such a match answers the current ratings, and
        a retried RecordMatch after a seat changed stays AlreadyExists, as before 0003."""
        finished(store, a_match("m1"), winners=(0,))
        store.record_match(a_match("m2"))
        store.update_seat("m2", records.Seat(1, "p2", "bot", "heuristic"))

        def kept():
            with engine.connect() as conn:
                results = conn.execute(sa.select(models.Result.match_id, models.Result.seat,
                                                 models.Result.result)).all()
            return store.get_match_log("m1"), store.get_match("m2"), sorted(results)

        before = kept()
        with engine.begin() as conn:
            command.downgrade(db.alembic_config(conn), "0002")
        db.migrate(engine)
        assert kept() == before
        finished(store, a_match("m3"), winners=(1,))  # m1's players play on
        assert store.finish_match("m1", records.Outcome((0,)), SEED) == store.get_ratings(
            [("p1", "montanas"), ("p2", "montanas")])
        with pytest.raises(AlreadyExists):
            store.record_match(a_match("m2"))

    def test_matches_from_before_0004_never_hand_a_seat_over(self, store, engine):
        """Migration 0004 adds the count in place; matches recorded before it read 0
        (never), as they were played, and stay there."""
        before = store.record_match(a_match("m1", decision_timeout_seconds=60,
                                            bot_after_missed_decisions=2))
        with engine.begin() as conn:
            command.downgrade(db.alembic_config(conn), "0003")
        with engine.connect() as conn:  # the column is gone
            assert "bot_after_missed_decisions" not in {
                c["name"] for c in sa.inspect(conn).get_columns("matches")}
        db.migrate(engine)
        assert store.get_match("m1") == replace(before, bot_after_missed_decisions=0)


class StoreBehaviours(WithStore, PlayerAndMatchBehaviours, LogBehaviours, FinishBehaviours,
                      ListingBehaviours, DiceBehaviours, UpgradeBehaviours):
    """All of the above; a database's test class derives from this."""
