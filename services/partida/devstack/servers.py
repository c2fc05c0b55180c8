"""Real Redis and PostgreSQL servers for `make stack`, integration and end-to-end tests and
benchmarks.

Each server runs from the machine's own binaries in a temporary folder on a free loopback
port, and is stopped when the `with` block ends. `make test` installs the binaries.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

# Ports handed out, claimed machine-wide (several test processes start servers at once) until
# their server has surely bound them: the OS may offer one free port to two binds in a row,
# and of two servers told one port the second cannot listen while the first answers its
# callers in its place.
CLAIMS = Path(tempfile.gettempdir()) / "partida-ports"
CLAIM_SECONDS = 300.0


def free_port() -> int:
    """A loopback port free now and not handed out by any process in the last CLAIM_SECONDS."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if _claim(port):
            return port


def _claim(port: int) -> bool:
    CLAIMS.mkdir(exist_ok=True)
    path = CLAIMS / str(port)
    with contextlib.suppress(FileNotFoundError):
        if time.time() - path.stat().st_mtime > CLAIM_SECONDS:
            path.unlink()  # an old claim: its server bound the port long ago, or never will
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _wait_for_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not open port {port} within {timeout}s")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_redis(folder: Path, port: int | None = None, detach: bool = False
                ) -> tuple[subprocess.Popen, str]:
    """Start a redis-server keeping its files in `folder`; returns the process and URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (make test installs it)")
    port = port or free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=detach)
    _wait_for_port(port, proc, "redis-server")
    return proc, f"redis://127.0.0.1:{port}/0"


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway redis-server; yields its URL."""
    with tempfile.TemporaryDirectory(prefix="partida-redis-") as tmp:
        proc, url = start_redis(Path(tmp))
        try:
            yield url
        finally:
            stop(proc)


def _pg_bin(name: str) -> str:
    for root in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (root / name).exists():
            return str(root / name)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (make test installs it)")
    return found


# A throwaway cluster (the tests') writes nothing through to disk: a crash of the machine
# would lose it, which no test minds, and tests run faster. A durable one keeps PostgreSQL's
# defaults, as a production database does: a commit returns once its WAL is flushed.
_THROWAWAY = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")


def start_postgres(folder: Path, port: int | None = None, detach: bool = False,
                   durable: bool = False) -> tuple[subprocess.Popen, str]:
    """Start a PostgreSQL cluster in `folder` (created if empty) with a database "partida";
    returns the process and a SQLAlchemy URL. PostgreSQL refuses to run as root, so as root
    the cluster belongs to the `postgres` user. `durable`: commits are flushed to disk (the
    benchmark and `partida stack`), else not (see _THROWAWAY)."""
    as_root = os.geteuid() == 0
    user = "postgres" if as_root else pwd.getpwuid(os.geteuid()).pw_name
    run_as = ["runuser", "-u", "postgres", "--"] if as_root else []
    port = port or free_port()
    folder = folder.resolve()  # postgres runs in its data folder: relative paths break
    data = folder / "data"
    folder.mkdir(parents=True, exist_ok=True)
    if as_root:
        shutil.chown(folder, user="postgres")
    fresh = not data.exists()
    if fresh:
        subprocess.run([*run_as, _pg_bin("initdb"), "-D", str(data), "-U", user, "-A", "trust",
                        "--no-sync", "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL)
    with open(folder / "postgres.log", "ab") as log:
        proc = subprocess.Popen(
            [*run_as, _pg_bin("postgres"), "-D", str(data), "-p", str(port), "-k", str(folder),
             "-h", "127.0.0.1", *(() if durable else _THROWAWAY),
             "-c", "max_connections=300"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=detach)
    try:
        _wait_for_port(port, proc, "postgres")
    except RuntimeError as e:
        tail = (folder / "postgres.log").read_text(errors="replace")[-800:]
        raise RuntimeError(f"{e}:\n{tail}") from None
    for _ in range(100):  # the port opens a moment before connections are accepted
        done = subprocess.run([*run_as, _pg_bin("createdb"), "-h", "127.0.0.1", "-p",
                               str(port), "-U", user, "partida"], capture_output=True)
        if done.returncode == 0 or b"already exists" in done.stderr:
            break
        time.sleep(0.1)
    else:
        raise RuntimeError(f"createdb failed: {done.stderr.decode()}")
    return proc, f"postgresql+psycopg://{user}@127.0.0.1:{port}/partida"


@contextlib.contextmanager
def postgres_server(durable: bool = False) -> Iterator[str]:
    """A PostgreSQL cluster removed afterwards; yields a SQLAlchemy URL of an empty database.
    `durable`: as start_postgres."""
    tmp = Path(tempfile.mkdtemp(prefix="partida-pg-"))
    proc, url = start_postgres(tmp, durable=durable)
    try:
        yield url
    finally:
        stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
