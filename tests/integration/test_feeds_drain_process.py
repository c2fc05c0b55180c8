"""A rules process on Redis that begins to stop (drain) ends the feeds waiting on its session
store at once, UNAVAILABLE, as one on the in-process store does: the process wires the
store's close into its draining hooks whichever store it runs (issue 3, "Running it"). Before,
only the in-process store's close was wired, and a feed waiting on Redis held the stop for up
to the wait's 20 s."""

from __future__ import annotations

import threading
import time

from partida.platform.assembly import build
from partida.platform.auth import PLAYER, Principal
from partida.platform.config import Settings
from partida.platform.errors import Unavailable
from partida.rules.redis_session import MAX_WAIT_SECONDS
from partida.rules.session import SeatMeta


def test_a_rules_process_on_redis_ends_its_waiting_feeds_as_it_drains(redis_url, tmp_path):
    proc = build("all", Settings(redis_url=redis_url, metrics_port=0, port=0,
                                 database_url=f"sqlite:///{tmp_path / 'partida.db'}"))
    proc.start()
    try:
        assert proc.ready.wait(30), "the process never became ready"
        matches = proc.parts["matches"]
        s = matches.create("montanas", "standard", [SeatMeta("ana"), SeatMeta("bo")],
                           {"first_seat": 0})
        ended: list[BaseException | None] = []

        def follow() -> None:  # waits for the match to move, which it never does
            try:
                matches.events(s.match_id, 0, Principal(PLAYER, "ana"), s.event_seq,
                               MAX_WAIT_SECONDS, s.version)
                ended.append(None)
            except BaseException as e:  # noqa: BLE001 (what ended it is the point)
                ended.append(e)

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        time.sleep(0.5)  # into its wait (should it not be yet, close refuses it on entry)
    finally:
        proc.stop(grace=MAX_WAIT_SECONDS * 2)
    follower.join(MAX_WAIT_SECONDS / 2)  # the wait's own end would come later than this
    assert not follower.is_alive(), "the feed still waits after the drain"
    assert len(ended) == 1 and isinstance(ended[0], Unavailable), ended
