"""Tokens and API keys (ARCHITECTURE.md, "Security"): who a bearer token proves, and when it
stops proving it."""

import time

import jwt
import pytest

from partida.platform.auth import PLAYER, SERVICE, Authority, Principal
from partida.platform.errors import Unauthenticated

PLAYER_SECRET, SERVICE_SECRET = "p" * 32, "s" * 32


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def authority(clock):
    return Authority(PLAYER_SECRET, SERVICE_SECRET, {"key-1": "acme"}, clock=clock)


def test_player_and_service_tokens_prove_their_kind_and_subject(authority):
    token, _ = authority.player_token("ana", 3600)
    assert authority.verify(token) == Principal(PLAYER, "ana")
    assert authority.verify(token) == Principal(PLAYER, "ana")  # again, remembered
    assert authority.verify(authority.service_token("rules")) == Principal(SERVICE, "rules")


def test_tokens_of_other_secrets_or_tampered_are_refused(authority):
    other = Authority("x" * 32, "y" * 32, {})
    for token in (other.player_token("ana", 3600)[0], other.service_token("rules"), "garbage"):
        with pytest.raises(Unauthenticated):
            authority.verify(token)
    token, _ = authority.player_token("ana", 3600)
    head, body, sig = token.split(".")
    with pytest.raises(Unauthenticated):
        authority.verify(f"{head}.{body}.{sig[::-1]}")


def test_a_player_token_is_not_a_service_token(authority):
    # Signed with the player secret but claiming the service type: refused.
    forged = jwt.encode({"sub": "rules", "typ": SERVICE}, PLAYER_SECRET, algorithm="HS256")
    with pytest.raises(Unauthenticated):
        authority.verify(forged)


def test_an_expired_token_is_refused_even_after_it_was_proven(authority, clock):
    stale, _ = authority.player_token("ana", 60, now=time.time() - 120)
    with pytest.raises(Unauthenticated, match="expired"):
        authority.verify(stale)
    token, expires = authority.player_token("bob", 60)
    assert authority.verify(token).subject == "bob"
    clock.now = expires + 1  # the remembered proof ends with the token
    with pytest.raises(Unauthenticated, match="expired"):
        authority.verify(token)


def test_api_keys_name_their_integrator(authority):
    assert authority.integrator("key-1") == "acme"
    with pytest.raises(Unauthenticated):
        authority.integrator("key-2")
