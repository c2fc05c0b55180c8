"""JSON on the hot path (sessions, their events and cached responses, views and events sent to
clients) through orjson, several times faster than the standard library's module.

For what the engines produce (str or int keys, ints within 64 bits, strings, lists, tuples)
it reads and writes the same values as `json`; the text differs only in that non-ASCII
characters are written as UTF-8 rather than escaped. The log's events_json, which its hash
chain covers, keeps the standard library's form.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # int keys become strings, as json.dumps makes them


def dumps(value: Any, sort_keys: bool = False) -> str:
    """Compact JSON text (no spaces), keys sorted if asked."""
    return orjson.dumps(value, option=_OPTIONS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
                        ).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)
