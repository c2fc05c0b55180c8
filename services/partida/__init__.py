"""partida: a gRPC backend hosting tabletop games."""

import os

__version__ = "0.1.0"

# gRPC's socket work for synchronous servers and calls (every service's, and the calls between
# services) done by the thread waiting on it, not handed to gRPC's EventEngine threads and
# back: on grpcio 1.85 those hand-offs cost a synchronous echo server 11-15% more CPU per call
# and a synchronous caller 20% more (tests/bench/floors.py, 2026-12-07). gRPC reads this once,
# when first imported, so it is set here, before any partida module imports grpc; a value the
# operator sets wins.
os.environ.setdefault("GRPC_EXPERIMENTS", "-event_engine_client,-event_engine_listener")
