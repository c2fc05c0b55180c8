"""The rules service's logic, free of gRPC: create, look at and act in matches.

A submitted action runs through the engine on the session's state, is appended durably to the
log (the database decides races: one record per sequence), and only then is the session
compare-and-set. See ARCHITECTURE.md, "A match's life".
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
import threading
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from partida.ai.bots import bot_names, default_bot
from partida.ai.turns import SeatSnapshot
from partida.engine import (
    Action,
    Event,
    Game,
    IllegalAction,
    LocalRng,
    Outcome,
    dealt_sides,
    get,
)
from partida.engine.errors import BadSetup, UnknownGame
from partida.persistence.hashchain import match_seal
from partida.platform import jsonio
from partida.platform.auth import Principal
from partida.platform.errors import (
    Aborted,
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ServiceError,
)
from partida.platform.validation import identifier
from partida.rules.legal_memo import LegalMemo
from partida.rules.ports import BotScheduler, Dice, Ledger, LogEntry
from partida.rules.randomness import (
    SETUP_BATCH,
    DrawnRng,
    numbered,
    replay_action,
    replay_setup,
)
from partida.rules.session import (
    MAX_MISSED,
    SeatMeta,
    Session,
    SessionStore,
    Wake,
    played_by_bots,
    seats_mark,
)

# A bot's turn takes milliseconds when all is well; one not taken after this long is queued
# again (its task may have died with a worker). Repeats are harmless: a turn's request id is
# fixed by the match version and seat.
BOT_RETRY_SECONDS = 10.0
# A match whose clock round failed (its log unreadable for now, a service it needs out of
# reach) is tried again after this long, the other matches' clocks going on meanwhile.
RETRY_FAILED_SECONDS = 5.0
# Unfinished matches asked of the ledger at once when the index is put back (the most
# ListUnfinishedMatches gives).
RESTORE_PAGE = 1000

log = logging.getLogger(__name__)

_NOT_KEPT = ("next_actions", "next_default", "next_view")

# Request ids the server makes for timed-out decisions (expire_decisions) and the bot workers
# for their turns (ai.turns.request_id). One taken first by a player's request would make
# that decision look already applied, so that it never is: a seat could stall its own
# timeouts, or a bot's turns, for ever.
TIMEOUT_PREFIX = "timeout-"
BOT_PREFIX = "bot:"


@dataclass
class Result:
    """What a submitted action returns to its seat (also cached for repeated request ids)."""

    game_id: str
    version: int
    events: list[dict[str, Any]]   # already projected for the acting seat
    outcome: dict[str, Any] | None
    to_act: list[int] = field(default_factory=list)  # who decides next
    deadline: float = 0.0
    # The acting seat's next legal actions ([id, description]) when it decides again at once.
    next_actions: list[list[str]] = field(default_factory=list)
    next_default: str = ""
    # Its view then too, when the caller keeps the turn (a bot playing on).
    next_view: dict[str, Any] | None = None
    # The seat that acted: the events are projected for it, so a repeat is answered to that
    # seat only (-1: a result cached before this was kept; the log then says whose it is).
    seat: int = -1
    bot_seats: list[int] = field(default_factory=list)  # those of to_act a bot plays

    def to_json(self) -> str:
        """Kept for an immediate repeat; without the next decision, which a repeat would
        have to read afresh anyway (the match may have moved on), to keep sessions small."""
        data = {k: v for k, v in self.__dict__.items() if k not in _NOT_KEPT}
        return jsonio.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> Result:
        return cls(**jsonio.loads(text))


@dataclass
class Look:
    """A reading of a match for one seat or a spectator."""

    session: Session
    view: dict[str, Any]
    to_act: tuple[int, ...]
    outcome: Outcome | None
    version: int      # of the view: a delayed spectator's lags behind the session's
    deadline: float   # of the decision in view (0: none, or not known)
    # The last event's sequence at `version` (0: not known): a feed opened after it brings
    # exactly what follows the view.
    last_sequence: int = 0
    actions: list[Action] = field(default_factory=list)  # only when asked for
    default: str = ""


def project(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Stored events as `seat` (None: a spectator) may see them; hidden ones are dropped."""
    out = []
    for e in events:
        seen = Event.from_dict(e).for_seat(seat)
        if seen is not None:
            out.append({"seq": e["seq"], "version": e["version"], "kind": seen.kind,
                        "data": dict(seen.data)})
    return out


def revision_note(game_id: str, played: int, now: int) -> str:
    """Why a log that does not replay here may still be honest."""
    return (f"the match was created under edition {played} of the {game_id} rules and this "
            f"server adjudicates edition {now}: a rule changed since may be why its log does "
            "not replay here")


def _replayed(game: Game, s: Session, state: Any, entry: LogEntry) -> Any:
    """The state after one more record of a match being rebuilt from its log."""
    try:
        if entry.kind == "setup":
            return replay_setup(game, s.scenario_id, len(s.seats), s.options, entry.values)
        replay_action(game, state, entry.kind, entry.seat, entry.action_id, entry.values)
        return state
    except (IllegalAction, RuntimeError) as e:
        if s.rules_revision == game.info.rules_revision:
            raise  # a log that lies, or a bug: nothing a caller can mend
        # Begun under other rules (Redis lost across an upgrade that changed them): the
        # caller is told why, not answered INTERNAL.
        raise FailedPrecondition(
            f"match {s.match_id} cannot be rebuilt from its log (record {entry.sequence}: "
            f"{e}); " + revision_note(s.game_id, s.rules_revision, game.info.rules_revision)
        ) from None


