"""A chaos soak of the multi-process stack: `make soak` (minutes long; not part of the tests).

Players play Las Montañas through both rules replicas (matches created for them, and matches
found through matchmaking, a bot filling a seat nobody took), and all-bot matches run on the
Celery worker. A quarter of the players' tables play on the server's clock, one of their
players now and then letting a decision run out (the default is taken for it, the seat goes to
its bot after two, and the player takes it back). Meanwhile, every 12 to 20 s, one fault
strikes: a process is killed (a rules replica, matchmaking, persistence, dice, the worker) and
started again, Redis loses
everything, or both at once. Then every match is audited from its durable record (the dice
against the revealed seed, the hash chain, a replay through the engine: rules/audit), and
every action a player was told had been applied is looked up in its match's log. One seat of
each table follows its live feed throughout, resuming after each outage: it must have brought
each of the seat's events once, in order. With --embedded, the same against `partida serve`
(one process: SQLite, sessions and bots in-process), killed and started again as the fault.

It fails (exit status 1) if an acknowledged action is missing from its log, a record fails its
audit, a match never ends, or a call fails in a way a client could not have retried. A player
retries as the CLI does: UNAVAILABLE with backoff (the client's own), and a submit whose
answer was lost with the same request id (applied at most once).

    .venv/bin/python tests/soak/run.py --seconds 600 --seed 7
    .venv/bin/python tests/soak/run.py --embedded   # `partida serve`, restarted as the fault
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis

from partida.cli.remote import Remote
from partida.devstack.servers import postgres_server, redis_server
from partida.devstack.stack import API_KEY, SECRETS, Stack, embedded_stack, split_stack
from partida.platform.auth import Authority
from partida.rules.audit import audit
from partida.rules.matches import project
from partida.v1 import rules_pb2

PAUSE = (12.0, 20.0)  # seconds between faults
DOWN = (0.2, 3.0)  # how long a killed process stays down
RETRY_SECONDS = 30.0  # how long a player retries UNAVAILABLE, as the CLI's --retry
FINISH_SECONDS = 240.0  # after the soak, for the matches under way to end
# A submit whose answer never came (or came as an outage) is sent again, same request id.
LOST_ANSWER = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
# A submit another's move made stale: the player reads the match again.
STALE = (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION)
# The timed tables' matches: a decision runs out in a second; two in a row hand the seat over.
TIMED = {"decision_timeout_seconds": 1, "bot_after_missed_decisions": 2}


@dataclass
class Tally:
    """What the players saw, shared by their threads."""

    acknowledged: dict[str, dict[int, str]] = field(default_factory=dict)  # match: version: rid
    matches: dict[str, Remote] = field(default_factory=dict)  # each with a client that reads it
    feeds: dict[str, tuple[int, list[int]]] = field(default_factory=dict)  # match: seat, seqs
    bot_matches: list[str] = field(default_factory=list)
    retried: Counter[str] = field(default_factory=Counter)  # outcomes met and gone past
    feeds_opened: Counter[str] = field(default_factory=Counter)  # beyond one a feed: resumed
    clock: Counter[str] = field(default_factory=Counter)  # what the timed tables' players did
    failures: list[str] = field(default_factory=list)  # the problems the players met
    lock: threading.Lock = field(default_factory=threading.Lock)

    def acked(self, match_id: str, version: int, request_id: str) -> None:
        with self.lock:
            self.acknowledged.setdefault(match_id, {})[version] = request_id

    def count(self, what: str, of: Counter[str] | None = None) -> None:
        """One more `what`, of the outcomes gone past (or of the counter `of`)."""
        with self.lock:
            (self.retried if of is None else of)[what] += 1

    def fail(self, problem: str) -> None:
        with self.lock:
            self.failures.append(problem)

    def failed(self, what: str, e: grpc.RpcError) -> None:
        self.fail(f"{what}: {e.code().name} {e.details()}")


class Soak:
    def __init__(self, stack: Stack, seconds: float, seed: int, embedded: bool) -> None:
        self.stack = stack
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.until = time.monotonic() + seconds
        self.finish_by = self.until + FINISH_SECONDS
        self.stop = threading.Event()  # the faults end with the soak
        self.faults: list[str] = []
        self.menu: dict[str, Callable[[], None]]
        if embedded:  # one process: its restart is the fault
            self.rules = [stack.address]
            self.menu = {"the server": lambda: self._restart("all")}
        else:
            replica = stack.add_replica("rules")
            self.rules = [stack.address, stack.addresses[replica]]
            self.menu = {
                **{name: (lambda n=name: self._restart(n))
                   for name in ("rules", replica, "matchmaking", "persistence", "dice",
                                "worker")},
                "redis flushed": self._flush,
                "rules killed, redis flushed": lambda: self._restart("rules", self._flush),
            }
        token = Authority(SECRETS["PARTIDA_TOKEN_SECRET"],
                          SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"], {}).service_token("soak")
        self.service = [self._client(a, (("authorization", f"Bearer {token}"),))
                        for a in self.rules]

    def _client(self, rules: str, metadata: tuple[tuple[str, str], ...] = ()) -> Remote:
        remote = Remote(rules, addresses={**self.stack.addresses, "rules": rules})
        remote.retry_seconds = RETRY_SECONDS
        remote.metadata = metadata
        return remote

    def player(self, rules: str) -> Remote:
        remote = self._client(rules)
        remote.login(API_KEY, f"soak-{uuid.uuid4().hex[:8]}")
        return remote

    def going(self) -> bool:
        return time.monotonic() < self.until

    # ----- players --------------------------------------------------------------------------
    def table(self, lane: int) -> None:
        """Two players at one table, match after match, both seats played in turn. Every
        fourth table plays on the server's clock (TIMED): its seat 1 sometimes lets its
        decision run out, so that the server takes the default action, hands the seat to its
        bot after two in a row, and the player takes it back."""
        rules = self.rules[lane % len(self.rules)]
        timed = lane % 4 == 3
        dawdle = random.Random(lane) if timed else None
        players = {0: self.player(rules), 1: self.player(rules)}
        opened = players[0].stream

        def stream(*args: Any, **kwargs: Any) -> Any:  # a feed opened more than once resumed
            self.tally.count("opened", self.tally.feeds_opened)
            return opened(*args, **kwargs)

        players[0].stream = stream
        service = self.service[lane % len(self.rules)]
        seats = [rules_pb2.SeatRequest(player_id=p.player_id) for p in players.values()]
        while self.going():
            match_id = self._create(service, seats, **(TIMED if timed else {}))
            got: list[int] = []
            with self.tally.lock:
                self.tally.feeds[match_id] = (0, got)
            feed = threading.Thread(target=self._follow, args=(match_id, players[0], 0, got))
            feed.start()
            self._play(match_id, players, dawdle)
            feed.join(max(1.0, self.finish_by - time.monotonic()))

    def _follow(self, match_id: str, me: Remote, seat: int, got: list[int]) -> None:
        """The seat's live feed, followed to the match's end across the faults as a client
        does (after an outage it asks again for what came after the last event it had):
        the sequence number of every event received, to be checked against the log."""
        try:
            for item in me.follow(match_id, seat):
                if item.HasField("event"):
                    got.append(item.event.sequence)
        except grpc.RpcError as e:
            self.tally.failed("StreamMatch", e)

    def seeker(self, lane: int) -> None:
        """One player finding matches through matchmaking (a bot takes a seat left empty),
        playing its own seat; the other seat is another seeker's or the worker's."""
        me = self.player(self.rules[lane % len(self.rules)])
        while self.going():
            try:
                seat = next(t for t in me.find_match("montanas", "standard", 2, True,
                                                     uuid.uuid4().hex,
                                                     retry_seconds=RETRY_SECONDS)
                            if t.match_id)
            except grpc.RpcError as e:  # a ticket Redis lost is said so: the player seeks again
                self.tally.count(f"SeekMatch {e.code().name}")
                if e.code() != grpc.StatusCode.NOT_FOUND:
                    self.tally.failed("SeekMatch", e)
                continue
            except StopIteration:
                self.tally.fail("a ticket ended without a match")
                continue
            self._play(seat.match_id, {seat.seat: me})

    def _create(self, service: Remote, seats: list[Any], **options: int) -> str:
        """A new match (as matchmaking creates them), asked again with the same request id
        while the answer is lost."""
        request = rules_pb2.CreateMatchRequest(game_id="montanas", scenario_id="standard",
                                               request_id=uuid.uuid4().hex, seats=seats,
                                               **options)
        while True:
            try:
                return str(service.call(service.rules, "CreateMatch", request).match.match_id)
            except grpc.RpcError as e:
                self.tally.count(f"CreateMatch {e.code().name}")
                if e.code() not in LOST_ANSWER:
                    raise

    def _play(self, match_id: str, players: dict[int, Remote],
              dawdle: random.Random | None = None) -> None:
        """Play the seats of `players` (by seat) until the match ends; with `dawdle`, seat 1
        is a player who now and then looks away (see `table`)."""
        reader = next(iter(players.values()))
        with self.tally.lock:
            self.tally.matches.setdefault(match_id, reader)
        while time.monotonic() < self.finish_by:
            look = self._read(lambda: reader.look(match_id, None), "GetView")
            if look is None:
                continue
            if look.HasField("outcome"):
                return
            bots = set(look.decision.bot_seats)
            if dawdle is not None and 1 in bots and dawdle.random() < 0.3:
                if self._read(lambda: players[1].take_back(match_id, 1), "SetSeatController",
                              LOST_ANSWER + STALE):  # the match may have moved on, or ended
                    self.tally.count("seats taken back", self.tally.clock)
                continue
            mine = [s for s in look.decision.seats if s in players and s not in bots]
            if dawdle is not None and 1 in mine and dawdle.random() < 0.3:
                self.tally.count("decisions left to run out", self.tally.clock)
                time.sleep(TIMED["decision_timeout_seconds"] * 1.5)
                continue
            if not mine:
                time.sleep(0.05)
                continue
            self._act(match_id, mine[0], players[mine[0]])
        self.tally.fail(f"match {match_id} did not end in time")

    def _act(self, match_id: str, seat: int, me: Remote) -> None:
        legal = self._read(lambda: me.legal(match_id, seat), "ListLegalActions")
        if legal is None:
            return
        if not legal.actions:  # the decision moved on since the look (the clock, the bot)
            self.tally.count("ListLegalActions: no longer to act")
            return
        request_id = uuid.uuid4().hex
        while time.monotonic() < self.finish_by:
            try:
                result = me.submit(match_id, seat, legal.version, request_id,
                                   legal.default_action_id)
            except grpc.RpcError as e:
                self.tally.count(f"SubmitAction {e.code().name}")
                if e.code() in LOST_ANSWER:
                    continue  # the same request again: applied at most once
                if e.code() not in STALE:
                    self.tally.failed("SubmitAction", e)
                return
            self.tally.acked(match_id, result.version, request_id)
            return

    def _read(self, call: Callable[[], Any], what: str,
              expected: tuple[grpc.StatusCode, ...] = LOST_ANSWER) -> Any:
        try:
            return call()
        except grpc.RpcError as e:
            self.tally.count(f"{what} {e.code().name}")
            if e.code() not in expected:
                self.tally.failed(what, e)
            time.sleep(0.5)
            return None

    def bots(self, lane: int) -> None:
        """All-bot matches on the worker, one after another."""
        service = self.service[lane % len(self.rules)]
        while self.going():
            match_id = self._create(service, [rules_pb2.SeatRequest(bot="heuristic")] * 2)
            with self.tally.lock:
                self.tally.bot_matches.append(match_id)
            while time.monotonic() < self.finish_by:
                look = self._read(lambda m=match_id: service.look(m, None), "GetView")
                if look is not None and look.HasField("outcome"):
                    break
                time.sleep(0.3)

    # ----- faults ---------------------------------------------------------------------------
    def _flush(self) -> None:
        redis.Redis.from_url(self.stack.redis_url).flushall()

    def _restart(self, name: str, meanwhile: Callable[[], None] = lambda: None) -> None:
        self.stack.kill(name)
        meanwhile()
        time.sleep(self.rng.uniform(*DOWN))
        self.stack.start(name)

    def strike(self) -> None:
        """One fault, chosen by the seeded generator."""
        name = self.rng.choice(sorted(self.menu))
        self.menu[name]()
        self.faults.append(name)
        print(f"  {time.strftime('%H:%M:%S')} fault: {name}", flush=True)

    def chaos(self) -> None:
        while not self.stop.wait(self.rng.uniform(*PAUSE)):
            self.strike()

    # ----- the run and its audit ------------------------------------------------------------
    def run(self, tables: int, seekers: int, bot_lanes: int) -> None:
        lanes = ([threading.Thread(target=self._guard(self.table), args=(i,))
                  for i in range(tables)]
                 + [threading.Thread(target=self._guard(self.seeker), args=(i,))
                    for i in range(seekers)]
                 + [threading.Thread(target=self._guard(self.bots), args=(i,))
                    for i in range(bot_lanes)])
        faults = threading.Thread(target=self.chaos)
        for t in [*lanes, faults]:
            t.start()
        time.sleep(max(0.0, self.until - time.monotonic()))
        self.stop.set()
        faults.join()
        for t in lanes:
            t.join(max(1.0, self.finish_by + 30 - time.monotonic()))

    def _guard(self, lane: Callable[[int], None]) -> Callable[[int], None]:
        """A lane that meets an error nobody retries (or a bug of its own) records it and ends."""
        def run(i: int) -> None:
            try:
                lane(i)
            except grpc.RpcError as e:
                self.tally.failed(lane.__name__, e)
            except Exception as e:
                self.tally.fail(f"{lane.__name__} {i} stopped: {e!r}")
                raise
        return run

    def verdict(self) -> list[str]:
        """Every problem found in the record of what was played."""
        t = self.tally
        problems = list(t.failures)
        reads = [(m, r) for m, r in t.matches.items()]
        reads += [(m, self.service[0]) for m in t.bot_matches]
        for match_id, reader in reads:
            log = reader.match_log(match_id)
            logged = {r.sequence: r.request_id for r in log.records}
            t.clock["defaults the server took at a deadline"] += sum(
                r.kind == "timeout" for r in log.records)
            for version, request_id in t.acknowledged.get(match_id, {}).items():
                if logged.get(version) != request_id:
                    problems.append(f"match {match_id}: acknowledged version {version} "
                                    f"({request_id}) is not in its log")
            problems += [f"match {match_id}: {p}" for p in audit(log.match, list(log.records))]
            if match_id in t.feeds:
                seat, got = t.feeds[match_id]
                events = [e for r in log.records for e in json.loads(r.events_json)]
                wanted = [e["seq"] for e in project(events, seat)]
                if got != wanted:
                    problems.append(f"match {match_id}: seat {seat}'s feed brought events "
                                    f"{_gaps(got, wanted)}")
        return problems


def _gaps(got: list[int], wanted: list[int]) -> str:
    """How a feed's events differ from those it should have brought."""
    missing, extra = sorted(set(wanted) - set(got)), sorted(set(got) - set(wanted))
    twice = len(got) - len(set(got))
    return (f"missing {missing[:10]}, not its own {extra[:10]}, {twice} twice, "
            f"{'in' if sorted(set(got)) == got else 'out of'} order")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=16, help="lanes of two players")
    parser.add_argument("--seekers", type=int, default=8, help="players using matchmaking")
    parser.add_argument("--bots", type=int, default=6, help="lanes of all-bot matches")
    parser.add_argument("--embedded", action="store_true",
                        help="the one-process server (SQLite, in-process sessions and bots)")
    args = parser.parse_args()
    with contextlib.ExitStack() as running:
        if args.embedded:
            stack = running.enter_context(embedded_stack())
        else:
            pg = running.enter_context(postgres_server(durable=True))
            stack = running.enter_context(split_stack(running.enter_context(redis_server()), pg))
        soak = Soak(stack, args.seconds, args.seed, args.embedded)
        print(f"soak of the {'embedded server' if args.embedded else 'split stack'}: "
              f"{args.seconds:g} s, seed {args.seed}, {args.tables} tables, "
              f"{args.seekers} seekers, {args.bots} bot lanes", flush=True)
        soak.run(args.tables, args.seekers, args.bots)
        problems = soak.verdict()
    t = soak.tally
    struck = ", ".join(f"{name} {n}" for name, n in Counter(soak.faults).most_common())
    print(f"faults: {len(soak.faults)} ({struck})")
    print(f"matches audited: {len(t.matches)} played by clients, {len(t.bot_matches)} by bots; "
          f"acknowledged actions looked up: {sum(len(v) for v in t.acknowledged.values())}; "
          f"live feeds checked: {len(t.feeds)}, with "
          f"{sum(len(got) for _, got in t.feeds.values())} events, resumed "
          f"{t.feeds_opened['opened'] - len(t.feeds)} times")
    print(f"on the clock: {dict(t.clock)}")
    print(f"calls met an outage or a stale version and went on: {dict(t.retried)}")
    print(f"problems: {len(problems)}")
    for p in problems[:20]:
        print(f"  {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
