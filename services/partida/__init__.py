"""partida: a gRPC backend hosting tabletop games."""

__version__ = "0.1.0"
