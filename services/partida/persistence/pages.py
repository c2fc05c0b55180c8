"""Opaque keyset page tokens: where the previous page stopped, and which listing it was of.

A token is the (timestamp, match_id) of the last match shown, so later pages stay correct
while new matches arrive; naming the listing stops a token from being replayed elsewhere.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from partida.platform.errors import InvalidArgument


def encode(listing: str, when: datetime, match_id: str) -> str:
    # UTF-8, not \u escapes (up to 12 bytes per character): a token naming long ids of
    # other scripts stays within the length validate.page_token accepts.
    data = json.dumps([listing, when.isoformat(), match_id], separators=(",", ":"),
                      ensure_ascii=False)
    return base64.urlsafe_b64encode(data.encode()).decode().rstrip("=")


def decode(listing: str, token: str) -> tuple[datetime, str] | None:
    """The position after which the page starts; None for the first page."""
    if not token:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        got, when, match_id = json.loads(raw)
        position = datetime.fromisoformat(when), str(match_id)
    except (binascii.Error, UnicodeDecodeError, ValueError, TypeError) as e:
        raise InvalidArgument("page_token is not a token this service issued") from e
    if got != listing:
        raise InvalidArgument("page_token belongs to another listing")
    return position
