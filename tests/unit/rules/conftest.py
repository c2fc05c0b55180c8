"""The rules logic wired to real in-process parts: a SQLite persistence store, the dice
logic over it, and in-memory sessions."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from partida.dice.logic import Dice
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform.auth import PLAYER, SERVICE, Authority, Principal
from partida.platform.server import Registration, Server
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.service import RulesServicer
from partida.rules.session import MemorySessionStore, SeatMeta
from partida.v1 import rules_pb2_grpc
from tests.support.serving import channel_to


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


def step(matches, match_id, request_id=None):
    """The first seat to act plays its default; returns (seat, request id, result)."""
    s = matches.session(match_id)
    seat = matches.legal(match_id, 0, ALICE)[3][0]
    principal = who(s.seats[seat].player_id)
    default = matches.legal(match_id, seat, principal)[2]
    request_id = request_id or rid()
    return seat, request_id, matches.submit(match_id, seat, s.version, request_id, default,
                                            principal)


def play_defaults(matches, match_id, steps=10_000):
    """Play every pending decision with its default action until the match ends."""
    for _ in range(steps):
        s = matches.session(match_id)
        if s.status != "active":
            return s
        step(matches, match_id)
    raise AssertionError("the match did not end")


@contextlib.contextmanager
def served(matches: Matches, player: str) -> Iterator[tuple[Any, tuple]]:
    """The rules servicer over `matches` behind a real gRPC server: a stub, and the call
    metadata of `player`'s token."""
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.RulesService", RulesServicer(matches),
                       rules_pb2_grpc.add_RulesServiceServicer_to_server)
    with channel_to(Server([reg], auth, "127.0.0.1:0")) as channel:
        token = auth.player_token(player, 60)[0]
        yield rules_pb2_grpc.RulesServiceStub(channel), (("authorization", f"Bearer {token}"),)
