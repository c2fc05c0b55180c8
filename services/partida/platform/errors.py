"""Domain errors with the gRPC status they map to, raised by service logic."""

from __future__ import annotations

import grpc

# The trailing metadata key of a refusal's reason: a fixed word a client may act on, in any
# language, where the status code alone is too coarse (the message is for people and may be
# reworded). Part of the public contract: see players.proto.
REASON_KEY = "partida-error-reason"


class ServiceError(Exception):
    """A refused request: the status code, a message for the client and, for a refusal a
    client must tell apart from others of its code, a reason ("": none)."""

    code = grpc.StatusCode.INTERNAL
    reason = ""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def passed_on(code: grpc.StatusCode, message: str) -> ServiceError:
    """Another service's refusal, as its status said it."""
    error = ServiceError(message)
    error.code = code
    return error


def reason_of(e: grpc.RpcError) -> str:
    """The reason a refusal received over gRPC carries in its trailing metadata ("": none)."""
    trailing = e.trailing_metadata() if isinstance(e, grpc.Call) else None
    return next((str(v) for k, v in trailing or () if k == REASON_KEY), "")


class InvalidArgument(ServiceError):
    code = grpc.StatusCode.INVALID_ARGUMENT


class NotFound(ServiceError):
    code = grpc.StatusCode.NOT_FOUND


class FailedPrecondition(ServiceError):
    code = grpc.StatusCode.FAILED_PRECONDITION


class PermissionDenied(ServiceError):
    code = grpc.StatusCode.PERMISSION_DENIED


class Unauthenticated(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED


class OutOfRange(ServiceError):
    code = grpc.StatusCode.OUT_OF_RANGE


class Aborted(ServiceError):
    """A stale version or a lost race: the client should re-read and retry."""

    code = grpc.StatusCode.ABORTED


class AlreadyExists(ServiceError):
    code = grpc.StatusCode.ALREADY_EXISTS


class ResourceExhausted(ServiceError):
    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Unavailable(ServiceError):
    code = grpc.StatusCode.UNAVAILABLE


def stopping(followed: str) -> Unavailable:
    """What a wait on `followed` (a match, a ticket) ends with once the server begins to
    stop: UNAVAILABLE, for the client to follow it again once a server is back."""
    return Unavailable(f"the server is stopping; follow the {followed} again shortly")
