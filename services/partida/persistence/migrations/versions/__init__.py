"""Alembic revisions, in order."""
