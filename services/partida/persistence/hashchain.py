"""The log's hash chain: each record's hash covers the previous record's hash and its own
content, so that changing, removing or reordering any stored record shows.

hash = SHA-256(prev_hash || canonical JSON of the content), where the canonical JSON has
sorted keys, no whitespace, UTF-8, and the random values as decimal strings (they are
unsigned 64-bit, beyond what many JSON readers hold exactly). The first record's prev_hash
is 32 zero bytes. created_at is not covered: it is when the row was written, not what
happened.

The match's own record (its seats, options, dice commitment) is kept beside the log, not in
it; the set-up record's action_id carries its seal (match_seal), so that the chain covers
who sat in which seat and what was committed too. Set-up records written before the seal
have an empty action_id.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from partida.persistence.records import GENESIS, LogRecord


def canonical_content(match_id: str, record: LogRecord) -> bytes:
    content = {
        "match_id": match_id,
        "sequence": record.sequence,
        "kind": record.kind,
        "seat": record.seat,
        "action_id": record.action_id,
        "request_id": record.request_id,
        "random_positions": list(record.random_positions),
        "random_values": [str(v) for v in record.random_values],
        "events_json": record.events_json,
    }
    return _canonical(content)


def _canonical(content: Mapping[str, Any]) -> bytes:
    return json.dumps(content, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def match_seal(game_id: str, scenario_id: str, options: Mapping[str, Any],
               player_ids: Sequence[str], dice_commitment: bytes, campaign_id: str,
               rules_revision: int = 1) -> str:
    """The set-up record's action_id: a digest of the match's set-up as the match record
    keeps it (a bot's seat has no player: ""). Which bot plays a seat, and whether a person
    or a bot controls it, may change during the match, so neither is sealed. The rules'
    first edition is left out, so seals made before revisions were kept still match."""
    content: dict[str, Any] = {
        "game_id": game_id, "scenario_id": scenario_id, "options": options,
        "players": list(player_ids), "dice_commitment": dice_commitment.hex(),
        "campaign_id": campaign_id}
    if rules_revision != 1:
        content["rules_revision"] = rules_revision
    return "match:" + hashlib.sha256(_canonical(content)).hexdigest()


def record_hash(prev_hash: bytes, match_id: str, record: LogRecord) -> bytes:
    return hashlib.sha256(prev_hash + canonical_content(match_id, record)).digest()


def verify_chain(records: Iterable[LogRecord]) -> tuple[bool, int | None]:
    """Checks a whole log, from its set-up record, in order.

    Returns (True, None), or (False, s) where s is the first sequence at which the chain
    breaks: a wrong hash or prev_hash, a record of another match, or a gap (then s is the
    missing sequence).
    """
    prev, match_id = GENESIS, None
    for expected, record in enumerate(records):
        match_id = record.match_id if match_id is None else match_id
        if (record.sequence != expected or record.match_id != match_id
                or record.prev_hash != prev
                or record.hash != record_hash(prev, match_id, record)):
            return False, expected
        prev = record.hash
    return True, None