def outcome_dict(o: Outcome | None) -> dict[str, Any] | None:
    if o is None:
        return None
    return {"winners": list(o.winners), "draw": o.draw, "reason": o.reason,
            "scores": {str(k): v for k, v in o.scores.items()}}


class Matches:
    """Every operation on matches; one instance per rules process."""

    def __init__(self, sessions: SessionStore, ledger: Ledger, dice: Dice,
                 bots: BotScheduler | None = None, clock: Callable[[], float] = time.time,
                 default_timeout: int = 0, default_bot_after: int = 0,
                 on_applied: Callable[[str, str], None] = lambda game_id, kind: None,
                 on_handed: Callable[[str, str], None] = lambda game_id, why: None) -> None:
        self.sessions = sessions
        self.on_applied = on_applied  # told (game id, kind) of every action applied
        # told (game id, "asked" or "away") of every seat handed to a bot
        self.on_handed = on_handed
        self.ledger = ledger
        self.dice = dice
        self.bots = bots
        self.clock = clock
        self.default_timeout = default_timeout
        self.default_bot_after = default_bot_after  # for a match that asks for the default
        # Serializes actions on one match within this process (replicas race via the log).
        self._locks = [threading.Lock() for _ in range(256)]
        self.legal_memo = LegalMemo()

    def _lock(self, match_id: str) -> threading.Lock:
        return self._locks[zlib.crc32(match_id.encode()) % len(self._locks)]

    # ----- creation ---------------------------------------------------------------------
    def create(self, game_id: str, scenario_id: str, seats: list[SeatMeta],
               options: dict[str, Any], decision_timeout: int = 0, spectator_delay: int = 0,
               request_id: str = "", campaign_id: str = "", bot_after_missed: int = 0
               ) -> Session:
        """bot_after_missed: a player's seat missing that many decisions in a row goes to its
        bot; 0: the server's default, -1: never."""
        game = self._game(game_id)
        _check_campaign_fields(campaign_id, seats)
        try:
            scenario = game.info.scenario(scenario_id)
        except KeyError:
            raise InvalidArgument(f"game {game_id!r} has no scenario {scenario_id!r}") from None
        if not scenario.min_seats <= len(seats) <= scenario.max_seats:
            raise InvalidArgument(f"{game_id}/{scenario_id} takes {scenario.min_seats} to "
                                  f"{scenario.max_seats} seats, not {len(seats)}")
        if not 0 <= decision_timeout <= 7 * 24 * 3600 or not 0 <= spectator_delay <= 1000:
            raise InvalidArgument("decision timeout or spectator delay out of range")
        if not -1 <= bot_after_missed <= MAX_MISSED:
            raise InvalidArgument(f"bot_after_missed_decisions must be -1 (never), 0 (the "
                                  f"server's default) or up to {MAX_MISSED}")
        # The sides the set-up deals (by scenario and seat count: the conformance suite
        # checks it), known before the dice, so a campaign's check below sees them.
        for meta, side in zip(seats, dealt_sides(game_id, scenario_id, len(seats)),
                              strict=True):
            meta.side = side
        # A repeated request id names the same match, so a retried creation is harmless.
        match_id = (uuid.uuid5(uuid.NAMESPACE_URL, f"partida:{request_id}").hex if request_id
                    else uuid.uuid4().hex)
        existing = self.sessions.load(match_id)
        if existing is not None:
            return existing
        if campaign_id:  # refused before the dice stream, so a refusal leaves nothing
            self.ledger.check_campaign(Session(
                match_id=match_id, game_id=game_id, scenario_id=scenario_id, seats=seats,
                options=options, commitment="", created_at=0.0, decision_timeout=0,
                spectator_delay=0, campaign_id=campaign_id))
        # A retry after the session is gone finds the stream and the record already there;
        # its set-up is then found in the log, and the match is rebuilt from it below.
        try:
            commitment, drawn = self.dice.create_stream(match_id, SETUP_BATCH)
        except FailedPrecondition:  # revealed: an earlier call's match, over since
            return self._rebuild(match_id)
        rng = DrawnRng(numbered(*drawn), lambda n: self.dice.draw(match_id, n), SETUP_BATCH)
        try:
            state = game.new_state(scenario_id, len(seats), options, rng)
        except BadSetup as e:
            raise InvalidArgument(str(e)) from None
        session = Session(
            match_id=match_id, game_id=game_id, scenario_id=scenario_id, seats=seats,
            options=options, commitment=commitment.hex(), created_at=self.clock(),
            decision_timeout=decision_timeout or self.default_timeout,
            spectator_delay=spectator_delay, state=state.to_dict(),
            buffer=[list(p) for p in rng.buffer], campaign_id=campaign_id,
            bot_after_missed=max(0, bot_after_missed or self.default_bot_after),
            rules_revision=game.info.rules_revision)
        seal = match_seal(game_id, scenario_id, options, [m.player_id for m in seats],
                          commitment, campaign_id, game.info.rules_revision)
        setup = LogEntry(0, "setup", -1, seal, request_id, rng.positions, rng.values, [],
                         self.clock())
        blank = Session(**{**session.__dict__, "state": {}, "buffer": []})
        if not self.ledger.record_match(blank, [setup]):
            # The log holds an earlier call's set-up, or a persistence service older than
            # RecordMatch's set-up ignored it (a rolling upgrade): appending settles which.
            try:
                self.ledger.append_log(match_id, [setup])
            except AlreadyExists:
                return self._rebuild(match_id)
        if session.spectator_delay:
            session.spectator = {"version": 0, "state": session.state, "pending": [],
                                 "asked_at": setup.created_at, "event_seq": session.event_seq}
        self._arm(session, game, state)
        self.sessions.create(session)
        self._after_commit(session, game, state)
        return session

    # ----- reading ----------------------------------------------------------------------
    def session(self, match_id: str) -> Session:
        return self._session(identifier("match_id", match_id))

    def view(self, match_id: str, seat: int | None, principal: Principal | None,
             with_actions: bool = False) -> Look:
        """What `seat` (None: a spectator) sees; with its legal actions too if asked, all
        from one reading of the match, so they belong to the same version."""
        return self.look(self.session(match_id), seat, principal, with_actions)

    def look(self, s: Session, seat: int | None, principal: Principal | None,
             with_actions: bool = False) -> Look:
        """`view` of the match as read in `s` (a live feed's: that of the events it sent)."""
        game = self._game(s.game_id)
        if seat is None:
            shown, version, deadline, last_sequence = _spectators(s)
            state = game.state_from_dict(shown)
            return Look(s, game.view(state, None), game.to_act(state), game.outcome(state),
                        version, deadline, last_sequence)
        self._check_seat(s, seat, principal, acting=False)
        state = game.state_from_dict(s.state)
        look = Look(s, game.view(state, seat), game.to_act(state), game.outcome(state),
                    s.version, s.deadline, s.event_seq)
        if with_actions:
            look.actions = self._legal_actions(s, game, state, seat)
            look.default = game.default_action(state, seat) if seat in look.to_act else ""
        return look

    @staticmethod
    def version_for(s: Session, principal: Principal | None) -> int:
        """The version of `s` that `principal` may be told: the live one for a service or a
        seat's player, else the one spectators are shown (delayed, with spectator_delay)."""
        if principal is not None and (principal.is_service or any(
                meta.player_id == principal.subject for meta in s.seats)):
            return s.version
        return _spectators(s)[1]

    def legal(self, match_id: str, seat: int, principal: Principal | None
              ) -> tuple[Session, list[Any], str, tuple[int, ...]]:
        s = self.session(match_id)
        self._check_seat(s, seat, principal, acting=False)
        game = self._game(s.game_id)
        state = game.state_from_dict(s.state)
        to_act = game.to_act(state)
        actions = self._legal_actions(s, game, state, seat)
        default = game.default_action(state, seat) if seat in to_act else ""
        return s, actions, default, to_act

    def bot_state(self, match_id: str, seat: int) -> tuple[int, dict[str, Any]]:
        """A determinized state for a bot seat: its hidden parts are resampled."""
        s = self.session(match_id)
        self._seat(s, seat)
        if s.seats[seat].controller != "bot":
            raise FailedPrecondition(f"seat {seat} is not played by a bot")
        game = self._game(s.game_id)
        state = game.state_from_dict(s.state)
        det = game.determinize(state, seat, LocalRng(secrets.randbits(64)))
        return s.version, det.to_dict()

    def events(self, match_id: str, seat: int | None, principal: Principal | None,
               after_seq: int, wait_seconds: float, seen_version: int = -1,
               wake: Wake | None = None, seen_seats: str | None = None
               ) -> tuple[list[dict[str, Any]], Session, int]:
        """Events after `after_seq` as the follower may see them, read from the log when the
        live store no longer holds them, and the sequence the follower has now been served
        through (hidden events included), to go on from. With nothing new, it waits briefly
        for new ones, or for the match to move past `seen_version` (the version whose events
        and view the follower has been sent), or for a seat to change hands from
        `seen_seats` (seats_mark of the decision it was sent, if given), or for `wake`; it
        does not wait when the match is already past them."""
        s = self.session(match_id)
        if seat is not None:
            self._check_seat(s, seat, principal, acting=False)
        # A delayed spectator is behind the live events by design: it waits on the version
        # alone (its events up to the delayed one were all sent with seen_version's view).
        lagged = seat is None and s.spectator_delay > 0
        if (s.status == "active" and s.version == seen_version
                and (lagged or after_seq >= s.event_seq)
                and seen_seats in (None, seats_mark(s.seats))):
            found, complete = self.sessions.events_after(
                match_id, max(after_seq, s.event_seq), wait_seconds, seen_version, wake,
                seen_seats)
            s = self.session(match_id)  # the match as it is now, at least as far as `found`
            if lagged:  # what woke it is live: what the delay now reveals is read afresh
                found, complete = self.sessions.events_after(match_id, after_seq, 0)
        else:
            found, complete = self.sessions.events_after(match_id, after_seq, 0)
        if not complete or (after_seq < s.event_seq and not found):
            found = self._logged_events(match_id, after_seq,
                                        *self._log_window(s, seen_version, lagged))
        if not lagged and found and found[-1]["version"] > s.version:
            s = self.session(match_id)  # committed since: the view sent after is not older
        if lagged:
            shown = self._delayed_version(s)
            found = [e for e in found if e["version"] <= shown]
        return project(found, seat), s, found[-1]["seq"] if found else after_seq

    @staticmethod
    def _delayed_version(s: Session) -> int:
        """As far as the spectators' state: everything once the match is over (else a
        finished match's feed would wait forever for its last events)."""
        return (s.spectator["version"] if s.spectator is not None
                else s.version - s.spectator_delay)

    _FIRST_SPAN = 32  # entries read back first when where the follower stood is not known

    def _log_window(self, s: Session, seen_version: int, lagged: bool
                    ) -> tuple[int, int | None]:
        """The log entries first read for a follower the live store has no longer kept up:
        (after, up to) versions. From the version its events were last served to (a delayed
        spectator's lags the live one it was shown by the delay) if known, else a span back;
        up to the version it may see (None: the end)."""
        top = self._delayed_version(s) if lagged else None
        newest = s.version if top is None else top
        served = seen_version - (s.spectator_delay if lagged else 0)
        since = served if seen_version >= 0 else newest - self._FIRST_SPAN
        return max(min(since, newest - 1), -1), top

    def _logged_events(self, match_id: str, after_seq: int, bottom: int, top: int | None
                       ) -> list[dict[str, Any]]:
        """The log's events after `after_seq` in its entries after version `bottom`, up to
        `top` (None: the end), then in the entries below, read back in spans doubling each
        time, until the entries read reach the follower's last event (or the set-up): about
        what it has yet to see, not the whole log on every action."""
        span = self._FIRST_SPAN if top is None else max(top - bottom, 1)
        found: list[dict[str, Any]] = []
        while True:
            entries = self.ledger.load_entries(match_id, bottom, top)
            events = [e for entry in entries for e in entry.events]
            found = [e for e in events if e["seq"] > after_seq] + found
            # Seqs grow with the version: the entries below hold only events served already.
            if bottom < 0 or (events and events[0]["seq"] <= after_seq + 1):
                return found
            top, span = bottom, span * 2
            bottom = max(bottom - span, -1)

    # ----- acting -----------------------------------------------------------------------
    def submit(self, match_id: str, seat: int, expected_version: int, request_id: str,
               action_id: str, principal: Principal | None, keep_turn: bool = False
               ) -> Result:
        """keep_turn: the caller takes the seat's next decision itself if it is the seat's
        at once (the result carries the view then, and no bot turn is queued for it)."""
        identifier("match_id", match_id)
        _caller_request_id(request_id, principal)
        if not isinstance(action_id, str) or not action_id or len(action_id) > 512:
            raise InvalidArgument("action_id must be 1 to 512 characters")
        with self._lock(match_id):
            recent = self._recent(match_id, seat, expected_version, request_id, principal)
            if recent is None:
                live, cached = self.sessions.load_with_response(match_id, request_id)
                s = live or self._session(match_id)
            else:
                s, cached = recent
            if cached is not None:
                # A repeat carries the seat's own events: only for a caller who may read it.
                self._check_seat(s, seat, principal, acting=False)
                first = Result.from_json(cached)
                if first.seat >= 0:  # else kept before results named it: the log says below
                    _own_repeat(request_id, first.seat, seat)
                    return first
            self._check_seat(s, seat, principal, acting=True)
            try:
                return self._apply(s, seat, expected_version, request_id, action_id,
                                   "action", keep_turn)
            except Exception:
                if recent is not None:  # the copy may have been behind: read the store next
                    self.sessions.forget(match_id)
                raise

    def _recent(self, match_id: str, seat: int, expected_version: int, request_id: str,
                principal: Principal | None) -> tuple[Session, str | None] | None:
        """The session as this process last wrote or read it, if it can stand for the
        store's (whose read is a round trip to Redis per action): it answers a repeat of the
        request it last kept, or it is at the version the caller expects, active, and lets
        the caller act for the seat. A copy behind the store (another replica moved the match
        on, or handed the seat over) then fails at the log's sequence or seat check, or at
        the session's compare-and-set, and nothing of the action stands; a copy that
        refuses what the store may allow is not used."""
        recent = self.sessions.recent(match_id, request_id)
        if recent is None or recent[1] is not None:
            return recent
        s = recent[0]
        if s.status != "active" or s.version != expected_version:
            return None
        try:
            self._check_seat(s, seat, principal, acting=True)
        except ServiceError:
            return None
        return recent

    def resign(self, match_id: str, seat: int, request_id: str,
               principal: Principal | None) -> Result:
        identifier("match_id", match_id)
        _caller_request_id(request_id, principal)
        with self._lock(match_id):
            s = self._session(match_id)
            self._check_seat(s, seat, principal, acting=True)
            # A resignation is made at whatever version the match is at, so a repeat is
            # never found stale: look for it first (resigning is rare; the read is cheap).
            first = self.ledger.find_entry(s.match_id, request_id)
            if first is not None:
                return self._result_of(s, first, seat)
            return self._apply(s, seat, s.version, request_id, "resign", "resign")

    def set_controller(self, match_id: str, seat: int, controller: str, bot: str,
                       principal: Principal | None) -> SeatMeta:
        if controller not in ("human", "bot"):
            raise InvalidArgument("controller must be human or bot")
        with self._lock(match_id):
            s = self.session(match_id)
            self._check_seat(s, seat, principal, acting=False, owner_only=True)
            game = self._game(s.game_id)
            if bot and bot not in bot_names(s.game_id):  # as CreateMatch: no turn could run
                raise InvalidArgument(f"no bot {bot!r} for game {s.game_id!r}")
            meta = s.seats[seat]
            if controller == "human" and not meta.player_id:
                raise FailedPrecondition(f"seat {seat} has no player to give it back to")
            before = seats_mark(s.seats)
            _hand(s, meta, controller, bot)
            self.ledger.update_seat(match_id, seat, meta)  # durable first: rebuilds keep it
            if controller == "bot":
                self.on_handed(s.game_id, "asked")
            if not self.sessions.commit(s, s.version, [], "", "", seats_before=before):
                # Another replica moved the match on, or handed a seat over, meanwhile. The
                # change is recorded already, so it stands (ABORTED would say it had not been
                # made, and the session would change unannounced at its next rebuild): the
                # session is rebuilt from the record now.
                self.sessions.invalidate(match_id)
                s = self.session(match_id)
            state = game.state_from_dict(s.state)
            self._after_commit(s, game, state)
            self._index(s, game, state, self.clock())  # a bot now to act is watched
            return meta

    def watch_clocks(self) -> int:
        """The background round of every replica: apply what has fallen due, then put back a
        lost index (its matches are due in the next round). In that order, a ledger that
        cannot list the matches (an older persistence service) stops no clock."""
        applied = self.expire_decisions()
        self.restore_lost_index()
        return applied

    def restore_lost_index(self, page: int = RESTORE_PAGE) -> int:
        """A session store that came back empty lost the index of deadlines and bot turns with
        the sessions (and a Redis broker, the queued bot turns): a match nobody reads would
        stay where it was, its clock never running out, its bot never asked again. Every
        unfinished match is then put back in the index as due now, and `expire_decisions`
        rebuilds each from its log and carries on from there (a found-early entry is
        re-armed, so a match with nothing due costs one rebuild). Several replicas may do it
        at once, harmlessly. Returns how many matches were put back."""
        if self.sessions.index_whole():
            return 0
        now, after, restored = self.clock(), "", 0
        while True:
            found = self.ledger.unfinished_matches(after, page)
            self.sessions.set_deadlines(found, now)
            restored += len(found)
            if len(found) < page:
                break
            after = found[-1]
        self.sessions.mark_index_whole()  # last: a replica that dies before leaves it to others
        if restored:
            log.info("put %d unfinished matches back in the deadline index", restored)
        return restored

    def expire_decisions(self, limit: int = 100) -> int:
        """Apply the default action of every seat whose decision deadline has passed, and
        queue again the turn of a bot seat that has waited BOT_RETRY_SECONDS (a worker that
        died with it would otherwise hold it until the broker redelivers it)."""
        applied = 0
        now = self.clock()
        for match_id in self.sessions.due_deadlines(now, limit):
            try:
                applied += self._expire(match_id, now)
            except Exception:  # this match alone: the other clocks go on
                log.warning("the clock of match %s failed; it is tried again in %g s",
                            match_id, RETRY_FAILED_SECONDS, exc_info=True)
                self.sessions.set_deadline(match_id, now + RETRY_FAILED_SECONDS)
        return applied

    def _expire(self, match_id: str, now: float) -> int:
        """`expire_decisions` for one match due: 1 if a default was applied."""
        with self._lock(match_id):
            s, rebuilt = self._loaded(match_id, required=False)
            if s is None or s.status != "active":
                self.sessions.set_deadline(match_id, 0)
                return 0
            game = self._game(s.game_id)
            state = game.state_from_dict(s.state)
            if not s.deadline or s.deadline > now:  # not timed out: found early
                # A match rebuilt from its log lost its queued turn with the store (the
                # embedded server's local queue dies with it): asked again at once, not after
                # BOT_RETRY_SECONDS, which left the bots idle after every restart.
                if self._bot_to_act(s, game, state) and (
                        rebuilt or now - s.asked_at >= BOT_RETRY_SECONDS):
                    self._schedule_bots(s, game, state)  # a repeat is harmless
                s.indexed = 0.0  # what the index holds is past: index afresh
                self._index(s, game, state, now)
                if not s.indexed:
                    self.sessions.set_deadline(match_id, 0)
                    if rebuilt:  # nothing to wake for, nobody reading it (an index put back
                        # after a loss lists every unfinished match): the store stays as it
                        # was, not holding an idle match for IDLE_TTL
                        self.sessions.invalidate(match_id)
                return 0
            seat = game.to_act(state)[0]
            with contextlib.suppress(Aborted, AlreadyExists):
                self._apply(s, seat, s.version, f"{TIMEOUT_PREFIX}{s.version}-{seat}",
                            game.default_action(state, seat), "timeout")
                return 1
            return 0

    # ----- the one write path -------------------------------------------------------------
    def _apply(self, s: Session, seat: int, expected_version: int, request_id: str,
               action_id: str, kind: str, keep_turn: bool = False) -> Result:
        if s.status != "active" or expected_version != s.version:
            # A repeat first: that of the action that ended the match too (its cached
            # response goes with the session, e.g. on a rebuild).
            first = self.ledger.find_entry(s.match_id, request_id)
            if first is not None:
                return self._result_of(s, first, seat)
            if s.status != "active":
                raise FailedPrecondition("the match is over")
            raise Aborted(f"stale version {expected_version}: the match is at {s.version}")
        game = self._game(s.game_id)
        state = game.state_from_dict(s.state)
        rng = DrawnRng([(p[0], p[1]) for p in s.buffer],
                       lambda n: self.dice.draw(s.match_id, n))
        try:
            events = (game.resign(state, seat) if kind == "resign"
                      else game.apply(state, seat, action_id, rng,
                                      self.legal_memo.listed(s.match_id, s.version, seat)))
        except IllegalAction as e:
            raise FailedPrecondition(e.reason) from None
        version = s.version + 1
        stored = []
        for i, event in enumerate(events):
            d = event.to_dict()
            d.update(seq=s.event_seq + i + 1, version=version)
            stored.append(d)
        entry = LogEntry(version, kind, seat, action_id, request_id, rng.positions, rng.values,
                         stored, self.clock())
        try:
            # Checked against who controls the seat in the record: the seat handed over by
            # another replica since `s` was read refuses the action (Aborted) before it is
            # durable. A timed-out default is the seat's whoever controls it.
            self.ledger.append_log(s.match_id, [entry],
                                   s.seats[seat].controller if kind != "timeout" else "")
        except AlreadyExists:
            self.sessions.invalidate(s.match_id)
            first = self.ledger.find_entry(s.match_id, request_id)
            if first is not None:
                return self._result_of(s, first, seat)
            raise Aborted("another action was applied first; read the match again") from None
        try:  # the action is durable: should what follows fail, the log says where it is
            s.version, s.state, s.event_seq = version, state.to_dict(), s.event_seq + len(events)
            s.buffer = [list(p) for p in rng.buffer]
            outcome = game.outcome(state)
            if outcome is not None:
                s.status, s.outcome = "finished", outcome_dict(outcome)
                s.seed = self.dice.reveal(s.match_id).hex()
            seats_before = seats_mark(s.seats)
            handed = self._miss(s, seat, kind)
            if handed:
                self.ledger.update_seat(s.match_id, seat, s.seats[seat])  # as set_controller
            self._advance_spectator(s, game, entry)
            self._arm(s, game, state)
            to_act = list(game.to_act(state))
            result = Result(s.game_id, version, project(stored, seat), s.outcome, to_act,
                            s.deadline, seat=seat, bot_seats=played_by_bots(s.seats, to_act))
            listed: dict[int, list[Action]] = {}
            if seat in to_act and kind != "resign":
                listed[seat] = self._legal_actions(s, game, state, seat)
                result.next_actions = [[a.id, a.description] for a in listed[seat]]
                result.next_default = game.default_action(state, seat)
                if keep_turn:
                    result.next_view = game.view(state, seat)
            if outcome is not None:  # recorded before anyone can see the end in the session
                self.ledger.finish_match(s.match_id, s.outcome or {}, bytes.fromhex(s.seed),
                                         _changed_sides(game, state, s))
            if not self.sessions.commit(s, expected_version, stored, request_id, result.to_json(),
                                        seats_before):
                # Moved on, or a seat changed hands, meanwhile (read before: it must not be
                # undone): the log has the action, the record the seats; the next read rebuilds.
                self.sessions.invalidate(s.match_id)
        except Exception:
            self._rebuild_later(s.match_id)
            raise
        self.on_applied(s.game_id, kind)
        if handed:
            self.on_handed(s.game_id, "away")
        kept = seat if result.next_view is not None else None
        self._after_commit(s, game, state, listed, kept)
        return result

    @staticmethod
    def _miss(s: Session, seat: int, kind: str) -> bool:
        """Count a seat's decisions run out in a row (a timeout's), and hand a player's seat
        that has missed `s.bot_after_missed` to its bot (the player is away: the others
        should not wait out every turn of theirs); true if it was handed over. Its own
        action, whoever takes it, starts the count again."""
        meta = s.seats[seat]
        if (not meta.tally(kind, s.bot_after_missed) or meta.controller != "human"
                or s.status != "active"):
            return False
        _hand(s, meta, "bot", "")
        return True

    def _rebuild_later(self, match_id: str) -> None:
        """After a durable append whose session could not follow (the dice or persistence out
        of reach while closing the match, ...): the session goes, and the clock round rebuilds
        the match from its log in RETRY_FAILED_SECONDS, closing it if the action ended it,
        should nobody read it first. Should the store be out of reach too, a session left
        behind is found stale at the next append."""
        with contextlib.suppress(Exception):
            self.sessions.invalidate(match_id)
            self.sessions.set_deadline(match_id, self.clock() + RETRY_FAILED_SECONDS)

    def _legal_actions(self, s: Session, game: Game, state: Any, seat: int) -> list[Action]:
        """`seat`'s legal actions in `state`, which must be the logged state of `s.version`:
        remembered, so that taking one of them is not checked by listing them again."""
        actions = game.legal_actions(state, seat)
        self.legal_memo.remember(s.match_id, s.version, seat, actions)
        return actions


    @staticmethod
    def _result_of(s: Session, entry: LogEntry, seat: int) -> Result:
        """The first result of a repeated request, rebuilt from its log record."""
        _own_repeat(entry.request_id, entry.seat, seat)
        over = s.outcome if s.version == entry.sequence else None
        return Result(s.game_id, entry.sequence, project(entry.events, seat), over, seat=seat)

    def _arm(self, s: Session, game: Game, state: Any, asked_at: float | None = None) -> None:
        """Set the next decision's deadline, and index it before the session is written.
        `asked_at`: when the decision was asked, if before now (a rebuilt session's)."""
        now = self.clock()
        s.asked_at = now if asked_at is None else min(asked_at, now)
        if s.status == "active" and s.decision_timeout and game.to_act(state):
            s.deadline = s.asked_at + s.decision_timeout
        else:
            s.deadline = 0.0
        self._index(s, game, state, now)

    def _index(self, s: Session, game: Game, state: Any, now: float) -> None:
        """Make sure the deadline index wakes this match in time: at its deadline, or after
        BOT_RETRY_SECONDS while a bot seat is to act (its queued turn may have been lost).

        The index holds, per match, a time at or before the wanted one: `expire_decisions`
        re-arms an entry found early. So a later time, which is what almost every action
        sets, needs no write; only an earlier or a passed one does (and a crash after the
        index write leaves at worst an early entry)."""
        wake = s.deadline
        if self._bot_to_act(s, game, state):
            wake = min(wake or math.inf, now + BOT_RETRY_SECONDS)
        if wake and not now < s.indexed <= wake:
            self.sessions.set_deadline(s.match_id, wake)
            s.indexed = wake

    def _bot_to_act(self, s: Session, game: Game, state: Any) -> bool:
        return (self.bots is not None and s.status == "active"
                and any(s.seats[seat].controller == "bot" for seat in game.to_act(state)))

    def _after_commit(self, s: Session, game: Game, state: Any,
                      listed: dict[int, list[Action]] | None = None,
                      kept: int | None = None) -> None:
        if s.status != "active" and s.indexed:  # else an entry left goes when it falls due
            self.sessions.set_deadline(s.match_id, 0)
        self._schedule_bots(s, game, state, listed, kept)

    def _schedule_bots(self, s: Session, game: Game, state: Any,
                       listed: dict[int, list[Action]] | None = None,
                       kept: int | None = None) -> None:
        """listed: legal actions already listed for this state, by seat. kept: a seat whose
        decision the caller took on itself (keep_turn): not queued. A caller that fails goes
        on from it when retried (ai.turns.Progress); should it die holding it, or the turn
        not be queued at all (the broker out of reach), the deadline index queues it after
        BOT_RETRY_SECONDS, as a lost turn."""
        if self.bots is None or s.status != "active":
            return
        to_act = game.to_act(state)
        for seat in to_act:
            if s.seats[seat].controller == "bot" and seat != kept:  # own view only
                actions = (listed or {}).get(seat) or self._legal_actions(s, game, state, seat)
                seen = SeatSnapshot(s.version, list(to_act), game.view(state, seat), actions)
                try:
                    self.bots.schedule(s.match_id, seat, s.version, s.game_id,
                                       s.seats[seat].bot, seen)
                except Exception:  # the broker out of reach: the action that led here stands,
                    # durable, and the deadline index queues the turn again (_index)
                    log.warning("the bot turn of seat %d in match %s could not be queued; it "
                                "is asked again after %g s", seat, s.match_id,
                                BOT_RETRY_SECONDS, exc_info=True)

    # ----- spectators ---------------------------------------------------------------------
    def _advance_spectator(self, s: Session, game: Game, entry: LogEntry) -> None:
        """Keep the state `spectator_delay` actions behind for delayed spectators."""
        if not s.spectator_delay or s.spectator is None:
            return
        spec = s.spectator
        spec["pending"].append(_entry_dict(entry))
        if s.status == "finished":  # at the end everything may be shown
            spec.update(version=s.version, state=s.state, pending=[], event_seq=s.event_seq)
            return
        while len(spec["pending"]) > s.spectator_delay:
            e = spec["pending"].pop(0)
            state = game.state_from_dict(spec["state"])
            replay_action(game, state, e["kind"], e["seat"], e["action_id"], e["values"])
            # The decision now shown arose when that action was recorded (0: not known, an
            # entry pending from before the time was kept).
            spec["state"], spec["version"] = state.to_dict(), e["sequence"]
            spec["asked_at"] = e.get("created_at", 0.0)
            # Not known (None, for good) once an entry pending from before events were
            # counted has passed.
            known = spec.get("event_seq") is not None and "events" in e
            spec["event_seq"] = spec["event_seq"] + e["events"] if known else None

    # ----- loading and rebuilding ----------------------------------------------------------
    def _session(self, match_id: str, required: bool = True) -> Session:
        return self._loaded(match_id, required)[0]  # type: ignore[return-value]

    def _loaded(self, match_id: str, required: bool = True) -> tuple[Session | None, bool]:
        """The match's session, and whether it had to be rebuilt from the log (None for a
        match unknown, unless `required`: NotFound)."""
        s = self.sessions.load(match_id)
        if s is not None:
            return s, False
        try:
            return self._rebuild(match_id), True
        except NotFound:
            if required:
                raise
            return None, False

    def _rebuild(self, match_id: str) -> Session:
        """Replay the log into a fresh session (after expiry, a flush or a lost race)."""
        loaded = self.ledger.load_match(match_id)
        if loaded is None:
            raise NotFound(f"no match {match_id!r}")
        s, entries = loaded
        game = self._game(s.game_id)
        state = None
        # Delayed spectators see the state spectator_delay actions back, not the one rebuilt:
        # it is kept on the way, with the actions after it still pending.
        lagged = max((e.sequence for e in entries), default=0) - s.spectator_delay
        spectator: dict[str, Any] | None = None
        for entry in entries:
            state = _replayed(game, s, state, entry)
            if entry.kind != "setup":
                s.version, s.event_seq = entry.sequence, s.event_seq + len(entry.events)
                if entry.seat >= 0:  # the count of decisions missed in a row (_miss)
                    s.seats[entry.seat].tally(entry.kind, s.bot_after_missed)
            if s.spectator_delay and state is not None and entry.sequence == max(lagged, 0):
                spectator = {"version": entry.sequence, "state": state.to_dict(),
                             "pending": [_entry_dict(e) for e in entries
                                         if e.sequence > entry.sequence],
                             "asked_at": entry.created_at, "event_seq": s.event_seq}
        if state is None:
            raise NotFound(f"match {match_id!r} has no set-up record")
        s.state = state.to_dict()
        outcome = game.outcome(state)
        if outcome is not None and s.status != "finished":
            # The process stopped between the last action and recording the end: finish now.
            s.seed = self.dice.reveal(match_id).hex()
            self.ledger.finish_match(match_id, outcome_dict(outcome) or {}, bytes.fromhex(s.seed),
                                     _changed_sides(game, state, s))
        s.status = "finished" if outcome else "active"
        s.outcome = outcome_dict(outcome)
        if s.spectator_delay:  # at the end everything may be shown (_advance_spectator)
            s.spectator = (spectator if spectator is not None and s.status == "active"
                           else {"version": s.version, "state": s.state, "pending": [],
                                 "event_seq": s.event_seq})
        # Indexed afresh (the index may have gone with the session). The decision was asked
        # when the last record was written: its clock runs from then, not from the rebuild
        # (each rebuild would put the deadline, and a lost bot turn's retry, off again).
        self._arm(s, game, state, asked_at=entries[-1].created_at or None)
        if not self.sessions.create(s):
            current = self.sessions.load(match_id)
            if current is not None:
                return current
        return s

    # ----- checks ---------------------------------------------------------------------------
    @staticmethod
    def _game(game_id: str) -> Game:
        try:
            return get(game_id)
        except UnknownGame:
            raise InvalidArgument(f"unknown game {game_id!r}") from None

    @staticmethod
    def _seat(s: Session, seat: int) -> SeatMeta:
        if not isinstance(seat, int) or not 0 <= seat < len(s.seats):
            raise InvalidArgument(f"seat must be 0 to {len(s.seats) - 1}")
        return s.seats[seat]

    def _check_seat(self, s: Session, seat: int, principal: Principal | None, acting: bool,
                    owner_only: bool = False) -> None:
        """Only the seat's player (or, for a bot seat, a service) may use a seat."""
        meta = self._seat(s, seat)
        if principal is None:
            raise PermissionDenied("a token is required to use a seat")
        if principal.is_service:
            if acting and meta.controller != "bot":
                raise PermissionDenied(f"seat {seat} is played by its player, not a bot")
            return
        if principal.subject != meta.player_id:
            raise PermissionDenied(f"seat {seat} belongs to another player")
        if acting and not owner_only and meta.controller != "human":
            raise FailedPrecondition(f"seat {seat} is handed to a bot; take it back first")


