"""PersistenceStore: every read and write of the persistence schema, in short transactions.

Races are settled by the database: the primary and unique keys of log records decide which
of two appenders wins, and the match row is locked (FOR UPDATE on PostgreSQL; SQLite writers
take the write lock up front) while a log grows or a match finishes.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session

from partida.persistence import campaigns, glicko2, models, pages, records, rows
from partida.persistence.db import WRITE, dialect_insert, session_factory
from partida.persistence.dice import DiceStreams
from partida.persistence.group_commit import GroupCommit
from partida.persistence.log_append import LogAppender
from partida.platform.batch_calls import each_checked, only
from partida.platform.batching import Pending, first_of_each_key
from partida.platform.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    ServiceError,
)

_FINISHED, _HISTORY = "finished", "history"
_MATCHES, _SEATS = models.table(models.Match), models.table(models.MatchSeat)
_INSERT_SEATS = sa.insert(_SEATS)  # built once: it runs for every match created
_RATINGS = models.table(models.Rating)
_RATING = sa.select(_RATINGS).where(_RATINGS.c.player_id == sa.bindparam("player_id"),
                                    _RATINGS.c.game_id == sa.bindparam("game_id"))
_RATINGS_OF = sa.select(_RATINGS).where(sa.tuple_(_RATINGS.c.player_id, _RATINGS.c.game_id)
                                        .in_(sa.bindparam("keys", expanding=True)))
# Finishing a match (built once: it runs at the end of every match).
_LOCK_MATCH = (sa.select(_MATCHES.c.game_id, _MATCHES.c.seats_json, _MATCHES.c.status,
                         _MATCHES.c.outcome_json, _MATCHES.c.dice_seed,
                         _MATCHES.c.dice_commitment, _MATCHES.c.campaign_id)
               .where(_MATCHES.c.match_id == sa.bindparam("match_id")).with_for_update())
_CAMPAIGNS = models.table(models.Campaign)
_LOCK_CAMPAIGN = (sa.select(_CAMPAIGNS.c.campaign_id)
                  .where(_CAMPAIGNS.c.campaign_id == sa.bindparam("c")).with_for_update())
_FINISH = (sa.update(_MATCHES).where(_MATCHES.c.match_id == sa.bindparam("m"))
           .values(status=sa.bindparam("status"), finished_at=sa.bindparam("finished_at"),
                   outcome_json=sa.bindparam("outcome_json"), dice_seed=sa.bindparam("seed")))
_RESULTS = models.table(models.Result)
_INSERT_RESULTS = sa.insert(_RESULTS)
_RATED_IN = (sa.select(_RESULTS.c.player_id, _RESULTS.c.rating, _RESULTS.c.deviation,
                       _RESULTS.c.volatility, _RESULTS.c.matches)
             .where(_RESULTS.c.match_id == sa.bindparam("m"), _RESULTS.c.rating.is_not(None)))
_LOCK_RATINGS = (sa.select(_RATINGS)
                 .where(_RATINGS.c.game_id == sa.bindparam("game_id"),
                        _RATINGS.c.player_id.in_(sa.bindparam("players", expanding=True)))
                 .order_by(_RATINGS.c.player_id).with_for_update())
_UPDATE_RATING = (sa.update(_RATINGS)
                  .where(_RATINGS.c.player_id == sa.bindparam("p"),
                         _RATINGS.c.game_id == sa.bindparam("g"))
                  .values(rating=sa.bindparam("r"), deviation=sa.bindparam("d"),
                          volatility=sa.bindparam("v"), matches=sa.bindparam("n")))


# What a batched start tells its caller besides True (written): the match was recorded
# before, or the start is to be run on its own.
_EXISTS, _ALONE = object(), object()


UNFINISHED_PAGE = 1000  # most ids of unfinished matches listed at once

# An append: the match, its records, and who made their actions ("human", "bot"; "": unchecked).
Append = tuple[str, Sequence[records.LogRecord], str]


class _Refused(Exception):
    """A set-up in a batch of starts was refused: the batch is undone."""


def _version() -> sa.ScalarSelect[int]:
    """A match's version: its last log sequence (0 before the first action)."""
    last = sa.func.max(models.LogRecord.sequence)
    return (sa.select(sa.func.coalesce(last, 0))
            .where(models.LogRecord.match_id == models.Match.match_id).scalar_subquery())


