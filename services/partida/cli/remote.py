"""A player's connection to a partida server over gRPC: log in with an integrator's API key,
then call the services with the player's token."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

import grpc

from partida.platform.auth import TokenExpired
from partida.platform.errors import reason_of
from partida.v1 import (
    common_pb2,
    dice_pb2,
    dice_pb2_grpc,
    matchmaking_pb2,
    matchmaking_pb2_grpc,
    persistence_pb2,
    persistence_pb2_grpc,
    players_pb2,
    players_pb2_grpc,
    rules_pb2,
    rules_pb2_grpc,
)


class Backoff:
    """The tries of one call: the waits between those the server refuses as UNAVAILABLE,
    growing, spread out (clients not in step), until `seconds` have passed; and whether the
    token was renewed for it already (once only: a new token refused is final)."""

    def __init__(self, seconds: float) -> None:
        self.pause, self.give_up = 0.05, time.monotonic() + seconds
        self.waits = 0
        self.renewed = False

    def over(self) -> bool:
        return time.monotonic() > self.give_up

    def wait(self) -> None:
        time.sleep(self.pause * (0.5 + random.random()))
        self.pause = min(self.pause * 2, 2.0)
        self.waits += 1


@dataclass
class Seat:
    match_id: str
    seat: int


class Remote:
    """Stubs for every service, with the player's token attached. All services answer at
    `address` unless `addresses` names another one for a service ("rules", "matchmaking",
    "persistence", "dice"; the players service lives with persistence)."""

    def __init__(self, address: str, timeout: float = 15.0,
                 addresses: dict[str, str] | None = None) -> None:
        channels: dict[str, grpc.Channel] = {}

        def channel(service: str) -> grpc.Channel:
            where = (addresses or {}).get(service, address)
            if where not in channels:
                # Whatever the server sends (its own limit caps it): a long match's log is
                # one response, and gRPC's default refuses any over 4 MB.
                channels[where] = grpc.insecure_channel(
                    where, options=[("grpc.max_receive_message_length", -1)])
            return channels[where]

        self.rules = rules_pb2_grpc.RulesServiceStub(channel("rules"))
        self.matchmaking = matchmaking_pb2_grpc.MatchmakingServiceStub(channel("matchmaking"))
        self.persistence = persistence_pb2_grpc.PersistenceServiceStub(channel("persistence"))
        self.players = players_pb2_grpc.PlayersServiceStub(channel("persistence"))
        self.dice = dice_pb2_grpc.DiceServiceStub(channel("dice"))
        self._channels = channels
        self.timeout = timeout
        self.metadata: tuple[tuple[str, str], ...] = ()
        self.player_id = ""
        self._login: tuple[str, str] | None = None  # (api key, name) to renew the token with
        # How long a call refused as UNAVAILABLE (the server busy, restarting or briefly out
        # of its stores: "retry") is repeated with backoff; `on_retry` hears of each outage
        # once (see `_again`). Every call the client makes may be repeated: SubmitAction
        # with its request id, so an action is applied at most once.
        self.retry_seconds = 0.0
        self.on_retry: Callable[[grpc.RpcError], None] | None = None
        self.outage = False  # on_retry heard of the current one; the next answer ends it

    def login(self, api_key: str, name: str) -> str:
        """Create (or find) the player `name` of the integrator and take a token for it."""
        player_id = self.player_id_of(api_key, name)
        token = self.players.IssuePlayerToken(
            players_pb2.IssuePlayerTokenRequest(player_id=player_id),
            metadata=(("x-api-key", api_key),), timeout=self.timeout).token
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.player_id = player_id
        self._login = (api_key, name)
        return player_id

    def renewed(self, e: grpc.RpcError) -> bool:
        """Whether `e` refused the token as expired and a new one was taken: a token lasts an
        hour, a match in the terminal may last longer. Told by the refusal's reason, not its
        wording, which may change."""
        if (self._login is None or e.code() != grpc.StatusCode.UNAUTHENTICATED
                or reason_of(e) != TokenExpired.reason):
            return False
        self.login(*self._login)
        return True

    def close(self) -> None:
        for ch in self._channels.values():
            ch.close()

    def call(self, stub: Any, method: str, request: Any) -> Any:
        tries = Backoff(self.retry_seconds)
        while True:
            try:
                answer = getattr(stub, method)(request, metadata=self.metadata,
                                               timeout=self.timeout)
            except grpc.RpcError as e:
                if not self._again(e, tries):
                    raise
            else:
                self.outage = False
                return answer

    def _again(self, e: grpc.RpcError, tries: Backoff) -> bool:
        """Whether to try again after `e` (a refused token or an UNAVAILABLE changed
        nothing): once the token is renewed, or the wait for the server is over."""
        if not tries.renewed and self.renewed(e):
            tries.renewed = True
            return True
        if e.code() != grpc.StatusCode.UNAVAILABLE or tries.over():
            return False
        # Told once per outage, whichever call meets it first, and only once a retry is
        # refused too: a feed the outage broke says so only when read again, maybe after
        # the server is back (the player was at the prompt), and is followed again at once.
        if tries.waits and not self.outage:
            self.outage = True
            if self.on_retry is not None:
                self.on_retry(e)
        tries.wait()
        return True

    def player_id_of(self, api_key: str, name: str) -> str:
        """The id of the integrator's player `name` (created if new), e.g. a team mate's."""
        return str(self.players.CreatePlayer(
            players_pb2.CreatePlayerRequest(display_name=name, external_id=name),
            metadata=(("x-api-key", api_key),), timeout=self.timeout).player.player_id)

    def find_match(self, game: str, scenario: str, seats: int, fill_with_bots: bool,
                   request_id: str, campaign_id: str = "", team: str = "",
                   retry_seconds: float = 30.0) -> Iterator[Any]:
        """Open a ticket (in a campaign, for `team`, if one is named) and yield its states
        until it is assigned (or ends otherwise). While the server answers UNAVAILABLE (no
        free stream, or restarting) the seek is repeated with backoff for up to
        `retry_seconds`; the same request id follows the same ticket."""
        request = matchmaking_pb2.SeekMatchRequest(ticket=matchmaking_pb2.CreateTicketRequest(
            game_id=game, scenario_id=scenario, seats=seats, fill_with_bots=fill_with_bots,
            request_id=request_id, campaign_id=campaign_id, campaign_team=team))
        pause, give_up = 0.05, time.monotonic() + retry_seconds
        while True:
            try:
                for item in self.matchmaking.SeekMatch(request, metadata=self.metadata):
                    yield item.ticket
                return
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > give_up:
                    raise
            time.sleep(pause * (0.5 + random.random()))  # spread out, not in step
            pause = min(pause * 2, 2.0)

    def view(self, match_id: str, seat: int | None) -> tuple[int, dict[str, Any], list[int],
                                                             Any]:
        r = self.look(match_id, seat)
        return (r.view.version, json.loads(r.view.data_json), list(r.decision.seats),
                r.outcome if r.HasField("outcome") else None)

    def match(self, match_id: str) -> Any:
        """The match's public summary (GetMatch): its game, seats and status."""
        return self.call(self.rules, "GetMatch",
                         rules_pb2.GetMatchRequest(match_id=match_id)).match

    def take_back(self, match_id: str, seat: int) -> Any:
        """Give the player's seat, handed to a bot, back to the player; the seat as it is."""
        return self.call(self.rules, "SetSeatController", rules_pb2.SetSeatControllerRequest(
            match_id=match_id, seat=seat, controller=common_pb2.SEAT_CONTROLLER_HUMAN)).seat

    def look(self, match_id: str, seat: int | None, with_actions: bool = False) -> Any:
        """The GetView response; with the seat's legal actions too if asked."""
        request = rules_pb2.GetViewRequest(match_id=match_id, include_actions=with_actions)
        if seat is not None:
            request.seat = seat
        return self.call(self.rules, "GetView", request)

    def legal(self, match_id: str, seat: int) -> Any:
        return self.call(self.rules, "ListLegalActions",
                         rules_pb2.ListLegalActionsRequest(match_id=match_id, seat=seat))

    def submit(self, match_id: str, seat: int, version: int, request_id: str,
               action_id: str) -> Any:
        return self.call(self.rules, "SubmitAction", rules_pb2.SubmitActionRequest(
            match_id=match_id, seat=seat, expected_version=version, request_id=request_id,
            action=common_pb2.Action(action_id=action_id)))

    def stream(self, match_id: str, seat: int | None, after: int = 0) -> Any:
        """The live feed (StreamMatch): iterate it; cancel() it to stop following early."""
        request = rules_pb2.StreamMatchRequest(match_id=match_id, after_sequence=after)
        if seat is not None:
            request.seat = seat
        return self.rules.StreamMatch(request, metadata=self.metadata)

    def follow(self, match_id: str, seat: int | None, after: int = 0) -> Generator[Any, None, None]:
        """The live feed, followed again from its last event when the server refuses or drops
        it as UNAVAILABLE (busy or restarting: retried as `call` does, `retry_seconds`
        counted from the last item) or once the token expires (renewed). Ends where the feed
        ends; close() it to stop following early."""
        tries = Backoff(self.retry_seconds)
        while True:
            feed = self.stream(match_id, seat, after)
            try:
                for item in feed:
                    if item.HasField("event"):
                        after = item.event.sequence
                    tries = Backoff(self.retry_seconds)
                    self.outage = False
                    yield item
                return
            except grpc.RpcError as e:
                if not self._again(e, tries):
                    raise
            finally:
                feed.cancel()

    def match_log(self, match_id: str) -> Any:
        return self.call(self.persistence, "GetMatchLog",
                         persistence_pb2.GetMatchLogRequest(match_id=match_id))

    def open_campaign(self, game: str, teams: dict[str, list[str]], request_id: str) -> Any:
        """A new campaign of `game` between `teams` (team name -> player ids)."""
        return self.call(self.persistence, "CreateCampaign", persistence_pb2.CreateCampaignRequest(
            game_id=game, request_id=request_id,
            teams=[persistence_pb2.CampaignTeam(name=name, player_ids=ids)
                   for name, ids in teams.items()])).campaign

    def campaign(self, campaign_id: str) -> Any:
        return self.call(self.persistence, "GetCampaign", persistence_pb2.GetCampaignRequest(
            campaign_id=campaign_id)).campaign

    def dice_stream(self, match_id: str) -> Any:
        return self.call(self.dice, "GetStream", dice_pb2.GetStreamRequest(match_id=match_id))
