"""The machine's floors, measured in the same bench run as the stack: what a call costs a
Python gRPC server whose handler does nothing. The issue quotes such ceilings measured once,
but this machine's speed drifts by a third between sessions, so the stack's figures are read
against floors taken at the same moment.

Two shapes, each served by grpc's synchronous server (a thread pool, as the services run) and
by grpc.aio, and driven like the stack loads (asyncio clients in 2 processes):
- unary echo: 200 callers back to back, a 200-byte message; calls/s and server CPU per call.
- a seek, SeekMatch's shape without its work: a server stream that sends one message at
  once, waits to be paired by a tick every 0.1 s, sends a second and ends; 1,000 seekers
  at once; seats/s and server CPU per seat. They are all seated within a second, so the
  wait for a tick weighs on seats/s; the CPU per seat is the steadier figure.

A third shape weighs how a service could be served: a handler shaped like the rules service's
SubmitAction (a read from Redis, 60 µs of Python work, a 2 KB write to Redis), 200 callers
back to back, served three ways: by the synchronous server with redis-py (as the services
are), by grpc.aio with an async handler and redis.asyncio, and by grpc.aio running the same
synchronous handler code in a greenlet whose Redis calls await redis.asyncio on the loop
(SQLAlchemy's greenlet bridge: synchronous code, asynchronous I/O). Server CPU per call and
calls/s of each.

And two floors of a service's own outgoing calls, as the rules service makes them (threads of
one process, back to back), read as the caller's CPU per call:
- a unary call through a synchronous gRPC stub, to the echo server above;
- a redis-py Lua compare-and-set of a 4 KB value (the session commit's shape), with the Redis
  server's CPU per call beside it.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from typing import Any

import grpc
import redis
from cputime import cpu_meanwhile

from partida.devstack.servers import free_port, redis_server

SERVICE = "floor.Floor"
TICK = 0.1  # seconds between pairings, as the matcher's default interval
_same: Callable[[bytes], bytes] = lambda b: b  # noqa: E731 (raw bytes: no protobuf cost)
CALLER_THREADS = 8
# KEYS: the value's key. ARGV: expected version, new version, value.
_CAS = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'blob', ARGV[3])
return 1
"""


def _handlers(echo: Callable[..., Any], seek: Callable[..., Any] | None = None
              ) -> grpc.GenericRpcHandler:
    methods = {"Echo": grpc.unary_unary_rpc_method_handler(echo, _same, _same)}
    if seek is not None:
        methods["Seek"] = grpc.unary_stream_rpc_method_handler(seek, _same, _same)
    return grpc.method_handlers_generic_handler(SERVICE, methods)


