"""A live feed (StreamMatch) waiting for the match to move, when its process begins to drain
(the session store's close): it ends at once, UNAVAILABLE, on either store."""

from __future__ import annotations

import grpc
import pytest

from partida.v1 import rules_pb2
from tests.integration.test_feeds_streams import _items, matches, sessions  # noqa: F401
from tests.unit.rules.conftest import new_match, served, step

# The feed's own deadline: far shorter than a wait on Redis (MAX_WAIT_SECONDS), so a feed the
# close fails to end reports DEADLINE_EXCEEDED instead of holding the test.
FEED_SECONDS = 10


def test_a_waiting_feed_ends_unavailable_when_the_store_closes(matches, sessions):  # noqa: F811
    s = new_match(matches)
    step(matches, s.match_id)
    with served(matches, "alice") as (stub, md):
        feed = stub.StreamMatch(rules_pb2.StreamMatchRequest(match_id=s.match_id, seat=0),
                                metadata=md, timeout=FEED_SECONDS)
        assert _items(feed, lambda i: i.HasField("view"))[-1].view.version == 1
        assert sessions.waiting.wait(FEED_SECONDS), "the feed never waited"
        sessions.inner.close()
        with pytest.raises(grpc.RpcError) as ended:
            _items(feed, lambda i: False)
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
