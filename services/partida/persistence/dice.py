"""The dice service's streams, kept in the persistence schema (a mixin of PersistenceStore).

Positions are handed out by one UPDATE ... RETURNING, so two callers can never be given the
same position, whatever the database and however many processes draw.

Each call runs once or twice per match on the dice service, so it is plain SQL on a
connection: an ORM session cost more CPU than the statements themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from partida.persistence import models, records, rows
from partida.persistence.db import dialect_insert
from partida.persistence.group_commit import GroupCommit
from partida.platform.batch_calls import each_checked, only
from partida.platform.batching import Pending, first_of_each_key
from partida.platform.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    ServiceError,
)

_STREAMS = models.table(models.DiceStream)
_C = _STREAMS.c


def _stream(conn: sa.Connection, match_id: str) -> sa.Row | None:
    return conn.execute(sa.select(_STREAMS).where(_C.match_id == match_id)).first()


class DiceStreams:
    _reader: sa.Engine
    _writer: sa.Engine

    def _prepare_dice(self, engine: sa.Engine) -> None:
        """Statements built once (building one per call, values and all, cost a third of
        a draw); the values are passed as parameters."""
        self._new_streams = (dialect_insert(engine, _STREAMS).on_conflict_do_nothing()
                             .returning(_C.match_id))
        self._advance = (sa.update(_STREAMS)
                         .where(_C.match_id == sa.bindparam("id"), _C.revealed.is_(False))
                         .values(next_position=_C.next_position + sa.bindparam("count"))
                         .returning(_C.next_position))
        # Every match starts with a stream: those asked for together share a transaction
        # and one statement (group commit), as log appends do.
        self._stream_starts = GroupCommit(self._writer, self._write_streams)

    def create_stream(self, match_id: str, seed: bytes, commitment: bytes, reserve: int = 0
                      ) -> tuple[bytes, int]:
        """Stores a new stream with its first `reserve` positions handed out; if the match
        has one already, hands out its next `reserve` positions instead. Returns the stream's
        commitment and the first position handed out."""
        return only(self.create_streams([(match_id, seed, commitment, reserve)]))

    def create_streams(self, items: Sequence[tuple[str, bytes, bytes, int]]
                       ) -> list[tuple[bytes, int] | Exception]:
        """Several `create_stream` at once, items (match_id, seed, commitment, reserve), each
        kept or refused alone: per item, the (commitment, first position) or why it was
        refused. A failure that is no refusal (the database's) fails the whole call.

        The new streams are written by one group commit (one transaction, one INSERT); an
        item whose match already had a stream is then served on its own."""
        return each_checked(items, _checked_stream, self._create_all)

    def _create_all(self, items: list[tuple[str, bytes, bytes, int]]
                    ) -> list[tuple[bytes, int] | Exception]:
        done = self._stream_starts.run_all([(match_id, (seed, commitment, reserve))
                                            for match_id, seed, commitment, reserve in items])
        outcome: list[tuple[bytes, int] | Exception] = []
        for (match_id, _, commitment, reserve), pending in zip(items, done, strict=True):
            if pending.error is not None:
                raise pending.error  # the writer refuses nothing: the batch itself failed
            try:
                outcome.append((commitment, 0) if pending.result
                               else self._existing_stream(match_id, reserve))
            except ServiceError as e:  # e.g. its stream is revealed: refused alone
                outcome.append(e)
        return outcome

    def _existing_stream(self, match_id: str, reserve: int) -> tuple[bytes, int]:
        """An earlier call's stream: its commitment and its next `reserve` positions. A
        transaction of its own, so no caller holds several streams' locks at once (no
        deadlock between two batches advancing the same streams in other orders)."""
        with self._writer.begin() as conn:
            stored = conn.execute(sa.select(_C.commitment)
                                  .where(_C.match_id == match_id)).scalar_one()
            first = self._advance_on(conn, match_id, reserve) if reserve else 0
            return bytes(stored), first

    def _write_streams(self, conn: sa.Connection, batch: list[Pending]) -> None:
        """Inserts the batch's new streams; each item's result: whether its own was stored
        (not when the match had one, nor for a second asking for the same match)."""
        first = first_of_each_key(batch)
        now = models.utcnow()
        stored = set(conn.execute(self._new_streams, [
            {"match_id": key, "seed": item.payload[0], "commitment": item.payload[1],
             "next_position": item.payload[2], "revealed": False, "created_at": now}
            for key, item in first.items()]).scalars())
        for item in batch:
            item.result = item.key in stored and first[item.key] is item

    def advance(self, match_id: str, count: int) -> int:
        """Reserves the next `count` positions; returns the first of them."""
        if count < 1:
            raise InvalidArgument("count must be at least 1")
        with self._writer.begin() as conn:
            return self._advance_on(conn, match_id, count)

    def _advance_on(self, conn: sa.Connection, match_id: str, count: int) -> int:
        end = conn.execute(self._advance, {"id": match_id, "count": count}).scalar()
        if end is None:
            raise _missing_or_revealed(conn, match_id)
        return int(end) - count

    def reveal(self, match_id: str) -> bytes:
        """Closes the stream and returns its seed; repeating it returns the same seed."""
        with self._writer.begin() as conn:
            seed = conn.execute(sa.update(_STREAMS).where(_C.match_id == match_id)
                                .values(revealed=True).returning(_C.seed)).scalar()
            if seed is None:
                raise NotFound(f"no dice stream for match {match_id!r}")
            return bytes(seed)

    def get_stream(self, match_id: str) -> records.DiceStream:
        with self._reader.connect() as conn:
            row = _stream(conn, match_id)
        if row is None:
            raise NotFound(f"no dice stream for match {match_id!r}")
        return rows.dice_stream(row)


def _missing_or_revealed(conn: sa.Connection, match_id: str) -> Exception:
    if _stream(conn, match_id) is None:
        return NotFound(f"no dice stream for match {match_id!r}")
    return FailedPrecondition(f"the dice stream of match {match_id!r} is revealed")


def _checked_stream(item: tuple[str, bytes, bytes, int]) -> tuple[str, bytes, bytes, int]:
    if item[3] < 0:
        raise InvalidArgument("reserve must not be negative")
    return item
