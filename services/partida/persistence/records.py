"""Plain values the store takes and returns; the gRPC layer converts protos to and from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

SETUP, ACTION, TIMEOUT, RESIGN = "setup", "action", "timeout", "resign"
KINDS = (SETUP, ACTION, TIMEOUT, RESIGN)
CONTROLLERS = ("human", "bot")  # who takes a seat's decisions: its player, or a bot
SERVER_SEAT = -1  # the seat of records the server wrote (a timed-out default, a resignation)
GENESIS = bytes(32)  # prev_hash of a log's first record


@dataclass(frozen=True)
class Player:
    player_id: str
    integrator: str
    external_id: str
    display_name: str
    created_at: datetime


@dataclass(frozen=True)
class Seat:
    seat: int
    player_id: str = ""  # "" for a seat created for a bot
    controller: str = "human"  # "human" or "bot": who takes the seat's decisions now
    bot: str = ""
    side: str = ""
    campaign_team: str = ""  # "" outside campaigns, or a seat scoring for no team


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...] = ()
    draw: bool = False
    reason: str = ""
    scores: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    match_id: str
    game_id: str
    scenario_id: str
    seats: tuple[Seat, ...]
    dice_commitment: bytes
    options_json: str = "{}"
    decision_timeout_seconds: int = 0
    spectator_delay_actions: int = 0
    bot_after_missed_decisions: int = 0  # 0: a player's seat is never handed to a bot
    status: str = "active"
    version: int = 0  # the last log sequence: actions applied so far
    dice_seed: bytes | None = None
    outcome: Outcome | None = None
    created_at: datetime | None = None  # None: now, when recording
    finished_at: datetime | None = None
    campaign_id: str = ""  # "" when the match is in no campaign
    rules_revision: int = 1  # the game's GameInfo.rules_revision when it was created


@dataclass(frozen=True)
class LogRecord:
    sequence: int
    kind: str
    seat: int = SERVER_SEAT
    action_id: str = ""
    request_id: str = ""
    random_positions: tuple[int, ...] = ()
    random_values: tuple[int, ...] = ()  # unsigned 64-bit
    events_json: str = "[]"
    created_at: datetime | None = None  # None: now, when appending
    # Set by the store; a record handed to append_log leaves them empty.
    match_id: str = ""
    prev_hash: bytes = b""
    hash: bytes = b""


@dataclass(frozen=True)
class Rating:
    player_id: str
    game_id: str
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    matches: int = 0


@dataclass(frozen=True)
class DiceStream:
    match_id: str
    seed: bytes
    commitment: bytes
    next_position: int
    revealed: bool


@dataclass(frozen=True)
class Page:
    """One page of matches, newest first; next_page_token is "" on the last page."""

    matches: tuple[Match, ...]
    next_page_token: str = ""


@dataclass(frozen=True)
class CampaignTeam:
    name: str
    player_ids: tuple[str, ...]


@dataclass(frozen=True)
class ScenarioResult:
    """The match that counts for a scenario of a campaign, and the teams it gave a point."""

    scenario_id: str
    match_id: str
    winning_teams: tuple[str, ...]
    finished_at: datetime


@dataclass(frozen=True)
class Standing:
    team: str
    points: int = 0
    scenarios_played: int = 0


@dataclass(frozen=True)
class Campaign:
    campaign_id: str
    game_id: str
    teams: tuple[CampaignTeam, ...]
    scenario_ids: tuple[str, ...]
    created_at: datetime
    results: tuple[ScenarioResult, ...] = ()
    standings: tuple[Standing, ...] = ()
    finished: bool = False
    leaders: tuple[str, ...] = ()
