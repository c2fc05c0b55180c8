"""Configuration from the environment (PARTIDA_*), with embedded defaults.

With nothing set, `partida serve` runs every service in one process with in-process session
state, SQLite and local bot threads.
"""

from __future__ import annotations

import ipaddress
from functools import cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from partida.rules.session import FINISHED_TTL, IDLE_TTL, MAX_MISSED


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PARTIDA_", extra="ignore")

    # Where state lives. Empty Redis/broker URLs mean in-process; the default database is a
    # SQLite file in the working directory.
    redis_url: str = ""
    database_url: str = "sqlite:///partida.db"
    broker_url: str = ""

    # Where this process listens; every service of a process shares the port.
    host: str = "127.0.0.1"
    port: int = Field(default=50051, ge=0, le=65535)
    # Where this process serves Prometheus metrics (GET /metrics on `host`); 0: no exporter.
    metrics_port: int = Field(default=9464, ge=0, le=65535)

    # Where the other services are, when they run as separate processes. Empty: in-process.
    rules_address: str = ""
    dice_address: str = ""
    persistence_address: str = ""
    matchmaking_address: str = ""

    # Secrets. The defaults only suit a laptop; deployments set them.
    token_secret: str = "partida-dev-secret-change-me-please"
    service_token_secret: str = "partida-dev-service-secret-change-me"
    api_keys: str = "dev-key=dev"  # comma-separated key=integrator pairs

    # Match behaviour.
    decision_timeout_seconds: int = Field(default=300, ge=0)
    # A player's seat whose decisions run out this many times in a row goes to its bot (the
    # player is away); a match may ask otherwise. 0: never.
    bot_after_missed_decisions: int = Field(default=2, ge=0, le=MAX_MISSED)
    match_idle_ttl_seconds: int = Field(default=IDLE_TTL, ge=60)
    # How long a finished match's live session stays (a later read rebuilds it from the log).
    match_finished_ttl_seconds: int = Field(default=FINISHED_TTL, ge=60)
    ticket_ttl_seconds: int = Field(default=300, ge=5)
    bot_fill_after_seconds: float = Field(default=10.0, ge=0)
    max_message_bytes: int = Field(default=1 << 20, ge=1024)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)
    # Requests per second each player may make to one process (0: unlimited), and the burst.
    player_rate_limit: float = Field(default=200.0, ge=0)
    player_rate_burst: float = Field(default=400.0, ge=1)
    # Each integrator's API-key calls likewise: 200/s is 720k sign-ups or logins an hour.
    integrator_rate_limit: float = Field(default=200.0, ge=0)
    integrator_rate_burst: float = Field(default=400.0, ge=1)
    # Failed authentications (a wrong API key or token) per second each client address may
    # make (0: unlimited), and the burst; beyond them, its calls bearing credentials are
    # refused unchecked. 1/s bounds a guesser to 86,400 keys a day. The rules and matchmaking
    # processes count them in Redis, for all their replicas together, when redis_url is set;
    # else each process counts its own.
    auth_failure_rate_limit: float = Field(default=1.0, ge=0)
    auth_failure_rate_burst: float = Field(default=20.0, ge=1)
    # Response streams (live match feeds, ticket watches) one player may keep open at once in
    # one process (platform/stream_slots).
    streams_per_player: int = Field(default=16, ge=1)
    # Response streams a rules, matchmaking or embedded process follows at once, in all. Each
    # holds a server thread while it waits (about 16 KB of memory), and a live feed in a rules
    # process on Redis holds a Redis connection too. Calls other than streams have threads of
    # their own beside these.
    max_streams: int = Field(default=2000, ge=1)

    def public_defaults_exposed(self) -> list[str]:
        """The secrets (as their PARTIDA_ variables) still at the built-in values, which anyone
        can read here, when the process listens beyond this machine: with them, anyone who
        reaches the port could sign player and service tokens (and so draw dice or append to
        logs) or create players. Empty when the host is a loopback address."""
        if _loopback(self.host):
            return []
        return [f"PARTIDA_{name.upper()}" for name in _SECRETS
                if getattr(self, name) == type(self).model_fields[name].default]

    def short_secrets_exposed(self) -> list[str]:
        """The token secrets (as their PARTIDA_ variables) shorter than MIN_SECRET_BYTES when
        the process listens beyond this machine: any player holds a token signed with the
        player secret, enough to guess a short one offline and then sign tokens at will.
        Empty when the host is a loopback address."""
        if _loopback(self.host):
            return []
        return [f"PARTIDA_{name.upper()}" for name in _SIGNING
                if len(getattr(self, name).encode()) < MIN_SECRET_BYTES]

    def integrators(self) -> dict[str, str]:
        """API key -> integrator name."""
        pairs = (p.split("=", 1) for p in self.api_keys.split(",") if "=" in p)
        return {k.strip(): v.strip() for k, v in pairs}


_SIGNING = ("token_secret", "service_token_secret")
_SECRETS = (*_SIGNING, "api_keys")
MIN_SECRET_BYTES = 32  # an HS256 key as long as its hash (RFC 7518, 3.2)
API_KEYS = "PARTIDA_API_KEYS"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name other than localhost may resolve anywhere
        return False


@cache
def settings() -> Settings:
    return Settings()
