"""Ledgers for tests of races between rules replicas."""

from __future__ import annotations

from partida.rules.ledger import LocalLedger


class PausingLedger(LocalLedger):
    """The real ledger; `then` runs once right after the next append, i.e. while the replica
    that appended has not yet written its session: where another replica can step in."""

    then = None

    def append_log(self, match_id, entries, controller=""):  # type: ignore[no-untyped-def]
        super().append_log(match_id, entries, controller)
        then, self.then = self.then, None
        if then is not None:
            then()
