"""A person who takes too long at the prompt of `partida client play`: their decisions ran
out (the turn timer played the defaults) until the server handed the seat to its bot. When
they do choose, the client takes the seat back and asks again, where the match is now,
rather than showing the same refusal at every choice. A real rules service over gRPC whose
bot turns are kept, not played, so the seat stays as the server left it."""

from __future__ import annotations

import io

from rich.console import Console

from partida.cli import client
from partida.cli.remote import Remote
from partida.cli.render import renderer_for
from partida.cli.terminal import Terminal
from partida.engine.rng import LocalRng
from partida.persistence.db import make_engine, migrate
from partida.persistence.store import PersistenceStore
from partida.platform.auth import Authority
from partida.platform.server import Registration, Server
from partida.rules.ledger import LocalLedger
from partida.rules.matches import Matches
from partida.rules.service import RulesServicer
from partida.rules.session import MemorySessionStore
from partida.v1 import common_pb2, rules_pb2_grpc
from tests.unit.rules.conftest import Clock, Dice, new_match
from tests.unit.rules.test_bot_turns import KeepingScheduler


class _SlowPerson:
    """Chooses the default, but the first time only after the seat's clock ran out."""

    def __init__(self, matches: Matches, clock: Clock, match_id: str) -> None:
        self.matches, self.clock, self.match_id = matches, clock, match_id
        self.choices = 0

    def choose(self, view, actions, rng) -> str:
        self.choices += 1
        if self.choices == 1:
            self.clock.now = self.matches.session(self.match_id).deadline + 1
            assert self.matches.expire_decisions() == 1
        return actions[0].id


def test_a_seat_handed_over_while_the_person_chose_is_taken_back(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'partida.db'}")
    migrate(engine)
    store = PersistenceStore(engine)
    clock = Clock()
    matches = Matches(MemorySessionStore(), LocalLedger(store), Dice(store),
                      KeepingScheduler(), clock=clock, default_timeout=30)
    match_id = new_match(matches, bot_after_missed=1).match_id  # alice (seat 0) first
    auth = Authority("p" * 32, "s" * 32, {})
    reg = Registration("partida.v1.RulesService", RulesServicer(matches),
                       rules_pb2_grpc.add_RulesServiceServicer_to_server)
    server = Server([reg], auth, "127.0.0.1:0")
    server.start()
    try:
        remote = Remote(f"127.0.0.1:{server.port}")
        remote.metadata = (("authorization", f"Bearer {auth.player_token('alice', 600)[0]}"),)
        remote.player_id = "alice"
        out = Console(file=io.StringIO(), width=200)
        term = Terminal(out=out, err=Console(file=io.StringIO(), width=200))
        person = _SlowPerson(matches, clock, match_id)
        renderer = renderer_for("montanas")
        client._decide(term, remote, renderer, renderer.narrator(), match_id, 0, person,
                       LocalRng())
        said = out.file.getvalue()
        assert "Seat 0 was handed to a bot while you were away; it is yours again." in said
        assert remote.match(match_id).seats[0].controller == common_pb2.SEAT_CONTROLLER_HUMAN
        # What the person chose after taking the seat back stood, if it was still theirs.
        live = matches.session(match_id)
        assert live.version == 1 + (person.choices > 1)
    finally:
        server.stop(0)


def test_the_terminal_says_when_another_seat_goes_to_a_bot_and_comes_back():
    """`client play` follows Decision.bot_seats: a seat to act that a bot plays is told once,
    and once more when its player is back; the player's own seat is not (taking it back is
    _decide's)."""
    out = Console(file=io.StringIO(), width=200)
    term = Terminal(out=out, err=Console(file=io.StringIO(), width=200))
    bots: dict[int, bool] = {}
    for seats, played in (([1], []), ([1], [1]), ([0, 1], [0, 1]), ([1], [1]), ([1], []),
                          ([2], [2])):
        client._tell_bot_seats(term, common_pb2.Decision(seats=seats, bot_seats=played), 0,
                               bots)
    assert out.file.getvalue().splitlines() == [
        "Seat 1 is played by the server's bot.",
        "Seat 1 is played by its player again.",
        "Seat 2 is played by the server's bot.",
    ]


def test_a_spectator_is_told_of_every_seat_a_bot_plays():
    """`client watch` (no seat of its own) is told of each seat, the first included."""
    out = Console(file=io.StringIO(), width=200)
    term = Terminal(out=out, err=Console(file=io.StringIO(), width=200))
    bots: dict[int, bool] = {}
    for seats, played in (([0], [0]), ([1], []), ([0], [0]), ([0], [])):
        client._tell_bot_seats(term, common_pb2.Decision(seats=seats, bot_seats=played), None,
                               bots)
    assert out.file.getvalue().splitlines() == [
        "Seat 0 is played by the server's bot.",
        "Seat 0 is played by its player again.",
    ]
