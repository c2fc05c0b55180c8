"""Client-side helpers for the scenarios: log in, matchmake, play a seat to the end."""

from __future__ import annotations

import itertools
import time
import uuid

import grpc

from partida.cli.remote import Remote
from partida.devstack.stack import API_KEY, Stack
from partida.engine import Action, LocalRng
from partida.games.montanas.bots import HeuristicBot

_players = itertools.count()


def player(stack: Stack, name: str | None = None) -> Remote:
    remote = Remote(stack.address, addresses=stack.addresses)
    remote.login(API_KEY, name or f"p{next(_players)}-{uuid.uuid4().hex[:6]}")
    return remote


def seat_in_match(remote: Remote, seats: int = 2, timeout: float = 30) -> tuple[str, int]:
    """Matchmake (tables completed by bots) and return (match id, seat)."""
    deadline = time.monotonic() + timeout
    for ticket in remote.find_match("montanas", "standard", seats, True, uuid.uuid4().hex):
        if ticket.match_id:
            return ticket.match_id, ticket.seat
        assert time.monotonic() < deadline, "matchmaking took too long"
    raise AssertionError("the ticket ended without a match")


def wait_for_turn(remote: Remote, match_id: str, seat: int, timeout: float = 60):
    """Poll until the seat must act or the match is over; returns (version, outcome)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version, _, to_act, outcome = remote.view(match_id, seat)
        if outcome is not None or seat in to_act:
            return version, outcome
        time.sleep(0.02)
    raise AssertionError(f"seat {seat} never got a decision in match {match_id}")


def play_one(remote: Remote, match_id: str, seat: int, rng=None) -> int | None:
    """Take the seat's next decision with the heuristic bot; None once the match is over."""
    version, outcome = wait_for_turn(remote, match_id, seat)
    if outcome is not None:
        return None
    legal = remote.legal(match_id, seat)
    _, view, _, _ = remote.view(match_id, seat)
    actions = [Action(a.action_id, a.description) for a in legal.actions]
    choice = HeuristicBot().choose(view, actions, rng or LocalRng(0))
    try:
        result = remote.submit(match_id, seat, legal.version, uuid.uuid4().hex, choice)
        if seat in result.decision.seats:  # it decides again: its next actions came along
            again = remote.legal(match_id, seat)
            assert again.version == result.version
            assert ([(a.action_id, a.description) for a in result.next_actions]
                    == [(a.action_id, a.description) for a in again.actions])
            assert result.next_default_action_id == again.default_action_id
        else:
            assert not result.next_actions and not result.next_default_action_id
        return int(result.version)
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.ABORTED:  # a timer or a bot moved first: read again
            return legal.version
        raise


def play_to_end(remote: Remote, match_id: str, seat: int, limit: int = 5000):
    for _ in range(limit):
        if play_one(remote, match_id, seat) is None:
            return remote.view(match_id, seat)[3]
    raise AssertionError("the match did not end")
