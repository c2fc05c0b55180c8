"""Local stacks on this machine: throwaway Redis and PostgreSQL servers and partida's
services as processes. Used by `make stack`, the end-to-end tests and the benchmarks."""
