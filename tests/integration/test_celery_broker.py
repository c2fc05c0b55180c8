"""Bot turns on a real redis-server broker, through partida's kombu transport and the
scheduler's own producers (partida.ai.broker, CeleryBotScheduler): the message is the one
Celery's apply_async sends, a turn taken but never acknowledged comes back, and every turn
queued from many threads arrives (issue 3, bot turns on Celery)."""

import base64
import json
import threading
import time
from datetime import datetime

import grpc
import pytest
import redis
from celery.exceptions import Retry
from kombu import Connection

from partida.ai import tasks
from partida.ai.broker import Transport
from partida.ai.celery import BOT_QUEUE, app
from partida.ai.tasks import CeleryBotScheduler, play_turn_task
from partida.ai.turns import SeatSnapshot, request_id
from partida.engine import Action
from partida.platform import jsonio

MATCH = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"


@pytest.fixture
def broker(redis_url, monkeypatch):
    url = redis_url.rsplit("/", 1)[0] + "/7"
    redis.Redis.from_url(url).flushdb()
    monkeypatch.setattr(app.conf, "broker_url", url)
    return url


def _queued(url: str) -> list[dict]:
    return [json.loads(m) for m in redis.Redis.from_url(url).lrange(BOT_QUEUE, 0, -1)]


def _args(message: dict) -> list:
    return json.loads(base64.b64decode(message["body"]))[0]


def _contract(message: dict) -> dict:
    """What a worker reads from a task message, less what differs between any two sends."""
    # The argument reprs are only what monitoring tools show (Celery shortens them).
    headers = {k: v for k, v in message["headers"].items()
               if k not in ("id", "root_id", "origin", "argsrepr", "kwargsrepr")}
    props = {k: v for k, v in message["properties"].items()
             if k not in ("correlation_id", "delivery_tag", "reply_to")}
    body = json.loads(base64.b64decode(message["body"]))
    return {"headers": headers, "properties": props, "body": body,
            "type": (message["content-type"], message["content-encoding"])}


def test_a_scheduled_turn_is_the_message_apply_async_sends(broker):
    """The worker cannot tell the scheduler's message from Celery's own: same task, queue,
    arguments, options; its id is its correlation id."""
    seen = SeatSnapshot(7, [1], {"phase": "deploy", "hand": [3, 9]},
                        [Action("deploy:2", "place an explorer in ship section 2")])
    CeleryBotScheduler().schedule(MATCH, 1, 7, "montanas", "heuristic", seen)
    ours = _queued(broker)[0]
    sent_at = _args(ours)[5]
    play_turn_task.apply_async(args=(MATCH, 1, 7, "montanas", "heuristic", sent_at),
                               kwargs={"seen": jsonio.dumps(seen.to_plain())})
    celerys = _queued(broker)[0]
    assert ours is not celerys and ours["headers"]["id"] != celerys["headers"]["id"]
    assert _contract(ours) == _contract(celerys)
    assert ours["headers"]["id"] == ours["properties"]["correlation_id"]
    assert ours["headers"]["task"] == "partida.play_turn"
    assert ours["properties"]["delivery_info"]["routing_key"] == BOT_QUEUE


def test_a_turn_taken_but_never_acknowledged_is_delivered_again(broker):
    """acks_late: a worker killed mid-turn never acknowledges; once the visibility timeout
    passes, another worker's sweep puts the turn back and receives it."""
    CeleryBotScheduler().schedule(MATCH, 0, 3, "montanas", "heuristic")
    options = {"visibility_timeout": 0.5}
    dead = Connection(broker, transport=Transport, transport_options=options)
    first = dead.SimpleQueue(BOT_QUEUE, no_ack=False).get(timeout=5)
    assert _queued(broker) == []
    assert redis.Redis.from_url(broker).hlen("unacked") == 1
    time.sleep(0.6)  # the dead worker is left as is: no ack, no close
    with Connection(broker, transport=Transport, transport_options=options) as alive:
        alive.default_channel.qos.restore_visible(num=10)
        queue = alive.SimpleQueue(BOT_QUEUE, no_ack=False)
        again = queue.get(timeout=5)
        assert again.headers["id"] == first.headers["id"]
        again.ack()
        queue.close()
    assert redis.Redis.from_url(broker).hlen("unacked") == 0
    dead.release()  # only now: closing restores what its channel still holds unacked
    assert _queued(broker) == []


