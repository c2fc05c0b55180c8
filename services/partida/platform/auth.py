"""Player and service tokens (signed JWTs, HS256) and integrator API keys.

A player token names one player and expires; a service token lets one service call another's
internal methods (CreateMatch, Draw, AppendLog, ...). Both travel as
"authorization: Bearer <token>"; API keys as "x-api-key".
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass

import jwt

from partida.platform.errors import PermissionDenied, Unauthenticated

_ALG = "HS256"
_PROVEN_KEPT = 10_000  # proven tokens remembered (then forgotten all at once)
PLAYER, SERVICE = "player", "service"


class TokenExpired(Unauthenticated):
    """A token whose signature holds but whose time is up: it was issued, not guessed (so
    platform/calls does not count it as a failed attempt of the caller's address). Its
    reason tells clients to take a new token rather than give up."""

    reason = "token-expired"


@dataclass(frozen=True)
class Principal:
    """Who is calling: a player (with its id) or a service (with its name)."""

    kind: str
    subject: str

    @property
    def is_service(self) -> bool:
        return self.kind == SERVICE


class Authority:
    """Issues and checks tokens with the deployment's secrets."""

    def __init__(self, player_secret: str, service_secret: str,
                 integrators: dict[str, str], clock: Callable[[], float] = time.time) -> None:
        self._player_secret = player_secret
        self._service_secret = service_secret
        self._integrators = integrators
        self._proven: dict[str, tuple[Principal, float | None]] = {}
        self._clock = clock

    def player_token(self, player_id: str, ttl_seconds: int, now: float | None = None) -> tuple[
            str, int]:
        issued = int(now if now is not None else time.time())
        expires = issued + ttl_seconds
        token = jwt.encode({"sub": player_id, "iat": issued, "exp": expires, "typ": PLAYER},
                           self._player_secret, algorithm=_ALG)
        return token, expires

    def service_token(self, service: str) -> str:
        return jwt.encode({"sub": service, "typ": SERVICE}, self._service_secret, algorithm=_ALG)

    def verify(self, token: str) -> Principal:
        """The principal a bearer token proves, or Unauthenticated. Tokens come back on every
        call, so one already proven is remembered with its expiry (checking a signature costs
        more than the rest of a cheap call's authentication)."""
        known = self._proven.get(token)
        if known is not None:
            if self._live(known):
                return known[0]
            raise TokenExpired("the token has expired")
        principal, expires = self._check(token)
        if len(self._proven) >= _PROVEN_KEPT:
            self._proven.clear()
        self._proven[token] = (principal, expires)
        return principal

    def proven(self, token: str) -> Principal | None:
        """The principal of a token this process has already verified, if it has not expired
        since; None otherwise. No signature is checked."""
        known = self._proven.get(token)
        return known[0] if known is not None and self._live(known) else None

    def _live(self, known: tuple[Principal, float | None]) -> bool:
        expires = known[1]
        return expires is None or self._clock() < expires

    def _check(self, token: str) -> tuple[Principal, float | None]:
        for secret, kind in ((self._player_secret, PLAYER), (self._service_secret, SERVICE)):
            try:
                # Not iat: the issuing process's clock may run ahead of this one's, and a
                # token stamped in this clock's future was refused; exp bounds its life.
                claims = jwt.decode(token, secret, algorithms=[_ALG],
                                    options={"require": ["sub", "typ"], "verify_iat": False})
            except jwt.ExpiredSignatureError:  # raised only once the signature holds
                raise TokenExpired("the token has expired") from None
            except jwt.InvalidTokenError:
                continue
            if claims.get("typ") == kind:
                expires = claims.get("exp")
                return Principal(kind, str(claims["sub"])), (float(expires) if expires else None)
        raise Unauthenticated("the token is not valid")

    def integrator(self, api_key: str) -> str:
        """The integrator an API key belongs to (compared in constant time)."""
        for key, name in self._integrators.items():
            if hmac.compare_digest(key.encode(), api_key.encode()):
                return name
        raise Unauthenticated("unknown API key")


def require_service(principal: Principal | None) -> Principal:
    if principal is None:
        raise Unauthenticated("a service token is required")
    if not principal.is_service:
        raise PermissionDenied("only partida services may call this method")
    return principal


def require_player(principal: Principal | None) -> Principal:
    if principal is None:
        raise Unauthenticated("a player token is required")
    return principal
