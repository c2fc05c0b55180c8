"""Bots: which exist per game, how a bot turn is played, and where it runs (local threads or
Celery workers)."""
