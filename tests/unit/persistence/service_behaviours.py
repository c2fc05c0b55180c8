"""PersistenceService and PlayersService end to end: a real in-process gRPC server, real
channels and stubs, over a store on the database of the subclass's `engine` fixture."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import grpc
import pytest
import sqlalchemy as sa

from partida.persistence import convert, models
from partida.persistence.hashchain import verify_chain
from partida.persistence.records import Outcome
from partida.platform.auth import Principal
from partida.v1 import common_pb2, persistence_pb2_grpc, players_pb2, players_pb2_grpc
from partida.v1 import persistence_pb2 as pb
from tests.unit.persistence.store_behaviours import WithStore
from tests.unit.persistence.support import (
    AUTHORITY,
    SEED,
    a_match,
    action,
    finished,
    race,
    serving,
    setup_record,
    started,
)

Code = grpc.StatusCode
Metadata = tuple[tuple[str, str], ...]


def bearer(token: str) -> Metadata:
    return (("authorization", f"Bearer {token}"),)


SERVICE = bearer(AUTHORITY.service_token("rules"))
# A day: the token is made once, at import, and must outlive a slow run of the suite.
PLAYER = bearer(AUTHORITY.player_token("p1", 86400)[0])
EXPIRED = bearer(AUTHORITY.player_token("p1", 60, now=time.time() - 3600)[0])
ACME, GLOBEX = (("x-api-key", "key-acme"),), (("x-api-key", "key-globex"),)


def status(call: Callable[..., Any], request: Any, metadata: Metadata = ()) -> Code:
    try:
        call(request, metadata=metadata, timeout=30)
    except grpc.RpcError as e:
        return e.code()
    return Code.OK


def record_request(match_id: str = "m2", **fields: Any) -> pb.RecordMatchRequest:
    match = convert.match_pb(a_match(match_id))
    for name, value in fields.items():
        if name == "seats":
            del match.seats[:]
            match.seats.extend(value)
        else:
            setattr(match, name, value)
    return pb.RecordMatchRequest(match=match)


def start_request(match_id: str, **fields: Any) -> pb.RecordMatchRequest:
    """RecordMatch of a new match (record_request's fields) with its set-up."""
    return pb.RecordMatchRequest(match=record_request(match_id, **fields).match,
                                 setup=[convert.record_pb(setup_record())])


def codes(results: Any) -> list[Code]:
    """The status code of each result of a batch call."""
    return [next(c for c in Code if c.value[0] == r.code) for r in results]


def append_request(*records: Any, match_id: str = "m1") -> pb.AppendLogRequest:
    return pb.AppendLogRequest(match_id=match_id, records=[
        r if isinstance(r, pb.LogRecord) else convert.record_pb(r) for r in records])


def record_pb(sequence: int = 2, **fields: Any) -> pb.LogRecord:
    record = convert.record_pb(action(sequence))
    for name, value in fields.items():
        if name in ("random_positions", "random_values"):
            getattr(record, name)[:] = value
        else:
            setattr(record, name, value)
    return record


def finish_request(**fields: Any) -> pb.FinishMatchRequest:
    return pb.FinishMatchRequest(**({"match_id": "m1", "dice_seed": SEED,
                                     "outcome": common_pb2.Outcome(winners=[0])} | fields))


BAD_REQUESTS = {
    "no match": ("RecordMatch", pb.RecordMatchRequest()),
    "empty match id": ("RecordMatch", record_request("")),
    "long match id": ("RecordMatch", record_request("x" * 129)),
    "empty game id": ("RecordMatch", record_request(game_id="")),
    "options not JSON": ("RecordMatch", record_request(options_json="{not json")),
    "options not an object": ("RecordMatch", record_request(options_json="[1]")),
    "short commitment": ("RecordMatch", record_request(dice_commitment=b"short")),
    "finished status": ("RecordMatch", record_request(status=common_pb2.MATCH_STATUS_FINISHED)),
    "nonzero version": ("RecordMatch", record_request(version=3)),
    "negative timeout": ("RecordMatch", record_request(decision_timeout_seconds=-1)),
    "negative missed count": ("RecordMatch", record_request(bot_after_missed_decisions=-1)),
    "no seats": ("RecordMatch", record_request(seats=[])),
    "seats out of order": ("RecordMatch", record_request(seats=[common_pb2.Seat(
        seat=1, player_id="p1", controller=common_pb2.SEAT_CONTROLLER_HUMAN)])),
    "no controller": ("RecordMatch", record_request(seats=[common_pb2.Seat(player_id="p1")])),
    "human without player": ("RecordMatch", record_request(seats=[common_pb2.Seat(
        controller=common_pb2.SEAT_CONTROLLER_HUMAN)])),
    "set-up not first": ("RecordMatch", pb.RecordMatchRequest(
        match=record_request().match, setup=[record_pb(1)])),
    "set-up of no kind": ("RecordMatch", pb.RecordMatchRequest(
        match=record_request().match, setup=[record_pb(0, kind="cheat")])),
    "set-up of no seat": ("RecordMatch", pb.RecordMatchRequest(
        match=record_request().match,
        setup=[convert.record_pb(replace(setup_record(), seat=7))])),
    "no records": ("AppendLog", append_request()),
    "unknown kind": ("AppendLog", append_request(record_pb(1, kind="cheat"))),
    "events not JSON": ("AppendLog", append_request(record_pb(1, events_json="nope"))),
    "events not an array": ("AppendLog", append_request(record_pb(1, events_json="{}"))),
    "hash sent": ("AppendLog", append_request(record_pb(1, hash=b"x" * 32))),
    "values without positions": ("AppendLog", append_request(record_pb(1, random_positions=[]))),
    "positions decreasing": ("AppendLog", append_request(record_pb(1, random_positions=[5, 4]))),
    "seat below -1": ("AppendLog", append_request(record_pb(1, seat=-2))),
    "long request id": ("AppendLog", append_request(record_pb(1, request_id="r" * 129))),
    "half good batch": ("AppendLog", append_request(record_pb(1), record_pb(2, kind="?"))),
    "log of no match": ("AppendLog", append_request(record_pb(1), match_id="")),
    "no outcome": ("FinishMatch", pb.FinishMatchRequest(match_id="m1", dice_seed=SEED)),
    "no seed": ("FinishMatch", finish_request(dice_seed=b"")),
    "twice a winner": ("FinishMatch", finish_request(outcome=common_pb2.Outcome(winners=[0, 0]))),
    "NaN score": ("FinishMatch", finish_request(outcome=common_pb2.Outcome(
        scores={0: float("nan")}))),
    "wrong seed": ("FinishMatch", finish_request(dice_seed=b"\x00" * 32)),
    "no request id": ("FindLogRecord", pb.FindLogRecordRequest(match_id="m1")),
    "page too big": ("ListFinishedMatches", pb.ListFinishedMatchesRequest(page_size=101)),
    "unfinished page too big": ("ListUnfinishedMatches",
                                pb.ListUnfinishedMatchesRequest(page_size=1001)),
    "negative unfinished page": ("ListUnfinishedMatches",
                                 pb.ListUnfinishedMatchesRequest(page_size=-1)),
    "unfinished after a bad id": ("ListUnfinishedMatches",
                                  pb.ListUnfinishedMatchesRequest(after_match_id="x" * 129)),
    "negative page": ("ListFinishedMatches", pb.ListFinishedMatchesRequest(page_size=-1)),
    "forged token": ("ListFinishedMatches", pb.ListFinishedMatchesRequest(page_token="x!")),
    "history of no one": ("GetPlayerHistory", pb.GetPlayerHistoryRequest()),
    "rating of no game": ("GetRating", pb.GetRatingRequest(player_id="p1")),
    "rating of a game not hosted": ("GetRating", pb.GetRatingRequest(player_id="p1",
                                                                      game_id="chess")),
    "ratings of a game not hosted": ("GetRatings", pb.GetRatingsRequest(ratings=[
        pb.GetRatingRequest(player_id="p1", game_id="montanas"),
        pb.GetRatingRequest(player_id="p1", game_id="chess")])),
    "no ratings named": ("GetRatings", pb.GetRatingsRequest()),
    "one rating of no player": ("GetRatings", pb.GetRatingsRequest(ratings=[
        pb.GetRatingRequest(player_id="p1", game_id="montanas"),
        pb.GetRatingRequest(game_id="montanas")])),
    "too many ratings": ("GetRatings", pb.GetRatingsRequest(ratings=[
        pb.GetRatingRequest(player_id=f"p{i}", game_id="montanas") for i in range(1001)])),
}

WRITES = {
    "RecordMatch": record_request(),
    "RecordMatches": pb.RecordMatchesRequest(matches=[record_request()]),
    "AppendLog": append_request(action(2)),
    "FinishMatch": finish_request(),
    "FindLogRecord": pb.FindLogRecordRequest(match_id="m1", request_id="req-1"),
    "ListUnfinishedMatches": pb.ListUnfinishedMatchesRequest(),
}
READS = {
    "ListFinishedMatches": pb.ListFinishedMatchesRequest(),
    "GetPlayerHistory": pb.GetPlayerHistoryRequest(player_id="p1"),
    "GetRating": pb.GetRatingRequest(player_id="p1", game_id="montanas"),
    "GetRatings": pb.GetRatingsRequest(ratings=[pb.GetRatingRequest(player_id="p1",
                                                                    game_id="montanas")]),
    "GetMatchLog": pb.GetMatchLogRequest(match_id="m1"),
}


class Served(WithStore):
    @pytest.fixture
    def channel(self, store):
        with serving(store) as channel:
            yield channel


class ServedPersistence(Served):
    @pytest.fixture
    def stub(self, channel) -> persistence_pb2_grpc.PersistenceServiceStub:
        return persistence_pb2_grpc.PersistenceServiceStub(channel)

    @pytest.fixture
    def m1(self, store) -> None:
        """Match m1 with its set-up and one action stored."""
        started(store, a_match(), actions=1)


class PersistenceServiceBehaviours(ServedPersistence):

    def test_a_match_from_creation_to_history(self, stub, store):
        stub.RecordMatch(record_request("m1"), metadata=SERVICE)
        stub.RecordMatch(record_request("m1"), metadata=SERVICE)  # idempotent
        head = stub.AppendLog(append_request(setup_record(), action(1), action(2, seat=1)),
                              metadata=SERVICE)
        assert head.last_sequence == 2
        found = stub.FindLogRecord(pb.FindLogRecordRequest(match_id="m1", request_id="req-2"),
                                   metadata=SERVICE)
        assert found.found and found.record.hash == head.last_hash
        assert not stub.FindLogRecord(pb.FindLogRecordRequest(match_id="m1", request_id="zz"),
                                      metadata=SERVICE).found
        ratings = stub.FinishMatch(finish_request(), metadata=SERVICE).ratings
        assert [(r.player_id, r.matches) for r in ratings] == [("p1", 1), ("p2", 1)]
        log = stub.GetMatchLog(pb.GetMatchLogRequest(match_id="m1"), metadata=PLAYER)
        assert log.match.status == common_pb2.MATCH_STATUS_FINISHED and log.match.version == 2
        assert log.match.dice_seed == SEED and list(log.match.outcome.winners) == [0]
        assert [r.hash for r in log.records] == [r.hash for r in store.get_match_log("m1")[1]]
        assert verify_chain(store.get_match_log("m1")[1]) == (True, None)
        listed = stub.ListFinishedMatches(pb.ListFinishedMatchesRequest(game_id="montanas"),
                                          metadata=PLAYER)
        history = stub.GetPlayerHistory(pb.GetPlayerHistoryRequest(player_id="p2"),
                                        metadata=PLAYER)
        assert [m.match_id for m in listed.matches] == [m.match_id for m in history.matches]
        rating = stub.GetRating(READS["GetRating"], metadata=PLAYER).rating
        assert rating == ratings[0]
        both = stub.GetRatings(pb.GetRatingsRequest(ratings=[
            pb.GetRatingRequest(player_id=p, game_id="montanas") for p in ("p2", "p9", "p1")]),
            metadata=PLAYER).ratings
        assert [(r.player_id, r.matches) for r in both] == [("p2", 1), ("p9", 0), ("p1", 1)]
        assert both[2] == rating

    def test_a_match_recorded_with_its_set_up_over_grpc(self, stub, store):
        request = pb.RecordMatchRequest(match=record_request("m5").match,
                                        setup=[convert.record_pb(setup_record())])
        assert stub.RecordMatch(request, metadata=SERVICE).setup_written
        again = stub.RecordMatch(request, metadata=SERVICE)  # a retry: the first one stands
        assert not again.setup_written
        assert [r.sequence for r in store.get_match_log("m5")[1]] == [0]
        assert not stub.RecordMatch(record_request("m6"), metadata=SERVICE).setup_written
        assert store.get_match_log("m6")[1] == []

    def test_retries_after_a_lost_answer_are_answered_as_the_first_call(self, stub, store):
        """RecordMatch retried after UpdateSeat changed a seat is the same record (it was
        ALREADY_EXISTS); FinishMatch retried after its players played on answers the ratings
        it first answered (it answered the current ones)."""
        request = start_request("m1")
        stub.RecordMatch(request, metadata=SERVICE)
        stub.UpdateSeat(pb.UpdateSeatRequest(match_id="m1", seat=common_pb2.Seat(
            seat=1, player_id="p2", controller=common_pb2.SEAT_CONTROLLER_BOT,
            bot="heuristic")), metadata=SERVICE)
        assert not stub.RecordMatch(request, metadata=SERVICE).setup_written
        other = start_request("m1", seats=[common_pb2.Seat(
            player_id="p9", controller=common_pb2.SEAT_CONTROLLER_HUMAN)])
        assert status(stub.RecordMatch, other, SERVICE) == Code.ALREADY_EXISTS
        first = stub.FinishMatch(finish_request(), metadata=SERVICE)
        started(store, a_match("m2"), actions=0)
        store.finish_match("m2", Outcome((1,)), SEED)
        assert stub.FinishMatch(finish_request(), metadata=SERVICE) == first
        assert stub.GetRating(READS["GetRating"], metadata=PLAYER).rating.matches == 2

    def test_pages_over_grpc(self, stub, store):
        for i in range(3):
            started(store, a_match(f"m{i}"), actions=1)
            store.finish_match(f"m{i}", Outcome((0,)), SEED)
        first = stub.ListFinishedMatches(pb.ListFinishedMatchesRequest(page_size=2),
                                         metadata=PLAYER)
        rest = stub.ListFinishedMatches(pb.ListFinishedMatchesRequest(
            page_size=2, page_token=first.next_page_token), metadata=PLAYER)
        assert [m.match_id for m in [*first.matches, *rest.matches]] == ["m2", "m1", "m0"]
        assert rest.next_page_token == ""

    def test_unfinished_matches_are_listed_for_services(self, stub, store, m1):
        started(store, a_match("m2"))
        finished(store, a_match("m0"))
        listed = stub.ListUnfinishedMatches(pb.ListUnfinishedMatchesRequest(), metadata=SERVICE)
        assert list(listed.match_ids) == ["m1", "m2"]
        rest = stub.ListUnfinishedMatches(pb.ListUnfinishedMatchesRequest(
            after_match_id="m1", page_size=1), metadata=SERVICE)
        assert list(rest.match_ids) == ["m2"]

    @pytest.mark.parametrize("case", BAD_REQUESTS)
    def test_bad_input_is_invalid_and_writes_nothing(self, stub, store, m1, case):
        method, request = BAD_REQUESTS[case]
        before = store.get_match_log("m1"), store.list_finished("", 100)
        assert status(getattr(stub, method), request, SERVICE) == Code.INVALID_ARGUMENT
        assert (store.get_match_log("m1"), store.list_finished("", 100)) == before
        assert store.player_history("p1").matches[0].match_id == "m1"  # no m2 either

    @pytest.mark.parametrize("method", WRITES)
    @pytest.mark.parametrize("metadata, code", [
        ((), Code.UNAUTHENTICATED), (bearer("not-a-token"), Code.UNAUTHENTICATED),
        ((("authorization", "Basic abc"),), Code.UNAUTHENTICATED),
        (EXPIRED, Code.UNAUTHENTICATED), (PLAYER, Code.PERMISSION_DENIED),
    ])
    def test_writes_need_a_service_token(self, stub, store, m1, method, metadata, code):
        before = store.get_match_log("m1")
        assert status(getattr(stub, method), WRITES[method], metadata) == code
        assert store.get_match_log("m1") == before

    @pytest.mark.parametrize("method", READS)
    def test_reads_need_a_token(self, stub, store, m1, method):
        store.finish_match("m1", Outcome((0,)), SEED)
        assert status(getattr(stub, method), READS[method]) == Code.UNAUTHENTICATED
        assert status(getattr(stub, method), READS[method], EXPIRED) == Code.UNAUTHENTICATED
        assert status(getattr(stub, method), READS[method], PLAYER) == Code.OK

    def test_the_log_of_an_active_match_is_for_services_only(self, stub, m1):
        request = READS["GetMatchLog"]
        assert status(stub.GetMatchLog, request, PLAYER) == Code.PERMISSION_DENIED
        assert len(stub.GetMatchLog(request, metadata=SERVICE).records) == 2
        unknown = pb.GetMatchLogRequest(match_id="nope")
        assert status(stub.GetMatchLog, unknown, PLAYER) == Code.NOT_FOUND

    def test_unknown_matches_are_not_found(self, stub):
        assert status(stub.AppendLog, append_request(setup_record()), SERVICE) == Code.NOT_FOUND
        assert status(stub.FinishMatch, finish_request(), SERVICE) == Code.NOT_FOUND

    def test_an_append_race_has_one_winner(self, stub, store, m1):
        codes = race(8, lambda i: status(stub.AppendLog, append_request(
            action(2, request_id=f"w{i}")), SERVICE))
        assert sorted(codes, key=str) == sorted([Code.OK] + [Code.ALREADY_EXISTS] * 7, key=str)
        log = store.get_match_log("m1")[1]
        assert len(log) == 3 and verify_chain(log) == (True, None)

    def test_appends_to_several_logs_in_one_call_are_kept_or_refused_alone(self, stub, store,
                                                                            m1):
        started(store, a_match("m3"), actions=0)
        reply = stub.AppendLogs(pb.AppendLogsRequest(appends=[
            append_request(action(2)),                              # stored
            append_request(action(1), match_id="m3"),               # stored
            append_request(action(3, request_id="req-3"), action(4, request_id="req-4")),
            append_request(action(2, request_id="again")),          # m1's 2 is taken now
            append_request(setup_record(), match_id="nope"),        # no such match
            append_request(record_pb(5, kind="cheat")),             # malformed
            append_request(action(9, request_id="gap")),            # leaves a gap
        ]), metadata=SERVICE)
        assert codes(reply.results) == [Code.OK, Code.OK, Code.OK, Code.ALREADY_EXISTS,
                                        Code.NOT_FOUND, Code.INVALID_ARGUMENT,
                                        Code.FAILED_PRECONDITION]
        assert [r.last_sequence for r in reply.results[:3]] == [2, 1, 4]
        assert all(r.message for r in reply.results[3:])
        m1_log, m3_log = store.get_match_log("m1")[1], store.get_match_log("m3")[1]
        assert [r.sequence for r in m1_log] == [0, 1, 2, 3, 4] and len(m3_log) == 2
        assert verify_chain(m1_log) == (True, None) and verify_chain(m3_log) == (True, None)
        assert reply.results[2].last_hash == m1_log[-1].hash

    def test_append_logs_is_refused_whole_when_the_call_is_bad(self, stub, store, m1):
        too_many = pb.AppendLogsRequest(appends=[append_request(action(2))] * 1001)
        assert status(stub.AppendLogs, too_many, SERVICE) == Code.INVALID_ARGUMENT
        assert status(stub.AppendLogs, pb.AppendLogsRequest(), SERVICE) == Code.INVALID_ARGUMENT
        one = pb.AppendLogsRequest(appends=[append_request(action(2))])
        assert status(stub.AppendLogs, one, PLAYER) == Code.PERMISSION_DENIED
        assert len(store.get_match_log("m1")[1]) == 2

    def test_several_matches_in_one_call_are_recorded_or_refused_alone(self, stub, store, m1,
                                                                       monkeypatch):
        m1_before, start_matches, batches = store.get_match_log("m1"), store.start_matches, []
        monkeypatch.setattr(store, "start_matches", lambda starts: batches.append(
            [match.match_id for match, _ in starts]) or start_matches(starts))
        requests = [
            start_request("m5"),                                    # new
            start_request("m1"),                                    # a repeat: m1 stands
            record_request("m8"),                                   # new, no set-up
            start_request("m6", decision_timeout_seconds=30,        # new
                          bot_after_missed_decisions=2),
            pb.RecordMatchRequest(),                                # malformed: no match
            start_request("m1", seats=[common_pb2.Seat(             # m1 with other seats
                player_id="p9", controller=common_pb2.SEAT_CONTROLLER_HUMAN)]),
            pb.RecordMatchRequest(match=record_request("m7").match,  # set-up not first
                                  setup=[record_pb(1)]),
            start_request(""),                                      # malformed: no id
            record_request("m1", seats=[common_pb2.Seat(            # the same, no set-up
                player_id="p9", controller=common_pb2.SEAT_CONTROLLER_HUMAN)]),
        ]
        reply = stub.RecordMatches(pb.RecordMatchesRequest(matches=requests), metadata=SERVICE)
        assert codes(reply.results) == [Code.OK] * 4 + [
            Code.INVALID_ARGUMENT, Code.ALREADY_EXISTS, Code.INVALID_ARGUMENT,
            Code.INVALID_ARGUMENT, Code.ALREADY_EXISTS]
        assert batches == [["m5", "m1", "m6", "m1", "m7"]]  # the set-ups share a transaction
        assert [r.setup_written for r in reply.results] == [True, False, False, True] + [
            False] * 5
        assert not any(r.message for r in reply.results[:4])
        assert all(r.message for r in reply.results[4:])
        for i, match_id in [(0, "m5"), (2, "m8"), (3, "m6")]:  # the new ones, as sent
            log = stub.GetMatchLog(pb.GetMatchLogRequest(match_id=match_id), metadata=SERVICE)
            sent = requests[i]
            assert (log.match.seats, log.match.decision_timeout_seconds,
                    log.match.bot_after_missed_decisions) == (
                sent.match.seats, sent.match.decision_timeout_seconds,
                sent.match.bot_after_missed_decisions)
            assert [(r.sequence, r.events_json) for r in log.records] == [
                (r.sequence, r.events_json) for r in sent.setup]  # m8's is empty
        assert store.get_match_log("m1") == m1_before
        unknown = pb.GetMatchLogRequest(match_id="m7")
        assert status(stub.GetMatchLog, unknown, SERVICE) == Code.NOT_FOUND

    def test_record_matches_is_refused_whole_when_the_call_is_bad(self, stub, store):
        too_many = pb.RecordMatchesRequest(matches=[start_request("m5")] * 1001)
        assert status(stub.RecordMatches, too_many, SERVICE) == Code.INVALID_ARGUMENT
        none = pb.RecordMatchesRequest()
        assert status(stub.RecordMatches, none, SERVICE) == Code.INVALID_ARGUMENT
        one = pb.RecordMatchesRequest(matches=[start_request("m5")])
        assert status(stub.RecordMatches, one, PLAYER) == Code.PERMISSION_DENIED
        unknown = pb.GetMatchLogRequest(match_id="m5")
        assert status(stub.GetMatchLog, unknown, SERVICE) == Code.NOT_FOUND

    def test_a_replayed_append_is_already_exists(self, stub, m1):
        assert status(stub.AppendLog, append_request(action(2)), SERVICE) == Code.OK
        replay = append_request(action(3, request_id="req-2"))
        assert status(stub.AppendLog, replay, SERVICE) == Code.ALREADY_EXISTS
        assert status(stub.AppendLog, append_request(action(9)), SERVICE) == (
            Code.FAILED_PRECONDITION)


class PlayersServiceBehaviours(Served):
    @pytest.fixture
    def players(self, channel) -> players_pb2_grpc.PlayersServiceStub:
        return players_pb2_grpc.PlayersServiceStub(channel)

    @pytest.fixture
    def ana(self, players) -> str:
        request = players_pb2.CreatePlayerRequest(display_name="Ana", external_id="u-1")
        return players.CreatePlayer(request, metadata=ACME).player.player_id

    def test_create_player_is_idempotent(self, players, ana):
        again = players.CreatePlayer(players_pb2.CreatePlayerRequest(
            display_name="Other name", external_id="u-1"), metadata=ACME).player
        assert (again.player_id, again.display_name, again.external_id) == (ana, "Ana", "u-1")

    @pytest.mark.parametrize("metadata", [(), (("x-api-key", "wrong"),), SERVICE])
    def test_players_calls_need_an_api_key(self, players, metadata, engine):
        create = players_pb2.CreatePlayerRequest(display_name="Ana", external_id="u-1")
        assert status(players.CreatePlayer, create, metadata) == Code.UNAUTHENTICATED
        issue = players_pb2.IssuePlayerTokenRequest(player_id="anyone")
        assert status(players.IssuePlayerToken, issue, metadata) == Code.UNAUTHENTICATED
        assert _players_count(engine) == 0

    @pytest.mark.parametrize("name, external_id", [
        ("", "u-2"), ("   ", "u-2"), ("x" * 65, "u-2"), ("tab\there", "u-2"), ("Bo", ""),
        ("Bo", "e" * 129)])
    def test_bad_players_are_refused(self, players, engine, name, external_id):
        request = players_pb2.CreatePlayerRequest(display_name=name, external_id=external_id)
        assert status(players.CreatePlayer, request, ACME) == Code.INVALID_ARGUMENT
        assert _players_count(engine) == 0

    @pytest.mark.parametrize("ttl, lifetime", [(0, 3600), (60, 60), (86400, 86400)])
    def test_issued_tokens_name_the_player_and_expire(self, players, channel, ana, ttl,
                                                      lifetime):
        response = players.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest(
            player_id=ana, ttl_seconds=ttl), metadata=ACME)
        assert AUTHORITY.verify(response.token) == Principal("player", ana)
        assert abs(response.expire_time.seconds - (time.time() + lifetime)) < 30
        persistence = persistence_pb2_grpc.PersistenceServiceStub(channel)
        request = pb.GetRatingRequest(player_id=ana, game_id="montanas")
        assert status(persistence.GetRating, request, bearer(response.token)) == Code.OK

    @pytest.mark.parametrize("player, ttl, metadata, code", [
        (None, 59, ACME, Code.INVALID_ARGUMENT), (None, 86401, ACME, Code.INVALID_ARGUMENT),
        (None, -1, ACME, Code.INVALID_ARGUMENT), ("", 0, ACME, Code.INVALID_ARGUMENT),
        (None, 0, GLOBEX, Code.PERMISSION_DENIED), ("nobody", 0, ACME, Code.NOT_FOUND),
    ])
    def test_tokens_are_refused(self, players, ana, player, ttl, metadata, code):
        request = players_pb2.IssuePlayerTokenRequest(
            player_id=ana if player is None else player, ttl_seconds=ttl)
        assert status(players.IssuePlayerToken, request, metadata) == code


def _players_count(engine: sa.Engine) -> int:
    with engine.connect() as conn:
        return conn.scalar(sa.select(sa.func.count()).select_from(models.Player)) or 0


class ServiceBehaviours(PersistenceServiceBehaviours, PlayersServiceBehaviours):
    """Both services; a database's test class derives from this."""
