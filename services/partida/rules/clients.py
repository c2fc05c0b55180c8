"""The rules service's ports over gRPC, for when dice and persistence run as their own
processes. Calls carry the rules service's token."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from partida.matchmaking.matcher import each_alone
from partida.matchmaking.pools import Proposal
from partida.persistence import records
from partida.persistence.campaigns import check_seats
from partida.persistence.convert import campaign_of
from partida.platform.batching import Batcher, Pending
from partida.platform.calls import downstream_failure
from partida.platform.errors import (
    Aborted,
    AlreadyExists,
    FailedPrecondition,
    NotFound,
    Unavailable,
    passed_on,
)
from partida.platform.service_client import ServiceClient
from partida.rules import protos
from partida.rules.ledger import seat_records
from partida.rules.ports import LogEntry, MatchPage
from partida.rules.session import SeatMeta, Session
from partida.v1 import (
    common_pb2,
    dice_pb2,
    dice_pb2_grpc,
    persistence_pb2,
    persistence_pb2_grpc,
    rules_pb2,
    rules_pb2_grpc,
)

_STATUS = {code.value[0]: code for code in grpc.StatusCode}
_CONTROLLER = {common_pb2.SEAT_CONTROLLER_HUMAN: "human", common_pb2.SEAT_CONTROLLER_BOT: "bot"}


def settle_batch(batch: list[Pending], send: Callable[[], Sequence[Any]],
                 refusal: Callable[[grpc.StatusCode | None, str], Exception] | None = None,
                 alone: Callable[[Any], Any] | None = None) -> None:
    """Gives each item of a batch its result from a call made for the whole batch, whose
    results (in the batch's order) carry a status code each. A refused item gets
    `refusal(code, message)`, by default what a failed call of its own would have raised
    through the call context (UNAVAILABLE); the call failing fails every item so. A service
    too old for the batch call (UNIMPLEMENTED, during a rolling upgrade) is asked for each
    item alone instead, by `alone(payload)`, when given."""
    try:
        results = send()
    except grpc.RpcError as e:  # each fails; its retry finds it if it was stored
        if alone is not None and e.code() == grpc.StatusCode.UNIMPLEMENTED:
            for p in batch:
                try:
                    p.result = alone(p.payload)
                except grpc.RpcError as failed:
                    p.error = Unavailable(downstream_failure(failed.code()))
            return
        for p in batch:
            p.error = Unavailable(downstream_failure(e.code()))
        return
    for p, result in zip(batch, results, strict=True):
        if result.code == 0:
            p.result = result
            continue
        code = _STATUS.get(result.code)
        p.error = (refusal(code, result.message) if refusal is not None
                   else Unavailable(downstream_failure(code)))


class DiceClient(ServiceClient):
    def __init__(self, channel: grpc.Channel, token: str, timeout: float = 5.0) -> None:
        super().__init__(dice_pb2_grpc.DiceServiceStub(channel), token, timeout)
        # Streams of matches created at the same moment go in one CreateStreams call.
        self._creates = Batcher(self._create_batch, max_batch=256)  # it takes 1000

    def create_stream(self, match_id: str, draw: int = 0
                      ) -> tuple[bytes, tuple[int, Sequence[int]]]:
        r = self._creates.run(match_id, dice_pb2.CreateStreamRequest(match_id=match_id,
                                                                     draw=draw)).stream
        return bytes(r.commitment), (r.first_position, list(r.values))

    def _create_batch(self, batch: list[Pending]) -> None:
        settle_batch(batch, lambda: self.call("CreateStreams", dice_pb2.CreateStreamsRequest(
            streams=[p.payload for p in batch])).results, stream_refusal,
            alone=lambda one: dice_pb2.CreateStreamResult(stream=self.call("CreateStream", one)))

    def draw(self, match_id: str, count: int) -> tuple[int, Sequence[int]]:
        r = self.call("Draw", dice_pb2.DrawRequest(match_id=match_id, count=count))
        return r.first_position, list(r.values)

    def reveal(self, match_id: str) -> bytes:
        return bytes(self.call("Reveal", dice_pb2.RevealRequest(match_id=match_id)).seed)


def session_from_proto(m: common_pb2.Match) -> Session:
    return Session(
        match_id=m.match_id, game_id=m.game_id, scenario_id=m.scenario_id,
        seats=[SeatMeta(s.player_id, _CONTROLLER.get(s.controller, "human"), s.bot,
                        s.campaign_team, s.side) for s in m.seats],
        options=json.loads(m.options_json or "{}"), commitment=m.dice_commitment.hex(),
        created_at=m.create_time.ToNanoseconds() / 1e9,
        decision_timeout=m.decision_timeout_seconds, spectator_delay=m.spectator_delay_actions,
        status="finished" if m.status == common_pb2.MATCH_STATUS_FINISHED else "active",
        outcome=protos.outcome_of(m), seed=m.dice_seed.hex(), campaign_id=m.campaign_id,
        bot_after_missed=m.bot_after_missed_decisions, rules_revision=protos.edition_of(m))


def record_to_proto(e: LogEntry) -> persistence_pb2.LogRecord:
    return persistence_pb2.LogRecord(
        sequence=e.sequence, seat=e.seat, action_id=e.action_id, request_id=e.request_id,
        random_positions=e.positions, random_values=e.values, kind=e.kind,
        events_json=json.dumps(e.events, separators=(",", ":")))


def record_from_proto(r: persistence_pb2.LogRecord) -> LogEntry:
    return LogEntry(r.sequence, r.kind, r.seat, r.action_id, r.request_id,
                    list(r.random_positions), list(r.random_values), json.loads(r.events_json),
                    r.create_time.ToNanoseconds() / 1e9, bytes(r.hash), bytes(r.prev_hash))


def _get_campaign(client: ServiceClient, campaign_id: str) -> persistence_pb2.Campaign:
    """PersistenceService.GetCampaign, NOT_FOUND raised as the platform's NotFound."""
    try:
        return client.call("GetCampaign", persistence_pb2.GetCampaignRequest(
            campaign_id=campaign_id)).campaign
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.NOT_FOUND:
            raise NotFound(str(e.details())) from None
        raise


def _refusal_keeping(kept: dict[grpc.StatusCode, Callable[[str], Exception]]
                     ) -> Callable[[grpc.StatusCode | None, str], Exception]:
    """A batch item's refusal: the error `kept` gives its status, which the caller acts on;
    any other as a failed call of its own would be (UNAVAILABLE)."""
    def refusal(code: grpc.StatusCode | None, message: str) -> Exception:
        error = kept.get(code) if code is not None else None
        return error(message) if error is not None else Unavailable(downstream_failure(code))
    return refusal


# Another writer got there first; the seat changed hands since the session was read.
append_refusal = _refusal_keeping({grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
                                   grpc.StatusCode.ABORTED: Aborted})
# The stream is revealed: the match was made by an earlier call and has ended since.
stream_refusal = _refusal_keeping({grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition})


class LedgerClient(ServiceClient):
    def __init__(self, channel: grpc.Channel, token: str, timeout: float = 5.0) -> None:
        super().__init__(persistence_pb2_grpc.PersistenceServiceStub(channel), token, timeout)
        self._appends = Batcher(self._append_batch, max_batch=256)  # AppendLogs takes 1000
        # Matches created at the same moment are recorded in one RecordMatches call.
        self._records = Batcher(self._record_batch, max_batch=256)  # it takes 1000

    def record_match(self, session: Session, setup: list[LogEntry]) -> bool:
        reply = self._records.run(session.match_id, persistence_pb2.RecordMatchRequest(
            match=protos.match(session), setup=[record_to_proto(e) for e in setup]))
        return bool(reply.setup_written)

    def _record_batch(self, batch: list[Pending]) -> None:
        settle_batch(
            batch, lambda: self.call("RecordMatches", persistence_pb2.RecordMatchesRequest(
                matches=[p.payload for p in batch])).results,
            alone=lambda one: persistence_pb2.RecordMatchResult(
                setup_written=self.call("RecordMatch", one).setup_written))

    def check_campaign(self, session: Session) -> None:
        check_seats(campaign_of(_get_campaign(self, session.campaign_id)), session.game_id,
                    session.scenario_id, seat_records(session), session.match_id,
                    whole=True)

    def append_log(self, match_id: str, entries: list[LogEntry], controller: str = "") -> None:
        """Durable when it returns. Appends from concurrent actions travel together in one
        AppendLogs call (platform/batching), each kept or refused alone."""
        self._appends.run(match_id, persistence_pb2.AppendLogRequest(
            match_id=match_id, records=[record_to_proto(e) for e in entries],
            controller=controller))

    def _append_batch(self, batch: list[Pending]) -> None:
        settle_batch(batch, lambda: self.call("AppendLogs", persistence_pb2.AppendLogsRequest(
            appends=[p.payload for p in batch])).results, append_refusal)

    def finish_match(self, match_id: str, outcome: dict[str, Any], seed: bytes,
                     final_sides: Sequence[str] = ()) -> None:
        self.call("FinishMatch", persistence_pb2.FinishMatchRequest(
            match_id=match_id, outcome=protos.outcome(outcome), dice_seed=seed,
            final_sides=final_sides))

    def update_seat(self, match_id: str, index: int, seat: SeatMeta) -> None:
        self.call("UpdateSeat", persistence_pb2.UpdateSeatRequest(
            match_id=match_id, seat=protos.seat(index, seat)))

    def load_match(self, match_id: str) -> tuple[Session, list[LogEntry]] | None:
        try:
            r = self.call("GetMatchLog", persistence_pb2.GetMatchLogRequest(match_id=match_id))
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.NOT_FOUND:
                return None
            raise
        return session_from_proto(r.match), [record_from_proto(x) for x in r.records]

    def load_entries(self, match_id: str, after_version: int, up_to_version: int | None
                     ) -> list[LogEntry]:
        request = persistence_pb2.GetMatchLogRequest(match_id=match_id)
        if after_version >= 0:  # else from the set-up: unbounded
            request.after_sequence = after_version
        if up_to_version is not None:
            request.up_to_sequence = max(up_to_version, 0)  # below 0: none, cut below
        try:
            r = self.call("GetMatchLog", request)
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.NOT_FOUND:
                return []
            raise
        # A persistence service older than the bounds answers the whole log: cut it here.
        return [record_from_proto(x) for x in r.records if after_version < x.sequence and (
            up_to_version is None or x.sequence <= up_to_version)]

    def find_entry(self, match_id: str, request_id: str) -> LogEntry | None:
        r = self.call("FindLogRecord", persistence_pb2.FindLogRecordRequest(
            match_id=match_id, request_id=request_id))
        return record_from_proto(r.record) if r.found else None

    def unfinished_matches(self, after_match_id: str, limit: int) -> list[str]:
        return list(self.call("ListUnfinishedMatches", persistence_pb2.ListUnfinishedMatchesRequest(
            after_match_id=after_match_id, page_size=limit)).match_ids)

    def player_matches(self, player_id: str, page_size: int, page_token: str) -> MatchPage:
        r = self.call("GetPlayerHistory", persistence_pb2.GetPlayerHistoryRequest(
            player_id=player_id, page_size=page_size, page_token=page_token))
        return MatchPage([session_from_proto(m) for m in r.matches], r.next_page_token)


class RulesCreator(ServiceClient):
    """Matchmaking's way to create matches in a remote rules service."""

    def __init__(self, channel: grpc.Channel, token: str, timeout: float = 10.0) -> None:
        super().__init__(rules_pb2_grpc.RulesServiceStub(channel), token, timeout)

    def create_matches(self, proposals: Sequence[Proposal]) -> list[str | Exception]:
        try:
            reply = self.call("CreateMatches", rules_pb2.CreateMatchesRequest(
                matches=[_create_request(p) for p in proposals]))
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNIMPLEMENTED:
                raise
            # A rules service older than CreateMatches (a rolling upgrade): one at a time.
            return each_alone(lambda p: str(self.call("CreateMatch", _create_request(p))
                                            .match.match_id), proposals)
        return [str(r.match.match_id) if r.code == 0
                else passed_on(_STATUS.get(r.code, grpc.StatusCode.UNKNOWN), r.message)
                for r in reply.results]


def _create_request(p: Proposal) -> rules_pb2.CreateMatchRequest:
    return rules_pb2.CreateMatchRequest(
        game_id=p.game_id, scenario_id=p.scenario_id, request_id=p.request_id,
        campaign_id=p.campaign_id,
        seats=[rules_pb2.SeatRequest(player_id=player or "", bot=bot or "", campaign_team=team)
               for (player, bot), team in zip(p.seats, p.teams, strict=True)])


class PersistenceRatings(ServiceClient):
    """Matchmaking's way to read ratings from a remote persistence service. Reads asked for
    together (tickets opened at the same time) travel in one GetRatings call."""

    def __init__(self, channel: grpc.Channel, token: str, timeout: float = 5.0) -> None:
        super().__init__(persistence_pb2_grpc.PersistenceServiceStub(channel), token, timeout)
        self._reads = Batcher(self._read_batch, max_batch=500)  # GetRatings takes 1000

    def rating(self, player_id: str, game_id: str) -> float:
        return float(self._reads.run(game_id, persistence_pb2.GetRatingRequest(
            player_id=player_id, game_id=game_id)))

    def _read_batch(self, batch: list[Pending]) -> None:
        # A failed call fails every read of the batch (the servicer answers UNAVAILABLE).
        reply = self.call("GetRatings", persistence_pb2.GetRatingsRequest(
            ratings=[p.payload for p in batch]))
        for p, rating in zip(batch, reply.ratings, strict=True):
            p.result = rating.rating

    def campaign(self, campaign_id: str) -> records.Campaign:
        return campaign_of(_get_campaign(self, campaign_id))