def test_turns_queued_from_many_threads_all_arrive(broker):
    """The rules service schedules from its gRPC threads at once; they share the producers
    of Celery's pool."""
    scheduler = CeleryBotScheduler()

    def queue_turns(seat: int) -> None:
        for version in range(40):
            scheduler.schedule(MATCH, seat, version, "montanas", "heuristic")

    threads = [threading.Thread(target=queue_turns, args=(seat,)) for seat in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    turns = {tuple(_args(m)[1:3]) for m in _queued(broker)}
    assert turns == {(seat, v) for seat in range(8) for v in range(40)}


def test_many_scheduling_threads_share_a_bounded_number_of_broker_connections(broker):
    """The rules server has hundreds of threads; a connection each would pile up on Redis."""
    scheduler = CeleryBotScheduler()
    admin = redis.Redis.from_url(broker)
    db = int(broker.rsplit("/", 1)[1])
    before = sum(1 for c in admin.client_list() if int(c["db"]) == db)
    gate = threading.Barrier(48)

    def queue_turn(seat: int) -> None:
        gate.wait()
        scheduler.schedule(MATCH, seat, 1, "montanas", "heuristic")

    threads = [threading.Thread(target=queue_turn, args=(seat,)) for seat in range(48)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    opened = sum(1 for c in admin.client_list() if int(c["db"]) == db) - before
    assert len(_queued(broker)) == 48
    assert opened <= app.conf.broker_pool_limit


def test_a_channel_keeps_one_client_until_kombu_drops_its_pool(broker):
    with Connection(broker, transport=Transport) as conn:
        channel = conn.default_channel
        with channel.conn_or_acquire() as a, channel.conn_or_acquire() as b:
            assert a is b and a.connection_pool is channel.pool
        channel._disconnect_pools()  # what kombu does when the connection is lost
        with channel.conn_or_acquire() as c:
            assert c is not a and c.connection_pool is channel.pool
            assert c.ping()


def test_a_turn_is_queued_after_the_broker_dropped_the_schedulers_connection(broker):
    """The scheduler keeps its connections; one closed by the server is opened again (a
    Redis restart or failover), the turn is not lost."""
    scheduler = CeleryBotScheduler()
    scheduler.schedule(MATCH, 0, 1, "montanas", "heuristic")
    admin = redis.Redis.from_url(broker)
    assert admin.client_kill_filter(_type="normal", skipme=True) >= 1
    scheduler.schedule(MATCH, 0, 2, "montanas", "heuristic")
    assert sorted(_args(m)[2] for m in _queued(broker)) == [1, 2]


class _Unreachable(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "connection refused"


class _KeepsThenFails:
    """A rules service that applies a turn's decision at version 7 and hands the seat its
    next one (keep_turn), then cannot be reached when the turn submits that one."""

    def __init__(self) -> None:
        self.submitted: list[tuple[int, str]] = []

    def submit(self, match_id: str, seat: int, version: int, request: str, action_id: str,
               keep_turn: bool = False) -> SeatSnapshot | None:
        assert request == request_id(match_id, version, seat)
        self.submitted.append((version, action_id))
        if version == 7:
            return SeatSnapshot(8, [seat], {"phase": "deploy"},
                                [Action("deploy:3", "place an explorer in ship section 3")])
        raise _Unreachable()


def test_a_turn_failing_on_a_decision_it_kept_is_queued_again_from_it_within_a_second(
        broker, monkeypatch):
    """The retry Celery sends is the held decision's (version 8, what the seat saw there,
    the action sent without an answer), due in well under a second: Celery's own
    retry_backoff counts whole seconds."""
    service = _KeepsThenFails()
    monkeypatch.setattr(tasks, "_client", lambda: service)
    seen = SeatSnapshot(7, [1], {"phase": "deploy"},
                        [Action("deploy:2", "place an explorer in ship section 2")])
    sent = time.time()
    args, kwargs = [MATCH, 1, 7, "montanas", "random", sent], {"seen": jsonio.dumps(
        seen.to_plain())}
    # As a worker runs it: with the request of a message taken from the bots queue.
    play_turn_task.push_request(id="turn-1", called_directly=False, retries=0, args=args,
                                kwargs=kwargs,
                                delivery_info={"exchange": "", "routing_key": BOT_QUEUE})
    try:
        with pytest.raises(Retry):  # what the worker is told: the task was queued again
            play_turn_task.run(*args, **kwargs)
    finally:
        play_turn_task.pop_request()
    assert service.submitted == [(7, "deploy:2"), (8, "deploy:3")]
    [message] = _queued(broker)
    args, kwargs, _ = json.loads(base64.b64decode(message["body"]))
    assert args == [MATCH, 1, 8, "montanas", "random", sent]
    assert (kwargs["played"], kwargs["sent"]) == (1, "deploy:3")
    assert SeatSnapshot.from_plain(jsonio.loads(kwargs["seen"])).version == 8
    assert message["headers"]["retries"] == 1
    assert message["headers"]["kwargsrepr"] == "{...}"  # the view was copied there (1 KB)
    due = datetime.fromisoformat(message["headers"]["eta"]).timestamp()
    assert 0 < due - sent < 0.5
