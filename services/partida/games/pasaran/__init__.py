"""¿Pasarán?: the Spanish Civil War, July 1936 to 1939, in quarters on an area map of Spain.

Not registered with the platform yet (protos and an adapter come first): import `Pasaran` and
register it where the platform's registry is built."""

from partida.games.pasaran.rules import INFO, Pasaran

__all__ = ["INFO", "Pasaran"]
