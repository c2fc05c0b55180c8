"""The common shape of one partida service calling another over gRPC."""

from __future__ import annotations

from typing import Any


class ServiceClient:
    """A stub with the caller's service token attached to every call."""

    def __init__(self, stub: Any, token: str, timeout: float) -> None:
        self.stub = stub
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.timeout = timeout

    def call(self, method: str, request: Any) -> Any:
        # wait_for_ready: a service restarting is waited for (up to the timeout) instead of
        # failing at once while the channel backs off.
        return getattr(self.stub, method)(request, metadata=self.metadata, timeout=self.timeout,
                                          wait_for_ready=True)
