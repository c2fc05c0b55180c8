"""Failed and held-back authentications are counted in partida_auth_failures_total, so an
operator sees someone guessing keys (or a proxy hiding client addresses) on a dashboard,
not only as RESOURCE_EXHAUSTED among every method's statuses."""

from __future__ import annotations

from prometheus_client import REGISTRY

from tests.unit.platform.test_auth_guessing_server import KEY, WRONG_KEY, served, status  # noqa: F401


def _count(result: str) -> float:
    return REGISTRY.get_sample_value("partida_auth_failures_total", {"result": result}) or 0.0


def test_failed_and_held_back_authentications_are_counted(served):  # noqa: F811
    call, _ = served
    failed, held = _count("failed"), _count("held_back")
    for _ in range(3):  # two failures, then the address is over them
        status(call, WRONG_KEY)
    status(call, KEY)  # held back too, unchecked
    assert (_count("failed") - failed, _count("held_back") - held) == (2, 2)
