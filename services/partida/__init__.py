"""partida: a gRPC backend hosting tabletop games."""

import os

__version__ = "0.1.0"

# gRPC's socket work for synchronous servers and calls (every service's, and the calls between
# services) done by the thread waiting on it, not handed to gRPC's EventEngine threads and
# back. On grpcio 1.85 this took a synchronous echo server 11% less CPU per call and a
# synchronous caller 10-20% less (tests/bench/floors.py), the embedded server 8-19% less
# per action and matchmaking 14-19% less per seat (2026-12-07). gRPC reads it once, when
# first imported, so it is set here, before any partida module imports grpc; a value the
# operator sets wins (empty: gRPC's own defaults).
os.environ.setdefault("GRPC_EXPERIMENTS", "-event_engine_client,-event_engine_listener")
