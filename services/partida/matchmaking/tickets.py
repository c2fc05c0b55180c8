"""The ticket as matchmaking keeps it, and its gRPC form."""

from __future__ import annotations

from dataclasses import dataclass, replace

from google.protobuf.timestamp_pb2 import Timestamp

from partida.v1 import matchmaking_pb2 as pb

SEARCHING, CLAIMED, ASSIGNED = "SEARCHING", "CLAIMED", "ASSIGNED"
CANCELLED, EXPIRED, FAILED = "CANCELLED", "EXPIRED", "FAILED"
FINAL = frozenset({ASSIGNED, CANCELLED, EXPIRED, FAILED})

# CLAIMED is internal: a matcher holds the ticket while it creates the match. Clients keep
# seeing SEARCHING, since the claim may still be released.
_PUBLIC = {
    SEARCHING: pb.TICKET_STATUS_SEARCHING, CLAIMED: pb.TICKET_STATUS_SEARCHING,
    ASSIGNED: pb.TICKET_STATUS_ASSIGNED, CANCELLED: pb.TICKET_STATUS_CANCELLED,
    EXPIRED: pb.TICKET_STATUS_EXPIRED, FAILED: pb.TICKET_STATUS_FAILED,
}


@dataclass(frozen=True)
class Ticket:
    """One player's request for a table; times are Unix seconds."""

    ticket_id: str
    player_id: str
    game_id: str
    scenario_id: str  # "" for any scenario of the game
    seats: int
    fill_with_bots: bool
    rating: float
    created: float
    expires: float
    status: str = SEARCHING
    match_id: str = ""
    seat: int = 0
    campaign_id: str = ""  # the campaign the match is to count for, "" for none
    campaign_team: str = ""  # the player's team in it
    failure: str = ""  # why it FAILED

    @property
    def final(self) -> bool:
        return self.status in FINAL

    def with_status(self, status: str, **changes: object) -> Ticket:
        return replace(self, status=status, **changes)  # type: ignore[arg-type]


def to_proto(t: Ticket) -> pb.Ticket:
    return pb.Ticket(
        ticket_id=t.ticket_id, player_id=t.player_id, game_id=t.game_id,
        scenario_id=t.scenario_id, seats=t.seats, fill_with_bots=t.fill_with_bots,
        rating=t.rating, status=_PUBLIC[t.status], create_time=_timestamp(t.created),
        expire_time=_timestamp(t.expires), match_id=t.match_id, seat=t.seat,
        campaign_id=t.campaign_id, campaign_team=t.campaign_team, failure=t.failure)


def _timestamp(seconds: float) -> Timestamp:
    ts = Timestamp()
    ts.FromNanoseconds(round(seconds * 1e9))
    return ts
