"""Audit findings on tokens (platform/auth.py)."""

from __future__ import annotations

import time

from partida.platform.auth import PLAYER, Authority, Principal

PLAYER_SECRET, SERVICE_SECRET = "p" * 32, "s" * 32


def test_a_token_issued_by_a_process_whose_clock_runs_ahead_is_accepted():
    """Tokens are issued by the persistence service and checked by every other process, each
    with its own clock. A token stamped (iat) by a clock a few seconds ahead was refused as
    "not valid" until this process's clock caught up: a client that logged in and called at
    once was turned away. Only its expiry bounds a token's life."""
    issuer, checker = (Authority(PLAYER_SECRET, SERVICE_SECRET, {}) for _ in range(2))
    token, _ = issuer.player_token("ana", 3600, now=time.time() + 5)
    assert checker.verify(token) == Principal(PLAYER, "ana")
