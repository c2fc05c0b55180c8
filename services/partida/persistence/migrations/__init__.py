"""Alembic migrations of the persistence schema (run by partida.persistence.db.migrate)."""
