"""Bot turns on a real redis-server broker, through partida's kombu transport and the
scheduler's own producers (partida.ai.broker, CeleryBotScheduler): the message is the one
Celery's apply_async sends, a turn taken but never acknowledged comes back, and every turn
queued from many threads arrives (issue 3, bot turns on Celery)."""

import base64
import json
import threading
import time

import pytest
import redis
from kombu import Connection

from partida.ai.broker import Transport
from partida.ai.celery import BOT_QUEUE, app
from partida.ai.tasks import CeleryBotScheduler, play_turn_task
from partida.ai.turns import SeatSnapshot
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