def _match_row(session: Session, match_id: str) -> tuple[models.Match, int]:
    """A match's row and its version."""
    found = session.execute(sa.select(models.Match, _version())
                            .where(models.Match.match_id == match_id)).one_or_none()
    if found is None:
        raise NotFound(f"no match {match_id!r}")
    return found[0], found[1]


def _match(session: Session, match_id: str) -> records.Match:
    return rows.match(*_match_row(session, match_id))


def _locked_match(session: Session, match_id: str) -> models.Match:
    row = session.get(models.Match, match_id, with_for_update=True)
    if row is None:
        raise NotFound(f"no match {match_id!r}")
    return row


class PersistenceStore(DiceStreams, campaigns.Campaigns):
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._read = session_factory(engine)
        self._write = session_factory(engine, write=True)
        # Plain connections for the calls made for every match (a rating read per ticket, the
        # match record, the dice): an ORM session cost more CPU than their statements.
        self._reader = engine
        self._writer = engine.execution_options(**{WRITE: True})
        self._new_match = (dialect_insert(engine, _MATCHES).on_conflict_do_nothing()
                           .returning(_MATCHES))
        self._prepare_dice(engine)
        self._log = LogAppender()
        self._appends = GroupCommit(self._writer, self._log.write)
        self._starts = GroupCommit(self._writer, self._write_starts)

    # Players.

    def create_player(self, integrator: str, external_id: str,
                      display_name: str) -> records.Player:
        """Creates the player, or returns the one the integrator already has (unchanged)."""
        with self._write.begin() as s:
            s.execute(dialect_insert(s, models.Player).values(
                player_id=uuid.uuid4().hex, integrator=integrator, external_id=external_id,
                display_name=display_name, created_at=models.utcnow(),
            ).on_conflict_do_nothing())
            row = s.scalars(sa.select(models.Player).filter_by(
                integrator=integrator, external_id=external_id)).one()
            return rows.player(row)

    def get_player(self, player_id: str) -> records.Player:
        with self._read.begin() as s:
            row = s.get(models.Player, player_id)
            if row is None:
                raise NotFound(f"no player {player_id!r}")
            return rows.player(row)

    # Matches.

    def record_match(self, match: records.Match) -> records.Match:
        """Records a new match; recording the same match again changes nothing."""
        return self._record(match, ())[0]

    def start_match(self, match: records.Match, setup: Sequence[records.LogRecord]) -> bool:
        """Records a new match with the first records of its log (its set-up), in one
        transaction. Recording the same match again changes nothing, and then its set-up is
        appended unless the log holds those sequences already (an earlier call's set-up,
        which stands): returns whether this call wrote `setup`."""
        return only(self.start_matches([(match, setup)]))

    def start_matches(self, starts: Sequence[tuple[records.Match, Sequence[records.LogRecord]]]
                      ) -> list[bool | Exception]:
        """Several `start_match` at once, each kept or refused alone: per start, whether it
        wrote its set-up, or why it was refused.

        Every match played starts here, so starts arriving together share a transaction
        (group commit) and are written together, as log appends are. A start the batch
        cannot settle (its match exists, a campaign's checks, a refusal) goes on its own."""
        return each_checked(starts, _checked_start, self._start_all)

    def _start_all(self, starts: list[tuple[records.Match, Sequence[records.LogRecord]]]
                   ) -> list[bool | Exception]:
        # A campaign's start runs alone: its checks are made inside its own transaction.
        done = iter(self._starts.run_all([(match.match_id, (match, setup))
                                          for match, setup in starts if not match.campaign_id]))
        return [self._settle_start(match, setup, None if match.campaign_id else next(done))
                for match, setup in starts]

    def _settle_start(self, match: records.Match, setup: Sequence[records.LogRecord],
                      pending: Pending | None) -> bool | Exception:
        """What the batch left of one start (None: it was not in the batch), finished: True
        if it wrote its set-up, else whatever a start of its own finds; a refusal is
        returned, any other failure (the database's) raised, failing the whole call as it
        would have failed a call of its own."""
        settled = _ALONE if pending is None else pending.result
        if pending is not None and pending.error is not None:
            if not isinstance(pending.error, IntegrityError | _Refused):
                if not isinstance(pending.error, ServiceError):
                    raise pending.error
                return pending.error
            settled = _ALONE  # it was alone and refused: on its own it says why
        try:
            return (True if settled is True
                    else self._existing(match, setup)[1] if settled is _EXISTS
                    else self._record(match, setup)[1])
        except ServiceError as e:
            return e

    def _write_starts(self, conn: sa.Connection, batch: list[Pending]
                      ) -> Callable[[], None] | None:
        """The group commit's writer for `start_match`: every new match row, their seats and
        their set-ups, one statement each. Should any of it be refused, the batch is undone
        and each start goes on its own (`_ALONE`), which tells its caller why."""
        if len(batch) == 1:  # alone: a refusal rolls the whole transaction back
            return self._insert_starts(conn, batch)
        try:
            with conn.begin_nested():
                return self._insert_starts(conn, batch)
        except (IntegrityError, _Refused):
            for item in batch:
                item.result = _ALONE
            return None

    def _insert_starts(self, conn: sa.Connection, batch: list[Pending]) -> Callable[[], None]:
        # One start per match is tried; another of the same match is a repeat, settled
        # against what the first one leaves.
        first = first_of_each_key(batch)
        new = {row.match_id: row for row in conn.execute(
            self._new_match, [rows.match_values(item.payload[0]) for item in first.values()])}
        fresh = [item for item in first.values() if item.key in new]
        for item in batch:
            item.result = _EXISTS
        for item in fresh:
            item.result = True
        if not fresh:
            return lambda: None
        conn.execute(_INSERT_SEATS, [seat for item in fresh
                                     for seat in rows.seat_values(item.payload[0])])
        setups = [Pending(item.key, (item.key, item.payload[1], "")) for item in fresh]
        after = self._log.write_firsts(conn, new, setups)
        if any(s.error is not None for s in setups):
            raise _Refused  # undone; each start then runs alone and reports its refusal
        return after

    def _record(self, match: records.Match, setup: Sequence[records.LogRecord]
                ) -> tuple[records.Match, bool]:
        stored = None
        try:
            with self._writer.begin() as conn:
                row = conn.execute(self._new_match, rows.match_values(match)).first()
                if row is not None:  # new: checked, then its seats (refused: rolled back)
                    if match.campaign_id:
                        with Session(bind=conn) as s:
                            campaigns.check_match(s, match)
                    conn.execute(_INSERT_SEATS, rows.seat_values(match))
                    stored = rows.match(row, 0)
                    after = (self._log.write_first(conn, row, setup) if setup
                             else lambda: self._log.started(match.match_id))
            if stored is not None:  # recorded now (committed)
                after()
                return stored, bool(setup)
        except IntegrityError:
            pass  # a concurrent call recorded it first; compared below
        return self._existing(match, setup)

    def _existing(self, match: records.Match, setup: Sequence[records.LogRecord]
                  ) -> tuple[records.Match, bool]:
        """`match` was recorded before: the same match, or AlreadyExists. Appends `setup`
        unless the log holds it already; returns the match stored and whether it did."""
        with self._read.begin() as s:
            row, version = _match_row(s, match.match_id)
            stored = rows.match(row, version)
        # A retry carries the seats as first recorded, not as UpdateSeat changed them since.
        # (A match whose seats changed before migration 0003 kept no first seats: its retry
        # is compared with its current seats, and stays AlreadyExists.)
        first_seats = rows.seats(row.first_seats_json) if row.first_seats_json else stored.seats
        if (stored.game_id, stored.scenario_id, first_seats, stored.dice_commitment,
                stored.campaign_id) != (match.game_id, match.scenario_id, match.seats,
                                        match.dice_commitment, match.campaign_id):
            raise AlreadyExists(f"match {match.match_id!r} was recorded with other content")
        if setup:
            try:
                self.append_log(match.match_id, setup)
            except AlreadyExists:
                return stored, False  # the log has an earlier call's set-up
        return stored, bool(setup)

    def get_match(self, match_id: str) -> records.Match:
        with self._read.begin() as s:
            return _match(s, match_id)

    def update_seat(self, match_id: str, seat: records.Seat) -> None:
        """Records who controls a seat now; the seat's player and side cannot change."""
        with self._write.begin() as s:
            row = _locked_match(s, match_id)
            if row.status == models.FINISHED:
                raise FailedPrecondition(f"match {match_id!r} is finished")
            seats = list(rows.seats(row.seats_json))
            if not 0 <= seat.seat < len(seats):
                raise InvalidArgument(f"match {match_id!r} has no seat {seat.seat}")
            was = seats[seat.seat]
            if seat.player_id != was.player_id:
                raise InvalidArgument("a seat's player cannot change")
            if seat.side and seat.side != was.side:
                raise InvalidArgument("a seat's side cannot change")
            # Nor its side or campaign team, which a caller may leave out (a rules replica
            # from before seats carried sides handed seats to bots with none, and blanked the
            # recorded side, which decides how a match is rated).
            seats[seat.seat] = replace(seat, side=was.side, campaign_team=was.campaign_team)
            if row.first_seats_json is None:  # the first change: keep what a retry carries
                row.first_seats_json = row.seats_json
            row.seats_json = rows.seats_json(tuple(seats))

    def finish_match(self, match_id: str, outcome: records.Outcome, seed: bytes,
                     final_sides: Sequence[str] = ()) -> list[records.Rating]:
        """Closes the match, stores results and updates ratings, all at once. Repeating it
        with the same outcome and seed returns the ratings it returned first (kept with the
        results), without rating twice. `final_sides`, by seat, the sides played for at the
        end where they changed (rated by them; the record keeps those dealt). Core
        statements, not the ORM: it runs at the end of every match, on the path of the last
        action's reply, and the ORM's unit of work took half of its time."""
        with self._writer.begin() as conn:
            row = conn.execute(_LOCK_MATCH, {"match_id": match_id}).first()
            if row is None:
                raise NotFound(f"no match {match_id!r}")
            seats = _rated_sides(rows.seats(row.seats_json), final_sides)
            players = glicko2.rated_players(seats, outcome)
            if row.status == models.FINISHED:
                if row.outcome_json != rows.outcome_json(outcome) or row.dice_seed != seed:
                    raise FailedPrecondition(
                        f"match {match_id!r} already finished with another outcome or seed")
                return _ratings_left(conn, match_id, row.game_id, players)
            _check_outcome(seats, outcome)
            if hashlib.sha256(seed).digest() != row.dice_commitment:
                raise InvalidArgument("dice_seed does not match the match's dice commitment")
            if row.campaign_id:
                # A scenario counts the match that finished first. One campaign's finishes
                # take their times in turn, each after the one before has committed: else a
                # finish timed first but committed last took the scenario from a match
                # already reported as counted.
                conn.execute(_LOCK_CAMPAIGN, {"c": row.campaign_id})
            conn.execute(_FINISH, {"m": match_id, "status": models.FINISHED,
                                   "finished_at": models.utcnow(),
                                   "outcome_json": rows.outcome_json(outcome), "seed": seed})
            rated = self._rate(conn, row.game_id, seats, outcome, sorted(players))
            conn.execute(_INSERT_RESULTS, [
                {"match_id": match_id, "seat": seat.seat, "player_id": seat.player_id or None,
                 "result": _result(seat.seat, outcome), "score": outcome.scores.get(seat.seat),
                 **_rated_columns(rated.get(seat.player_id))}
                for seat in seats])
            return [rated[p] for p in players]

    @staticmethod
    def _rate(conn: sa.Connection, game_id: str, seats: Sequence[records.Seat],
              outcome: records.Outcome, players: list[str]) -> dict[str, records.Rating]:
        """Rates the match's `players` (sorted); their ratings after it."""
        if not players:
            return {}
        start = glicko2.Skill()
        conn.execute(dialect_insert(conn, _RATINGS).values([
            {"player_id": p, "game_id": game_id, "rating": start.rating,
             "deviation": start.deviation, "volatility": start.volatility, "matches": 0}
            for p in players]).on_conflict_do_nothing())
        # Locked in player order, so that concurrent finishes cannot deadlock.
        current = {r.player_id: r for r in conn.execute(
            _LOCK_RATINGS, {"game_id": game_id, "players": players})}
        before = {p: glicko2.Skill(r.rating, r.deviation, r.volatility)
                  for p, r in current.items()}
        rated = {p: records.Rating(p, game_id, after.rating, after.deviation, after.volatility,
                                   current[p].matches + 1)
                 for p, after in glicko2.rate_match(seats, outcome, before).items()}
        conn.execute(_UPDATE_RATING, [
            {"p": r.player_id, "g": game_id, "r": r.rating, "d": r.deviation,
             "v": r.volatility, "n": r.matches} for r in rated.values()])
        return rated

    # The log.

    def append_log(self, match_id: str, new: Sequence[records.LogRecord],
                   controller: str = "") -> tuple[int, bytes]:
        """Appends records that follow the stored head; returns the new (sequence, hash).
        With `controller` ("human" or "bot": who made their actions), refused Aborted if
        their seat is no longer so controlled.

        This runs once per action played, so appends arriving together share a transaction
        (group commit) and are written together (see log_append).
        """
        _check_run(new)
        result: tuple[int, bytes] = self._appends.run(match_id, (match_id, new, controller))
        return result

    def append_logs(self, appends: Sequence[Append]) -> list[tuple[int, bytes] | Exception]:
        """Several appends (to one or more matches) at once, each (match_id, records,
        controller), kept or refused alone as `append_log` would: per append, the new
        (sequence, hash) or why it was refused."""
        return each_checked(appends, _checked_append, self._append_all)

    def _append_all(self, appends: list[Append]) -> list[tuple[int, bytes] | Exception]:
        outcome: list[tuple[int, bytes] | Exception] = []
        for pending in self._appends.run_all([(append[0], append) for append in appends]):
            error = pending.error
            if error is not None and not isinstance(error, Exception):
                raise error  # KeyboardInterrupt and the like are not a refusal
            outcome.append(error if error is not None else pending.result)
        return outcome

    def get_match_log(self, match_id: str, after: int | None = None, up_to: int | None = None
                      ) -> tuple[records.Match, list[records.LogRecord]]:
        """A match and its log records, only those with a sequence above `after` and at most
        `up_to` when given (a range of the primary key: read without a scan of the log)."""
        with self._read.begin() as s:
            return _match(s, match_id), self._log_range(s, match_id, after, up_to)

    def log_records(self, match_id: str, after: int | None = None, up_to: int | None = None
                    ) -> list[records.LogRecord]:
        """As get_match_log without the match: none for a match unknown."""
        with self._read.begin() as s:
            return self._log_range(s, match_id, after, up_to)

    @staticmethod
    def _log_range(session: Session, match_id: str, after: int | None, up_to: int | None
                   ) -> list[records.LogRecord]:
        query = sa.select(models.LogRecord).filter_by(match_id=match_id)
        if after is not None:
            query = query.where(models.LogRecord.sequence > after)
        if up_to is not None:
            query = query.where(models.LogRecord.sequence <= up_to)
        return [rows.log_record(r)
                for r in session.scalars(query.order_by(models.LogRecord.sequence))]

    def find_log_record(self, match_id: str, request_id: str) -> records.LogRecord | None:
        with self._read.begin() as s:
            if s.get(models.Match, match_id) is None:
                raise NotFound(f"no match {match_id!r}")
            row = s.scalars(sa.select(models.LogRecord).filter_by(
                match_id=match_id, request_id=request_id)).one_or_none() if request_id else None
            return rows.log_record(row) if row else None

    def unfinished_matches(self, after_match_id: str = "",
                           limit: int = UNFINISHED_PAGE) -> list[str]:
        """The ids of the matches not finished, in id order, after `after_match_id`."""
        if not 1 <= limit <= UNFINISHED_PAGE:
            raise InvalidArgument(f"page_size must be from 1 to {UNFINISHED_PAGE}")
        with self._read.begin() as s:
            return list(s.scalars(
                sa.select(models.Match.match_id)
                .where(models.Match.finished_at.is_(None), models.Match.match_id > after_match_id)
                .order_by(models.Match.match_id).limit(limit)))

    # Listings, newest first.

    def list_finished(self, game_id: str = "", page_size: int = 20,
                      page_token: str = "") -> records.Page:
        """Finished matches (of one game, or of all when game_id is ""), by finish time."""
        query = sa.select(models.Match).where(models.Match.status == models.FINISHED)
        if game_id:
            query = query.where(models.Match.game_id == game_id)
        return self._page(query, models.Match.finished_at, f"{_FINISHED}:{game_id}",
                          page_size, page_token)

    def player_history(self, player_id: str, page_size: int = 20,
                       page_token: str = "") -> records.Page:
        """The matches a player was seated at, active or finished, by creation time."""
        seated = sa.select(models.MatchSeat.match_id).where(
            models.MatchSeat.player_id == player_id)
        query = sa.select(models.Match).where(models.Match.match_id.in_(seated))
        return self._page(query, models.Match.created_at, f"{_HISTORY}:{player_id}",
                          page_size, page_token)

    def _page(self, query: sa.Select, when: InstrumentedAttribute, listing: str,
              page_size: int, page_token: str) -> records.Page:
        if not 1 <= page_size <= 100:
            raise InvalidArgument("page_size must be from 1 to 100")
        after = pages.decode(listing, page_token)
        if after is not None:
            query = query.where(sa.tuple_(when, models.Match.match_id) < sa.tuple_(
                sa.literal(after[0], when.type), sa.literal(after[1])))
        query = (query.add_columns(_version())
                 .order_by(when.desc(), models.Match.match_id.desc()).limit(page_size + 1))
        with self._read.begin() as s:
            found = [rows.match(*r) for r in s.execute(query)]
        if len(found) <= page_size:
            return records.Page(tuple(found))
        last = found[page_size - 1]
        last_when = last.finished_at if listing.startswith(_FINISHED) else last.created_at
        assert last_when is not None
        return records.Page(tuple(found[:page_size]),
                            pages.encode(listing, last_when, last.match_id))

    # Ratings.

    def get_rating(self, player_id: str, game_id: str) -> records.Rating:
        """The player's rating in the game; the starting values if they have not played it."""
        with self._reader.connect() as conn:
            row = conn.execute(_RATING, {"player_id": player_id, "game_id": game_id}).first()
        return rows.rating(row) if row else records.Rating(player_id, game_id)

    def get_ratings(self, keys: Sequence[tuple[str, str]]) -> list[records.Rating]:
        """The ratings of (player, game) pairs in one query, in the order asked for."""
        with self._reader.connect() as conn:
            return _ratings_of(conn, keys)


