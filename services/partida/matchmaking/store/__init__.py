"""Where tickets live: `TicketStore` and its in-memory and Redis implementations."""

from partida.matchmaking.store.base import TicketStore, TooManyOpen, Watch
from partida.matchmaking.store.memory_store import MemoryTicketStore
from partida.matchmaking.store.redis_store import RedisTicketStore

__all__ = ["MemoryTicketStore", "RedisTicketStore", "TicketStore", "TooManyOpen", "Watch"]
