"""The dice service's streams, kept in the persistence schema (a mixin of PersistenceStore).

Positions are handed out by one UPDATE ... RETURNING, so two callers can never be given the
same position, whatever the database and however many processes draw.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from partida.persistence import models, records, rows
from partida.persistence.db import dialect_insert
from partida.platform.errors import FailedPrecondition, InvalidArgument, NotFound

_Stream = models.DiceStream
# The updates below touch no object loaded in the session: skip the ORM's matching of them
# (its evaluator cost more than the rest of a draw).
_UNSYNCED = {"synchronize_session": False}


class DiceStreams:
    _read: sessionmaker[Session]
    _write: sessionmaker[Session]

    def create_stream(self, match_id: str, seed: bytes, commitment: bytes) -> bytes:
        """Stores a new stream; if the match has one already, returns its commitment."""
        with self._write.begin() as s:
            s.execute(dialect_insert(s, _Stream).values(
                match_id=match_id, seed=seed, commitment=commitment, next_position=0,
                revealed=False, created_at=models.utcnow()).on_conflict_do_nothing())
            return bytes(s.scalars(sa.select(_Stream.commitment)
                                   .where(_Stream.match_id == match_id)).one())

    def advance(self, match_id: str, count: int) -> int:
        """Reserves the next `count` positions; returns the first of them."""
        if count < 1:
            raise InvalidArgument("count must be at least 1")
        with self._write.begin() as s:
            end = s.execute(
                sa.update(_Stream)
                .where(_Stream.match_id == match_id, _Stream.revealed.is_(False))
                .values(next_position=_Stream.next_position + count)
                .returning(_Stream.next_position), execution_options=_UNSYNCED
            ).scalar_one_or_none()
            if end is None:
                raise _missing_or_revealed(s, match_id)
            return int(end) - count

    def reveal(self, match_id: str) -> bytes:
        """Closes the stream and returns its seed; repeating it returns the same seed."""
        with self._write.begin() as s:
            seed = s.execute(sa.update(_Stream).where(_Stream.match_id == match_id)
                             .values(revealed=True).returning(_Stream.seed),
                             execution_options=_UNSYNCED).scalar_one_or_none()
            if seed is None:
                raise NotFound(f"no dice stream for match {match_id!r}")
            return bytes(seed)

    def get_stream(self, match_id: str) -> records.DiceStream:
        with self._read.begin() as s:
            row = s.get(_Stream, match_id)
            if row is None:
                raise NotFound(f"no dice stream for match {match_id!r}")
            return rows.dice_stream(row)


def _missing_or_revealed(s: Session, match_id: str) -> Exception:
    if s.get(_Stream, match_id) is None:
        return NotFound(f"no dice stream for match {match_id!r}")
    return FailedPrecondition(f"the dice stream of match {match_id!r} is revealed")