def _ratings_of(conn: sa.Connection, keys: Sequence[tuple[str, str]]) -> list[records.Rating]:
    """The ratings of (player, game) pairs in one query, in the order asked for; the
    starting values for a pair not rated yet."""
    found = {(r.player_id, r.game_id): rows.rating(r) for r in conn.execute(
        _RATINGS_OF, {"keys": list(dict.fromkeys(keys))})}
    return [found.get(k) or records.Rating(*k) for k in keys]


def _ratings_left(conn: sa.Connection, match_id: str, game_id: str,
                  players: Sequence[str]) -> list[records.Rating]:
    """The ratings a finished match left its `players` with, as its FinishMatch answered."""
    left = {r.player_id: records.Rating(r.player_id, game_id, r.rating, r.deviation,
                                        r.volatility, r.matches)
            for r in conn.execute(_RATED_IN, {"m": match_id})}
    if any(p not in left for p in players):
        # Finished before migration 0003 kept them: the current ratings, as answered then.
        return _ratings_of(conn, [(p, game_id) for p in players])
    return [left[p] for p in players]


def _rated_sides(seats: Sequence[records.Seat], final_sides: Sequence[str]
                 ) -> tuple[records.Seat, ...]:
    """The seats as rated: with the sides they played for at the end, when given."""
    if not final_sides:
        return tuple(seats)
    if len(final_sides) != len(seats):
        raise InvalidArgument(f"final_sides names {len(final_sides)} sides for "
                              f"{len(seats)} seats")
    return tuple(replace(seat, side=side) for seat, side in zip(seats, final_sides,
                                                                 strict=True))


