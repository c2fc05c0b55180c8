"""partida: a gRPC backend hosting tabletop games."""

import os
import sys

__version__ = "0.1.0"


def _serves(argv: list[str]) -> bool:
    """Whether this process is a server (`partida serve ...`) or a bot worker (`celery ...
    worker`), as its command line says: it must be known before anything imports grpc."""
    name = os.path.basename(argv[0]) if argv else ""
    serving = name == "partida" and argv[1:2] == ["serve"]
    working = name == "celery" and "worker" in argv[1:]
    return serving or working


# In servers and bot workers, gRPC's socket work for synchronous servers and calls done by the
# thread waiting on it, not handed to gRPC's EventEngine threads and back. On grpcio 1.85 this
# took a synchronous echo server 11% less CPU per call and a synchronous caller 10-20% less
# (tests/bench/floors.py), the embedded server 8-19% less per action and matchmaking 14-19%
# less per seat (2026-12-07). Other processes (the interactive client, scripts importing
# partida) keep gRPC's defaults: the saving is the servers', and a process that is not ours
# to tune is left as it comes. gRPC reads the setting once, when first imported, hence here;
# a value the operator sets wins (empty: gRPC's defaults).
if _serves(sys.argv):
    os.environ.setdefault("GRPC_EXPERIMENTS", "-event_engine_client,-event_engine_listener")
