"""Where tickets live: `TicketStore` and its in-memory and Redis implementations."""

from partida.matchmaking.store.base import TicketStore, TooManyOpen
from partida.matchmaking.store.memory_store import MemoryTicketStore
from partida.matchmaking.store.redis_store import RedisTicketStore
from partida.platform.notify import Watch

__all__ = ["MemoryTicketStore", "RedisTicketStore", "TicketStore", "TooManyOpen", "Watch"]