def _rated_columns(after: records.Rating | None) -> dict[str, float | int | None]:
    """A result's columns keeping its player's rating after the match (a bot's seat: none)."""
    if after is None:
        return dict.fromkeys(("rating", "deviation", "volatility", "matches"))
    return {"rating": after.rating, "deviation": after.deviation,
            "volatility": after.volatility, "matches": after.matches}


def _check_run(new: Sequence[records.LogRecord]) -> None:
    if not new:
        raise InvalidArgument("records must not be empty")
    for offset, record in enumerate(new):
        if record.sequence != new[0].sequence + offset:
            raise InvalidArgument("records must have consecutive sequence numbers")
        if (record.sequence == 0) != (record.kind == records.SETUP):
            raise InvalidArgument(f"record {record.sequence}: sequence 0, and only it, "
                                  f"is the {records.SETUP!r} record")


def _checked_append(append: Append) -> Append:
    _check_run(append[1])
    return append


def _checked_start(start: tuple[records.Match, Sequence[records.LogRecord]]
                   ) -> tuple[records.Match, Sequence[records.LogRecord]]:
    """A start whose set-up may begin a log."""
    setup = start[1]
    _check_run(setup)
    if setup[0].sequence != 0:
        raise InvalidArgument("a set-up starts the log: its first record is sequence 0")
    return start


def _check_outcome(seats: Sequence[records.Seat], outcome: records.Outcome) -> None:
    numbers = {seat.seat for seat in seats}
    stray = sorted((set(outcome.winners) | set(outcome.scores)) - numbers)
    if stray:
        raise InvalidArgument(f"outcome names seats the match does not have: {stray}")
    if outcome.draw and outcome.winners:
        raise InvalidArgument("a draw has no winners")


def _result(seat: int, outcome: records.Outcome) -> str:
    if outcome.draw:
        return models.DRAW
    return models.WIN if seat in outcome.winners else models.LOSS
