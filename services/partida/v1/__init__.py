"""Protobuf and gRPC modules for package partida.v1, generated from protos/ by `make proto`."""
