"""RulesService over gRPC: validation and conversion around `Matches`, and the metrics of
what `Matches` does."""

from __future__ import annotations

import contextvars
import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc

from partida.engine import Action, all_games
from partida.platform import jsonio, metrics
from partida.platform.auth import require_player, require_service
from partida.platform.calls import caller, failure_status, unexpected_status
from partida.platform.errors import InvalidArgument, OutOfRange, ServiceError
from partida.rules import protos
from partida.rules.matches import Matches
from partida.rules.session import SeatMeta, Session, Wake, played_by_bots, seats_mark
from partida.v1 import common_pb2, rules_pb2, rules_pb2_grpc

# How long a live feed waits on a quiet match before it looks again. A feed whose caller
# goes away is woken at once (session.Wake), so this only sets the cost of idle feeds.
STREAM_WAIT_SECONDS = 20.0
MAX_SEATS = 16
MAX_CREATES = 100  # matches per CreateMatches call
CREATORS = 16  # matches of CreateMatches calls created at once, in all


def _decision(s: Session, to_act: Sequence[int], deadline: float) -> common_pb2.Decision:
    """Who of `s` must act, by when, and which of them its bots play."""
    return protos.decision(to_act, deadline, played_by_bots(s.seats, to_act))


def _seat_arg(request: Any) -> int | None:
    return request.seat if request.HasField("seat") else None


def _options(text: str) -> dict[str, Any]:
    if not text:
        return {}
    try:  # strict JSON: no NaN or Infinity (persistence refuses them), bounded nesting
        value = jsonio.loads(text)
    except ValueError as e:
        raise InvalidArgument(f"options_json is not valid JSON: {e}") from None
    if not isinstance(value, dict):
        raise InvalidArgument("options_json must be a JSON object")
    return value


def _outcome(create: Callable[[Any], Any], request: Any) -> Any:
    """One match of CreateMatches: created, or refused with the status CreateMatch would
    answer (an unexpected failure too: it fails this match alone, not the whole call)."""
    try:
        return rules_pb2.CreateMatchResult(match=create(request))
    except (ServiceError, grpc.RpcError) as e:
        code, message = failure_status(e)
    except Exception as e:
        code, message = unexpected_status(e)
    return rules_pb2.CreateMatchResult(code=code.value[0], message=message)


def count_applied(game_id: str, kind: str) -> None:
    """Matches' `on_applied` hook: actions applied by game and kind (players' and bots'
    submissions, resignations and timed-out decisions; a repeat is not applied again)."""
    metrics.ACTIONS_APPLIED.labels(game_id, kind).inc()
    if kind == "timeout":
        metrics.DECISIONS_TIMED_OUT.labels(game_id).inc()


def count_handed(game_id: str, why: str) -> None:
    """Matches' `on_handed` hook: seats handed to bots, by game and why."""
    metrics.SEATS_HANDED_TO_BOTS.labels(game_id, why).inc()


