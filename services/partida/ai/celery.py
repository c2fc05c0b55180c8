"""The Celery app (`celery -A partida.ai worker`): bot turns queued by the rules service.

Configured from the environment: PARTIDA_BROKER_URL (Redis), PARTIDA_RULES_ADDRESS,
PARTIDA_METRICS_PORT (Prometheus metrics of the worker).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import Celery, signals

from partida.platform import logs, metrics
from partida.platform.config import settings
from partida.platform.gc_tuning import freeze_startup

BOT_QUEUE = "bots"

_BROKER_URL = settings().broker_url or "redis://127.0.0.1:6379/0"

app = Celery("partida", include=["partida.ai.tasks"])
app.conf.update(
    broker_url=_BROKER_URL,
    # Plain redis:// only: for rediss:// kombu picks the TLS options from the scheme name.
    broker_transport="partida.ai.broker:Transport" if _BROKER_URL.startswith("redis://")
    else None,
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


# Task outcomes, counted in the worker where the tasks run.
def _count(outcome: str) -> Callable[..., None]:
    def handler(sender: Any = None, **_: Any) -> None:
        name = getattr(sender, "name", None) or "unknown"
        metrics.CELERY_TASKS.labels(name, outcome).inc()
    return handler


_OUTCOMES = {"success": signals.task_success, "failure": signals.task_failure,
             "retry": signals.task_retry}
for _outcome, _signal in _OUTCOMES.items():
    _signal.connect(_count(_outcome), weak=False)


@signals.setup_logging.connect
def _json_logs(loglevel: Any = None, **_: Any) -> None:
    """The worker logs JSON lines like the services (Celery's own format otherwise)."""
    logs.configure(loglevel or "INFO")


@signals.worker_init.connect
def _exporter(**_: Any) -> None:
    """Metrics on PARTIDA_METRICS_PORT from the worker's main process. Run the worker with
    `--pool threads` (or solo), as the stack does: prefork children would count in processes
    of their own, which this exporter does not see."""
    cfg = settings()
    metrics.serve(cfg.metrics_port, cfg.host)


@signals.worker_ready.connect
def _freeze(**_: Any) -> None:
    """Start-up is done: its objects are kept out of the collector's scans (gc_tuning)."""
    freeze_startup()
