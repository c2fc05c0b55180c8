"""The durable record of partida: players, matches, hash-chained action logs, results,
Glicko-2 ratings and the dice streams, in SQLite or PostgreSQL through SQLAlchemy.

`PersistenceStore` is the only way in; it hands out plain dataclasses (records.py), never ORM
objects. `service.py` exposes it over gRPC.
"""