class RulesServicer(rules_pb2_grpc.RulesServiceServicer):
    def __init__(self, matches: Matches, bot_names: Any = None) -> None:
        self.matches = matches
        self._creators = ThreadPoolExecutor(CREATORS, thread_name_prefix="create")
        self._bot_names: Callable[[str], list[str]] = bot_names or (lambda game_id: [])

    def ListGames(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return rules_pb2.ListGamesResponse(
            games=[protos.game_info(g.info, self._bot_names(g.info.id)) for g in all_games()])

    def CreateMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        require_service(caller())
        return rules_pb2.CreateMatchResponse(match=self._create(request))

    def CreateMatches(self, request: Any, context: Any) -> Any:  # noqa: N802
        require_service(caller())
        if not 1 <= len(request.matches) <= MAX_CREATES:
            raise InvalidArgument(f"matches must hold 1 to {MAX_CREATES} matches")
        # Side by side, so that their calls to the dice and persistence services travel
        # together (the clients batch what arrives at once); each in the caller's context.
        made = [self._creators.submit(contextvars.copy_context().run, _outcome, self._create, m)
                for m in request.matches]
        return rules_pb2.CreateMatchesResponse(results=[f.result() for f in made])

    def _create(self, request: Any) -> Any:
        """CreateMatch's work: the match created, or the refusal raised."""
        if not 1 <= len(request.seats) <= MAX_SEATS:
            raise InvalidArgument(f"a match has 1 to {MAX_SEATS} seats")
        seats = []
        for i, sr in enumerate(request.seats):
            if bool(sr.player_id) == bool(sr.bot):
                raise InvalidArgument(f"seat {i} needs exactly one of player_id and bot")
            if sr.bot and sr.bot not in self._bot_names(request.game_id):
                raise InvalidArgument(f"no bot {sr.bot!r} for game {request.game_id!r}")
            seats.append(SeatMeta(sr.player_id, "bot" if sr.bot else "human", sr.bot,
                                  sr.campaign_team))
        s = self.matches.create(request.game_id, request.scenario_id, seats,
                                _options(request.options_json), request.decision_timeout_seconds,
                                request.spectator_delay_actions, request.request_id,
                                campaign_id=request.campaign_id,
                                bot_after_missed=request.bot_after_missed_decisions)
        return protos.match(s, bytes.fromhex(s.seed))

    def GetMatch(self, request: Any, context: Any) -> Any:  # noqa: N802
        principal = require_player(caller())
        s = self.matches.session(request.match_id)
        return rules_pb2.GetMatchResponse(match=protos.match(
            s, bytes.fromhex(s.seed), self.matches.version_for(s, principal)))

    def GetView(self, request: Any, context: Any) -> Any:  # noqa: N802
        principal = require_player(caller())
        look = self.matches.view(request.match_id, _seat_arg(request), principal,
                                 with_actions=request.include_actions)
        s = look.session
        typed = not request.json_only
        response = rules_pb2.GetViewResponse(
            view=protos.view(s.game_id, look.version, look.view, typed),
            decision=_decision(s, look.to_act, look.deadline),
            actions=[protos.action(s.game_id, a, typed) for a in look.actions],
            default_action_id=look.default, last_sequence=look.last_sequence)
        if look.outcome is not None:
            response.outcome.CopyFrom(protos.outcome(look.outcome))
        return response

    def ListLegalActions(self, request: Any, context: Any) -> Any:  # noqa: N802
        s, actions, default, to_act = self.matches.legal(request.match_id, request.seat,
                                                         require_player(caller()))
        return rules_pb2.ListLegalActionsResponse(
            version=s.version, actions=[protos.action(s.game_id, a) for a in actions],
            default_action_id=default, decision=_decision(s, to_act, s.deadline))

    def SubmitAction(self, request: Any, context: Any) -> Any:  # noqa: N802
        principal = require_player(caller())
        typed_action = request.action.WhichOneof("game")
        game_id = self.matches.session(request.match_id).game_id if typed_action else ""
        action_id = protos.action_id(game_id, request.action)
        result = self.matches.submit(request.match_id, request.seat, request.expected_version,
                                     request.request_id, action_id, principal,
                                     request.keep_turn)
        typed = not request.json_only
        response = rules_pb2.SubmitActionResponse(
            version=result.version,
            events=[protos.event(result.game_id, e, typed) for e in result.events],
            decision=protos.decision(result.to_act, result.deadline, result.bot_seats),
            next_actions=[protos.action(result.game_id, Action(*a), typed)
                          for a in result.next_actions],
            next_default_action_id=result.next_default)
        if result.outcome is not None:
            response.outcome.CopyFrom(protos.outcome(result.outcome))
        if result.next_view is not None:
            response.next_view.CopyFrom(protos.view(result.game_id, result.version,
                                                    result.next_view, typed))
        return response

    def StreamMatch(self, request: Any, context: Any) -> Iterator[Any]:  # noqa: N802
        principal = require_player(caller())
        seat = _seat_arg(request)
        if request.after_sequence < 0:
            raise InvalidArgument("after_sequence must not be negative")
        after = request.after_sequence
        shown = -1  # the version whose events, view and decision the stream last sent
        seats = None  # who played each seat then (seats_mark): a change is sent too
        gone = Wake()
        context.add_callback(gone.set)  # the caller went away: stop waiting, free the thread
        while context.is_active():
            # `after` moves past the events hidden from the follower too: else it would
            # read them again and again, never waiting, and never end after the last one.
            events, s, after = self.matches.events(request.match_id, seat, principal, after,
                                                   STREAM_WAIT_SECONDS, shown, gone, seats)
            if request.after_sequence > s.event_seq and (seat is not None
                                                         or not s.spectator_delay):
                # A client's mistake: the events to come up to it would be skipped unsaid. Not
                # told to a delayed spectator: asking would find how far the live match is.
                raise OutOfRange(f"after_sequence {request.after_sequence} is past the "
                                 "match's last event")
            for e in events:
                yield rules_pb2.StreamMatchResponse(event=protos.event(s.game_id, e))
            # An action may produce no event (e.g. a ¿Pasarán? seat ending its segment) and
            # still hand the decision over: the wait also ends when the version moves, and
            # a moved version's view and decision are sent.
            # A seat handed to a bot or taken back changes the decision's bot_seats alone.
            now = seats_mark(s.seats)
            if events or s.version != shown or now != seats:
                # Of the reading the events were read against (a later one may be newer: its
                # events, for a delayed spectator those it reveals, would then wait unsent).
                look = self.matches.look(s, seat, principal)
                shown, seats = s.version, now
                # A delayed spectator's view and decision are those of the lagging state.
                yield rules_pb2.StreamMatchResponse(
                    view=protos.view(s.game_id, look.version, look.view),
                    decision=_decision(s, look.to_act, look.deadline))
            if s.status == "finished" and after >= s.event_seq and not events:
                return
            # Nothing kept across the next wait: a process follows up to thousands of feeds,
            # and every full garbage collection scans what each waiting feed holds.
            events = s = look = None  # type: ignore[assignment]

    def Resign(self, request: Any, context: Any) -> Any:  # noqa: N802
        result = self.matches.resign(request.match_id, request.seat, request.request_id,
                                     require_player(caller()))
        response = rules_pb2.ResignResponse(version=result.version)
        if result.outcome is not None:
            response.outcome.CopyFrom(protos.outcome(result.outcome))
        return response

    def SetSeatController(self, request: Any, context: Any) -> Any:  # noqa: N802
        controller = {common_pb2.SEAT_CONTROLLER_HUMAN: "human",
                      common_pb2.SEAT_CONTROLLER_BOT: "bot"}.get(request.controller)
        if controller is None:
            raise InvalidArgument("controller must be HUMAN or BOT")
        meta = self.matches.set_controller(request.match_id, request.seat, controller,
                                           request.bot, require_player(caller()))
        return rules_pb2.SetSeatControllerResponse(seat=protos.seat(request.seat, meta))

    def ListPlayerMatches(self, request: Any, context: Any) -> Any:  # noqa: N802
        principal = require_player(caller())
        if not 0 <= request.page_size <= 100:
            raise InvalidArgument("page_size must be 0 to 100")
        page = self.matches.ledger.player_matches(principal.subject, request.page_size or 20,
                                                  request.page_token)
        return rules_pb2.ListPlayerMatchesResponse(
            matches=[protos.match(m, bytes.fromhex(m.seed)) for m in page.matches],
            next_page_token=page.next_page_token)

    def GetBotState(self, request: Any, context: Any) -> Any:  # noqa: N802
        require_service(caller())
        version, state = self.matches.bot_state(request.match_id, request.seat)
        return rules_pb2.GetBotStateResponse(version=version, state_json=json.dumps(state))
