"""The common shape of one partida service calling another over gRPC."""

from __future__ import annotations

from typing import Any

# A server sends responses up to this many times the request size it accepts
# (PARTIDA_MAX_MESSAGE_BYTES): a match's whole log is one response.
RESPONSE_FACTOR = 8


def response_limit(max_message_bytes: int) -> int:
    """The largest response a server accepting `max_message_bytes` requests may send."""
    return max_message_bytes * RESPONSE_FACTOR


def channel_options(max_message_bytes: int) -> list[tuple[str, int]]:
    """Options of a channel to another partida service: it receives whatever the server may
    send (gRPC's default refuses responses over 4 MB, such as a long match's log)."""
    return [("grpc.max_receive_message_length", response_limit(max_message_bytes))]


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
