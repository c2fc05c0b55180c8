"""The Celery app (`celery -A partida.ai worker`): bot turns queued by the rules service.

Configured from the environment: PARTIDA_BROKER_URL (Redis), PARTIDA_RULES_ADDRESS.
"""

from __future__ import annotations

from celery import Celery

from partida.platform.config import settings

BOT_QUEUE = "bots"

app = Celery("partida", include=["partida.ai.tasks"])
app.conf.update(
    broker_url=settings().broker_url or "redis://127.0.0.1:6379/0",
    task_default_queue=BOT_QUEUE,
    task_acks_late=True,                 # a worker killed mid-turn leaves the task queued
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_ignore_result=True,
    broker_transport_options={"visibility_timeout": 60},
    broker_connection_retry_on_startup=True,
    task_serializer="json",
    accept_content=["json"],
)
