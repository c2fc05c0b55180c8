"""The rules logic wired to real in-process parts: a SQLite persistence store, the dice
logic over it, and in-memory sessions."""

from __future__ import annotations

import itertools

import pytest

from partida.dice.logic import Dice
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform.auth import PLAYER, SERVICE, Principal
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.session import MemorySessionStore, SeatMeta


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    return PersistenceStore(engine)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def matches(store, clock):
    return Matches(MemorySessionStore(), LocalLedger(store), Dice(store), clock=clock)


ALICE = Principal(PLAYER, "alice")
BOB = Principal(PLAYER, "bob")
BOTS = Principal(SERVICE, "bots")
_ids = itertools.count()


def rid() -> str:
    return f"r{next(_ids)}"


def new_match(matches, players=("alice", "bob"), bots=(), scenario="standard", **kw):
    seats = [SeatMeta(p, "human", "") for p in players] + [SeatMeta("", "bot", b) for b in bots]
    return matches.create("montanas", scenario, seats, {"first_seat": 0}, **kw)


def who(seat_player: str) -> Principal:
    return {"alice": ALICE, "bob": BOB}[seat_player]


def play_defaults(matches, match_id, steps=10_000):
    """Play every pending decision with its default action until the match ends."""
    for _ in range(steps):
        s = matches.session(match_id)
        if s.status != "active":
            return s
        _, _, default, to_act = matches.legal(match_id, 0, ALICE)
        seat = to_act[0]
        principal = who(s.seats[seat].player_id)
        _, _, default, _ = matches.legal(match_id, seat, principal)
        matches.submit(match_id, seat, s.version, rid(), default, principal)
    raise AssertionError("the match did not end")
