"""partida.v1.PersistenceService and partida.v1.PlayersService: thin gRPC layers over the store.

Every request is authenticated, then validated, then handed to the store; ServiceErrors
raised on the way become gRPC statuses in the platform's interceptor.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc
import sqlalchemy as sa

from partida.persistence import convert, models, records, validate
from partida.persistence.records import Page
from partida.persistence.store import UNFINISHED_PAGE, PersistenceStore
from partida.platform import metrics
from partida.platform.auth import Authority, Principal, require_player, require_service
from partida.platform.batch_calls import answer_each
from partida.platform.calls import caller
from partida.platform.errors import (
    InvalidArgument,
    PermissionDenied,
    ServiceError,
    Unauthenticated,
)
from partida.platform.server import Registration
from partida.v1 import persistence_pb2 as pb
from partida.v1 import persistence_pb2_grpc, players_pb2, players_pb2_grpc

DEFAULT_TTL, MIN_TTL, MAX_TTL = 3600, 60, 86400


def _anyone() -> Principal:
    """Any authenticated caller, player or service."""
    return require_player(caller())


def _page_fields(page: Page) -> dict[str, Any]:
    return {"matches": [convert.match_pb(m) for m in page.matches],
            "next_page_token": page.next_page_token}


# The store's writes, timed by TimedStore: the durable record's and the dice streams'.
WRITES = ("create_player", "record_match", "start_match", "start_matches", "update_seat",
          "append_log", "append_logs", "finish_match", "create_campaign",
          "create_stream", "create_streams", "advance", "reveal")


class TimedStore:
    """A PersistenceStore whose writes are timed (partida_persistence_write_duration_seconds
    by operation); reads pass straight through. The persistence service, the dice service
    and the embedded server's in-process ledger all write through it."""

    def __init__(self, store: PersistenceStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        """Called once per name: what it returns is kept on the instance for later calls."""
        found = getattr(self._store, name)
        if name in WRITES:
            found = _timed(found, metrics.PERSISTENCE_WRITE_DURATION.labels(name))
        setattr(self, name, found)
        return found


def _timed(write: Callable[..., Any], histogram: Any) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return write(*args, **kwargs)
        finally:
            histogram.observe(time.perf_counter() - started)
    return timed


def live_matches(engine: sa.Engine) -> Callable[[], dict[str, int]]:
    """Counts unfinished matches by game: one scan of the finished_at index."""
    query = (sa.select(models.Match.game_id, sa.func.count())
             .where(models.Match.finished_at.is_(None)).group_by(models.Match.game_id))

    def count() -> dict[str, int]:
        with engine.connect() as conn:
            return {game: int(n) for game, n in conn.execute(query)}
    return count


def _new_match(request: pb.RecordMatchRequest) -> tuple[records.Match, list[records.LogRecord]]:
    """A RecordMatch request's match and set-up (empty: none), checked."""
    if not request.HasField("match"):
        raise InvalidArgument("match is required")
    return (validate.new_match(request.match),
            validate.log_records(request.setup) if request.setup else [])


class PersistenceServicer(persistence_pb2_grpc.PersistenceServiceServicer):
    def __init__(self, store: PersistenceStore) -> None:
        self._store = store

    def RecordMatch(self, request: pb.RecordMatchRequest, context: Any) -> pb.RecordMatchResponse:
        require_service(caller())
        match, setup = _new_match(request)
        if not setup:
            self._store.record_match(match)
            return pb.RecordMatchResponse()
        return pb.RecordMatchResponse(setup_written=self._store.start_match(match, setup))

    def RecordMatches(self, request: pb.RecordMatchesRequest,
                      context: Any) -> pb.RecordMatchesResponse:
        require_service(caller())
        if not 1 <= len(request.matches) <= validate.MAX_MATCHES:
            raise InvalidArgument(f"matches must hold 1 to {validate.MAX_MATCHES} matches")
        return pb.RecordMatchesResponse(results=answer_each(
            request.matches, _new_match, self._start_all, pb.RecordMatchResult,
            lambda written: {"setup_written": written}))

    def _start_all(self, starts: list[tuple[records.Match, list[records.LogRecord]]]
                   ) -> list[bool | Exception]:
        """Whether each start wrote its set-up, or its refusal. The matches with a set-up start
        together, sharing a transaction; one without is recorded alone, as RecordMatch does."""
        written = iter(self._store.start_matches([start for start in starts if start[1]]))
        return [next(written) if setup else self._record_alone(match) for match, setup in starts]

    def _record_alone(self, match: records.Match) -> bool | Exception:
        try:
            self._store.record_match(match)
        except ServiceError as e:
            return e
        return False  # no set-up: none written

    def UpdateSeat(self, request: pb.UpdateSeatRequest, context: Any) -> pb.UpdateSeatResponse:
        require_service(caller())
        match_id = validate.identifier("match_id", request.match_id)
        if not request.HasField("seat"):
            raise InvalidArgument("seat is required")
        self._store.update_seat(match_id, validate.seat(request.seat.seat, request.seat))
        return pb.UpdateSeatResponse()

    def AppendLog(self, request: pb.AppendLogRequest, context: Any) -> pb.AppendLogResponse:
        require_service(caller())
        match_id = validate.identifier("match_id", request.match_id)
        last, digest = self._store.append_log(match_id, validate.log_records(request.records),
                                              validate.controller(request.controller))
        return pb.AppendLogResponse(last_sequence=last, last_hash=digest)

    def AppendLogs(self, request: pb.AppendLogsRequest, context: Any) -> pb.AppendLogsResponse:
        require_service(caller())
        if not 1 <= len(request.appends) <= validate.MAX_APPENDS:
            raise InvalidArgument(f"appends must hold 1 to {validate.MAX_APPENDS} appends")
        return pb.AppendLogsResponse(results=answer_each(
            request.appends, lambda append: (validate.identifier("match_id", append.match_id),
                                             validate.log_records(append.records),
                                             validate.controller(append.controller)),
            self._store.append_logs, pb.AppendLogResult,
            lambda head: {"last_sequence": head[0], "last_hash": head[1]}))

    def FinishMatch(self, request: pb.FinishMatchRequest, context: Any) -> pb.FinishMatchResponse:
        require_service(caller())
        match_id = validate.identifier("match_id", request.match_id)
        if not request.HasField("outcome"):
            raise InvalidArgument("outcome is required")
        ratings = self._store.finish_match(match_id, validate.outcome(request.outcome),
                                           validate.dice_seed(request.dice_seed),
                                           validate.final_sides(request.final_sides))
        return pb.FinishMatchResponse(ratings=[convert.rating_pb(r) for r in ratings])

    def GetMatchLog(self, request: pb.GetMatchLogRequest, context: Any) -> pb.GetMatchLogResponse:
        principal = _anyone()
        match_id = validate.identifier("match_id", request.match_id)
        # A log in play shows hidden information (hands, dice drawn) while it still matters;
        # players may read it once the match is over.
        if not principal.is_service and self._store.get_match(match_id).status != "finished":
            raise PermissionDenied("the log of a match in play is for partida services only")
        after, up_to = validate.log_range(request)
        match, log = self._store.get_match_log(match_id, after, up_to)
        return pb.GetMatchLogResponse(match=convert.match_pb(match),
                                      records=[convert.record_pb(r) for r in log])

    def FindLogRecord(self, request: pb.FindLogRecordRequest,
                      context: Any) -> pb.FindLogRecordResponse:
        require_service(caller())
        record = self._store.find_log_record(
            validate.identifier("match_id", request.match_id),
            validate.identifier("request_id", request.request_id))
        if record is None:
            return pb.FindLogRecordResponse(found=False)
        return pb.FindLogRecordResponse(found=True, record=convert.record_pb(record))

    def ListUnfinishedMatches(self, request: pb.ListUnfinishedMatchesRequest,
                              context: Any) -> pb.ListUnfinishedMatchesResponse:
        require_service(caller())
        after = validate.identifier("after_match_id", request.after_match_id, required=False)
        size = request.page_size or UNFINISHED_PAGE
        return pb.ListUnfinishedMatchesResponse(
            match_ids=self._store.unfinished_matches(after, size))

    def ListFinishedMatches(self, request: pb.ListFinishedMatchesRequest,
                            context: Any) -> pb.ListFinishedMatchesResponse:
        _anyone()
        page = self._store.list_finished(
            validate.identifier("game_id", request.game_id, required=False),
            validate.page_size(request.page_size), validate.page_token(request.page_token))
        return pb.ListFinishedMatchesResponse(**_page_fields(page))

    def GetPlayerHistory(self, request: pb.GetPlayerHistoryRequest,
                         context: Any) -> pb.GetPlayerHistoryResponse:
        _anyone()
        page = self._store.player_history(validate.identifier("player_id", request.player_id),
                                          validate.page_size(request.page_size),
                                          validate.page_token(request.page_token))
        return pb.GetPlayerHistoryResponse(**_page_fields(page))

    def GetRating(self, request: pb.GetRatingRequest, context: Any) -> pb.GetRatingResponse:
        _anyone()
        rating = self._store.get_rating(validate.identifier("player_id", request.player_id),
                                        validate.hosted_game("game_id", request.game_id))
        return pb.GetRatingResponse(rating=convert.rating_pb(rating))

    def GetRatings(self, request: pb.GetRatingsRequest, context: Any) -> pb.GetRatingsResponse:
        _anyone()
        if not 1 <= len(request.ratings) <= validate.MAX_RATINGS:
            raise InvalidArgument(f"ratings must name 1 to {validate.MAX_RATINGS} ratings")
        keys = [(validate.identifier(f"ratings[{i}].player_id", r.player_id),
                 validate.hosted_game(f"ratings[{i}].game_id", r.game_id))
                for i, r in enumerate(request.ratings)]
        return pb.GetRatingsResponse(ratings=[convert.rating_pb(r)
                                              for r in self._store.get_ratings(keys)])

    def CreateCampaign(self, request: pb.CreateCampaignRequest,
                       context: Any) -> pb.CreateCampaignResponse:
        principal = _anyone()
        game_id, teams = validate.campaign_request(request)
        integrator = ""  # a service may open any campaign
        if not principal.is_service:
            if all(principal.subject not in t.player_ids for t in teams):
                raise PermissionDenied("a player may open a campaign only for a team they are in")
            integrator = self._store.get_player(principal.subject).integrator
        campaign = self._store.create_campaign(
            validate.campaign_id(principal.subject, request.request_id), game_id,
            validate.scenario_ids(game_id), teams, integrator)
        return pb.CreateCampaignResponse(campaign=convert.campaign_pb(campaign))

    def GetCampaign(self, request: pb.GetCampaignRequest, context: Any) -> pb.GetCampaignResponse:
        _anyone()
        campaign = self._store.get_campaign(
            validate.identifier("campaign_id", request.campaign_id))
        return pb.GetCampaignResponse(campaign=convert.campaign_pb(campaign))


class PlayersServicer(players_pb2_grpc.PlayersServiceServicer):
    """Called by integrators with their API key ("x-api-key" metadata), not with tokens."""

    def __init__(self, store: PersistenceStore, authority: Authority) -> None:
        self._store = store
        self._authority = authority

    def _integrator(self, context: grpc.ServicerContext) -> str:
        key = dict(context.invocation_metadata() or ()).get("x-api-key", "")
        if not key:
            raise Unauthenticated("the x-api-key metadata is required")
        return self._authority.integrator(key)

    def CreatePlayer(self, request: players_pb2.CreatePlayerRequest,
                     context: grpc.ServicerContext) -> players_pb2.CreatePlayerResponse:
        integrator = self._integrator(context)
        name = request.display_name
        if not name.strip() or len(name) > validate.MAX_NAME or not name.isprintable():
            raise InvalidArgument(f"display_name must be 1 to {validate.MAX_NAME} printable "
                                  "characters, not only spaces")
        player = self._store.create_player(
            integrator, validate.identifier("external_id", request.external_id), name)
        return players_pb2.CreatePlayerResponse(player=players_pb2.Player(
            player_id=player.player_id, display_name=player.display_name,
            external_id=player.external_id))

    def IssuePlayerToken(self, request: players_pb2.IssuePlayerTokenRequest,
                         context: grpc.ServicerContext) -> players_pb2.IssuePlayerTokenResponse:
        integrator = self._integrator(context)
        ttl = request.ttl_seconds or DEFAULT_TTL
        if not MIN_TTL <= ttl <= MAX_TTL:
            raise InvalidArgument(f"ttl_seconds must be from {MIN_TTL} to {MAX_TTL} "
                                  f"(0: {DEFAULT_TTL})")
        player = self._store.get_player(validate.identifier("player_id", request.player_id))
        if player.integrator != integrator:
            raise PermissionDenied("the player belongs to another integrator")
        token, expires = self._authority.player_token(player.player_id, ttl)
        response = players_pb2.IssuePlayerTokenResponse(token=token)
        response.expire_time.seconds = expires
        return response


def registrations(store: PersistenceStore, authority: Authority) -> list[Registration]:
    """Both services, ready for partida.platform.server.Server."""
    return [
        Registration("partida.v1.PersistenceService", PersistenceServicer(store),
                     persistence_pb2_grpc.add_PersistenceServiceServicer_to_server),
        Registration("partida.v1.PlayersService", PlayersServicer(store, authority),
                     players_pb2_grpc.add_PlayersServiceServicer_to_server),
    ]