def _sync_server(port: int) -> None:
    waiting: list[threading.Event] = []
    lock = threading.Lock()

    def seek(request: bytes, context: Any) -> Iterator[bytes]:
        paired = threading.Event()
        yield b"searching"
        with lock:
            waiting.append(paired)
        paired.wait(30)
        yield b"assigned"

    def pair() -> None:
        while True:
            time.sleep(TICK)
            with lock:
                ready = waiting[:len(waiting) // 2 * 2]
                del waiting[:len(ready)]
            for event in ready:
                event.set()

    # Threads enough for every seeker at once, as a sync server must have for its streams.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=1200),
                         options=[("grpc.server.max_pending_requests", 1200)])
    server.add_generic_rpc_handlers((_handlers(lambda request, context: request, seek),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    threading.Thread(target=pair, daemon=True).start()
    server.wait_for_termination()


def _aio_server(port: int) -> None:
    async def serve() -> None:
        waiting: list[asyncio.Future[None]] = []

        async def echo(request: bytes, context: Any) -> bytes:
            return request

        async def seek(request: bytes, context: Any) -> None:
            paired = asyncio.get_running_loop().create_future()
            await context.write(b"searching")
            waiting.append(paired)
            await paired
            await context.write(b"assigned")

        async def pair() -> None:
            while True:
                await asyncio.sleep(TICK)
                ready = waiting[:len(waiting) // 2 * 2]
                del waiting[:len(ready)]
                for f in ready:
                    f.set_result(None)

        server = grpc.aio.server()
        server.add_generic_rpc_handlers((_handlers(echo, seek),))
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        pairing = asyncio.create_task(pair())
        await server.wait_for_termination()
        pairing.cancel()

    asyncio.run(serve())


async def _echoes(address: str, callers: int, seconds: float) -> int:
    calls = 0
    async with grpc.aio.insecure_channel(address) as channel:
        await channel.channel_ready()
        echo = channel.unary_unary(f"/{SERVICE}/Echo", request_serializer=_same,
                                   response_deserializer=_same)
        stop = time.monotonic() + seconds

        async def caller() -> None:
            nonlocal calls
            while time.monotonic() < stop:
                await echo(b"x" * 200)
                calls += 1

        await asyncio.gather(*(caller() for _ in range(callers)))
    return calls


async def _seeks(address: str, seekers: int) -> tuple[int, float, float]:
    """Seats assigned, when the first seek opened and when the last was assigned."""
    opened: list[float] = []
    assigned: list[float] = []
    async with grpc.aio.insecure_channel(address) as channel:
        await channel.channel_ready()
        seek = channel.unary_stream(f"/{SERVICE}/Seek", request_serializer=_same,
                                    response_deserializer=_same)

        async def seeker() -> None:
            opened.append(time.time())
            async for message in seek(b"x"):
                if message == b"assigned":
                    assigned.append(time.time())

        await asyncio.gather(*(seeker() for _ in range(seekers)))
    return len(assigned), min(opened), max(assigned)


def _threads_calling(call: Callable[[int], object], seconds: float) -> tuple[int, float]:
    """CALLER_THREADS threads, each calling `call(its index)` back to back for `seconds`:
    how many calls, and this process's CPU seconds meanwhile."""
    counts = [0] * CALLER_THREADS
    stop = time.monotonic() + seconds

    def caller(t: int) -> None:
        while time.monotonic() < stop:
            call(t)
            counts[t] += 1

    cpu = time.process_time()
    threads = [threading.Thread(target=caller, args=(t,)) for t in range(CALLER_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts), time.process_time() - cpu


def _stub_process(args: tuple[str, float]) -> tuple[int, float]:
    address, seconds = args
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        echo = channel.unary_unary(f"/{SERVICE}/Echo", request_serializer=_same,
                                   response_deserializer=_same)
        return _threads_calling(lambda t: echo(b"x" * 200), seconds)


def _cas_process(args: tuple[str, float]) -> tuple[int, float]:
    url, seconds = args
    client = redis.Redis.from_url(url)
    cas = client.register_script(_CAS)
    blob = b"x" * 4096
    versions = [0] * CALLER_THREADS

    def commit(t: int) -> None:  # each thread its own key, so every compare succeeds
        cas(keys=[f"floor:{t}"], args=[versions[t], versions[t] + 1, blob])
        versions[t] += 1

    for t in range(CALLER_THREADS):
        client.hset(f"floor:{t}", "version", 0)
    return _threads_calling(commit, seconds)


def _echo_process(args: tuple[str, int, float]) -> int:
    return asyncio.run(_echoes(*args))


def _seek_process(args: tuple[str, int]) -> tuple[int, float, float]:
    return asyncio.run(_seeks(*args))


def floors(seconds: float = 10.0, callers: int = 200, seekers: int = 1000,
           processes: int = 2) -> dict[str, float]:
    """Echo and seek floors of both servers (see the module's docstring)."""
    ctx = mp.get_context("spawn")
    out: dict[str, float] = {}
    for kind, target in (("sync", _sync_server), ("aio", _aio_server)):
        port = free_port()
        server = ctx.Process(target=target, args=(port,), daemon=True)
        server.start()
        address = f"127.0.0.1:{port}"
        try:
            with grpc.insecure_channel(address) as channel:
                grpc.channel_ready_future(channel).result(timeout=30)
            serving = {"server": [server.pid]}
            with ctx.Pool(processes) as pool:  # started before the timing: not counted
                with cpu_meanwhile(serving) as echoing:
                    calls = sum(pool.map(_echo_process,
                                         [(address, callers // processes, seconds)] * processes))
                with cpu_meanwhile(serving) as seeking:
                    seeks = pool.map(_seek_process, [(address, seekers // processes)] * processes)
            out[f"floor_{kind}_echo_calls_per_s"] = calls / seconds
            out[f"floor_{kind}_echo_server_cpu_ms_per_call"] = (
                echoing["server"] * 1000 / max(1, calls))
            seated = sum(s[0] for s in seeks)
            span = max(s[2] for s in seeks) - min(s[1] for s in seeks)
            out[f"floor_{kind}_seek_seats_per_s"] = seated / span
            out[f"floor_{kind}_seek_server_cpu_ms_per_seat"] = (
                seeking["server"] * 1000 / max(1, seated))
            if kind == "sync":  # the services' outgoing calls go through sync stubs
                with ctx.Pool(1) as pool:
                    calls, cpu = pool.map(_stub_process, [(address, seconds)])[0]
                out["floor_sync_stub_client_cpu_ms_per_call"] = cpu * 1000 / max(1, calls)
        finally:
            server.kill()
            server.join()
    out.update(_handler_floors(ctx, seconds, callers, processes))
    out.update(_redis_floor(ctx, seconds))
    return out


# The handler's Python work: a JSON round trip of about 60 µs, as the rules work's smaller part.
_DOC = {f"k{i}": [i, "x" * 20, {"a": i}] for i in range(60)}
_STORED = b"x" * 2000


def _work() -> None:
    json.loads(json.dumps(_DOC))


def _handler_server(port: int, url: str, shape: str) -> None:
    """Serves Echo as a read, _work and a write on Redis, in `shape` (see the docstring)."""
    if shape == "sync":
        client = redis.Redis.from_url(url)

        def echo(request: bytes, context: Any) -> bytes:
            client.get("floor")
            _work()
            client.set("floor", _STORED)
            return request

        server = grpc.server(futures.ThreadPoolExecutor(max_workers=64))
        server.add_generic_rpc_handlers((_handlers(echo),))
        server.add_insecure_port(f"127.0.0.1:{port}")
        server.start()
        server.wait_for_termination()
        return
    asyncio.run(_aio_handler_server(port, url, shape))


async def _aio_handler_server(port: int, url: str, shape: str) -> None:
    import redis.asyncio as aredis
    from sqlalchemy.util import await_only, greenlet_spawn

    client = aredis.Redis.from_url(url, max_connections=300)

    async def native(request: bytes, context: Any) -> bytes:
        await client.get("floor")
        _work()
        await client.set("floor", _STORED)
        return request

    def bridged(request: bytes) -> bytes:  # synchronous code; each await_only yields the loop
        await_only(client.get("floor"))
        _work()
        await_only(client.set("floor", _STORED))
        return request

    async def greenlet(request: bytes, context: Any) -> bytes:
        return await greenlet_spawn(bridged, request)

    server = grpc.aio.server()
    server.add_generic_rpc_handlers((_handlers(native if shape == "aio" else greenlet),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


def _handler_floors(ctx: Any, seconds: float, callers: int, processes: int
                    ) -> dict[str, float]:
    out: dict[str, float] = {}
    with redis_server() as url:
        for shape in ("sync", "aio", "aio_greenlet"):
            port = free_port()
            server = ctx.Process(target=_handler_server, args=(port, url, shape), daemon=True)
            server.start()
            address = f"127.0.0.1:{port}"
            try:
                with grpc.insecure_channel(address) as channel:
                    grpc.channel_ready_future(channel).result(timeout=30)
                with ctx.Pool(processes) as pool, \
                        cpu_meanwhile({"server": [server.pid]}) as used:
                    calls = sum(pool.map(_echo_process,
                                         [(address, callers // processes, seconds)] * processes))
            finally:
                server.kill()
                server.join()
            out[f"floor_redis_handler_{shape}_calls_per_s"] = calls / seconds
            out[f"floor_redis_handler_{shape}_server_cpu_ms_per_call"] = (
                used["server"] * 1000 / max(1, calls))
    return out


def _redis_floor(ctx: Any, seconds: float) -> dict[str, float]:
    with redis_server() as url:
        pid = redis.Redis.from_url(url).info("server")["process_id"]
        with ctx.Pool(1) as pool, cpu_meanwhile({"redis": [pid]}) as used:
            calls, cpu = pool.map(_cas_process, [(url, seconds)])[0]
    return {"floor_redis_cas_client_cpu_ms_per_call": cpu * 1000 / max(1, calls),
            "floor_redis_cas_server_cpu_ms_per_call": used["redis"] * 1000 / max(1, calls)}
