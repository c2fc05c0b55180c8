"""The rules service's own work per client action, without gRPC: the embedded server's parts
(in-process sessions, SQLite, the same wiring as `partida serve`) driven by calling the rules
servicer's methods directly, as the bench's clients drive them over the network (list the
seat's actions unless the last response gave them, then submit the default).

Read against the embedded server's CPU per action, this splits it into what the service's
code costs and what serving it over gRPC adds. Driven from one thread, then from many at once
(as a server's call threads run): the difference is what threads contending for the
interpreter, and the larger batches of the group commit, do to the same work.
"""

from __future__ import annotations

import multiprocessing as mp
import tempfile
import threading
import time
import uuid
from typing import Any

MATCHES = 200
WARM_ACTIONS = 2000
SECONDS = 10.0
THREADS = (1, 32)


def _parts(folder: str) -> tuple[Any, Any, Any]:
    from partida.platform.assembly import build
    from partida.platform.config import Settings
    from partida.platform.gc_tuning import freeze_startup
    from partida.rules.service import RulesServicer

    process = build("all", Settings(database_url=f"sqlite:///{folder}/partida.db",
                                    metrics_port=0, port=0))
    for _, check in process.checks:  # the database answers and is migrated
        check()
    freeze_startup()  # as `partida serve` does once started
    matches = process.parts["matches"]
    return process, matches, RulesServicer(matches)


def _measure(threads: int) -> tuple[float, float]:
    """(actions per second, CPU milliseconds per action) with `threads` callers, each
    keeping its share of MATCHES going for SECONDS."""
    from partida.platform.auth import Principal
    from partida.platform.calls import principal_var
    from partida.rules.session import SeatMeta
    from partida.v1 import common_pb2, rules_pb2

    process, matches, rules = _parts(tempfile.mkdtemp(prefix="partida-inprocess-"))

    def new_match() -> list[Any]:
        players = [uuid.uuid4().hex[:16] for _ in range(2)]
        s = matches.create("montanas", "standard", [SeatMeta(p) for p in players],
                           {"first_seat": 0})
        return [s.match_id, players, 0, None]  # id, players, seat to act, (version, action)

    def step(m: list[Any]) -> list[Any]:
        match_id, players, seat, known = m
        principal_var.set(Principal("player", players[seat]))
        if known is None:
            legal = rules.ListLegalActions(rules_pb2.ListLegalActionsRequest(
                match_id=match_id, seat=seat), None)
            known = (legal.version, legal.default_action_id)
        r = rules.SubmitAction(rules_pb2.SubmitActionRequest(
            match_id=match_id, seat=seat, expected_version=known[0],
            request_id=uuid.uuid4().hex, action=common_pb2.Action(action_id=known[1])), None)
        if r.HasField("outcome") or not r.decision.seats:
            return new_match()
        return [match_id, players, r.decision.seats[0],
                (r.version, r.next_default_action_id) if r.next_default_action_id else None]

    lanes = [[new_match() for _ in range(MATCHES // threads)] for _ in range(threads)]
    slots = [(lane, j) for lane in lanes for j in range(len(lane))]
    for i in range(WARM_ACTIONS):  # matches at every stage of their lives
        lane, j = slots[i % len(slots)]
        lane[j] = step(lane[j])
    done = [0] * threads
    stop = time.perf_counter() + SECONDS

    def drive(k: int) -> None:
        lane, i = lanes[k], 0
        while time.perf_counter() < stop:
            lane[i % len(lane)] = step(lane[i % len(lane)])
            i += 1
        done[k] = i

    workers = [threading.Thread(target=drive, args=(k,)) for k in range(threads)]
    cpu, wall = time.process_time(), time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    process.stop(0)
    actions = sum(done)
    return actions / wall, cpu * 1000 / max(1, actions)


def inprocess() -> dict[str, float]:
    """Each measurement in a fresh process (a clean heap and no threads left from another)."""
    out: dict[str, float] = {}
    with mp.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        for threads in THREADS:
            rate, cpu = pool.apply(_measure, (threads,))
            out[f"inprocess_actions_per_s_{threads}_threads"] = rate
            out[f"inprocess_cpu_ms_per_action_{threads}_threads"] = cpu
    return out


if __name__ == "__main__":
    for name, value in inprocess().items():
        print(f"{name} {value:.2f}")