def _hand(s: Session, meta: SeatMeta, controller: str, bot: str) -> None:
    """Give the seat to `controller`: to `bot`, or the seat's own, or the game's default one.
    Its count of missed decisions starts afresh (a player taking it back has the full count)."""
    meta.controller, meta.bot = controller, (bot or meta.bot or default_bot(s.game_id))
    meta.missed = 0


def _changed_sides(game: Game, state: Any, s: Session) -> list[str]:
    """Each seat's side at the end, if any differs from the one it was dealt (Dynamit Joe
    8.1: a seat given another side's character plays for that side, and is rated with it);
    else none (rated as dealt)."""
    sides = [game.seat_side(state, seat) for seat in range(len(s.seats))]
    return sides if sides != [m.side for m in s.seats] else []


def _caller_request_id(request_id: str, principal: Principal | None) -> None:
    """A caller's idempotency key, not one of those the server and its bots make."""
    identifier("request_id", request_id)
    service = principal is not None and principal.is_service
    for prefix in (TIMEOUT_PREFIX, BOT_PREFIX):
        if request_id.startswith(prefix) and not (prefix == BOT_PREFIX and service):
            raise InvalidArgument(f"request ids starting with {prefix!r} are reserved")


def _own_repeat(request_id: str, made_by: int, seat: int) -> None:
    """A repeat is answered to the seat that made the request only: its result carries that
    seat's own events (hidden cards and moves), and anyone may name a request id (bots' are
    predictable). From another seat it is no repeat but a request id taken: refused."""
    if made_by != seat:
        raise InvalidArgument(f"request_id {request_id!r} was another seat's")


