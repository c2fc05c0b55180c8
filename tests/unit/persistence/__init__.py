"""Tests of partida.persistence on SQLite; behaviours.py is shared with the PostgreSQL run."""