def _check_campaign_fields(campaign_id: str, seats: list[SeatMeta]) -> None:
    """The fields' shape only: the persistence service checks them against the campaign when
    the match is recorded, before anything of it is stored."""
    identifier("campaign_id", campaign_id, required=False)
    for i, seat in enumerate(seats):
        identifier(f"seats[{i}].campaign_team", seat.campaign_team, required=False)
        if seat.campaign_team and not campaign_id:
            raise InvalidArgument(f"seat {i} has a campaign_team but the match no campaign_id")


def _entry_dict(e: LogEntry) -> dict[str, Any]:
    return {"sequence": e.sequence, "kind": e.kind, "seat": e.seat, "action_id": e.action_id,
            "values": e.values, "created_at": e.created_at, "events": len(e.events)}


def _spectators(s: Session) -> tuple[dict[str, Any], int, float, int]:
    """What spectators are shown: the state, its version, the deadline of its decision and
    the last event's sequence at that version. With spectator_delay, those of the delayed
    position, all of them: the live deadline would tell when the live decision arose, and the
    live sequence how far the match has gone, which the delay hides. The delayed decision's
    deadline is the one it had (asked when the record of its version was written), or none
    (0) where that time is not known (a session kept before it was); likewise the sequence
    (0: a position kept before it was counted): better none than a made-up one."""
    spec = s.spectator if s.spectator_delay else None
    if spec is None:
        return s.state, s.version, s.deadline, s.event_seq
    asked = spec.get("asked_at", 0.0)
    timed = asked and s.decision_timeout and s.status == "active"
    return (spec["state"], spec["version"], asked + s.decision_timeout if timed else 0.0,
            int(spec.get("event_seq") or 0))
