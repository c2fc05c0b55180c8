"""Domain errors with the gRPC status they map to, raised by service logic."""

from __future__ import annotations

import grpc


class ServiceError(Exception):
    """A refused request: the status code and a message for the client."""

    code = grpc.StatusCode.INTERNAL

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def passed_on(code: grpc.StatusCode, message: str) -> ServiceError:
    """Another service's refusal, as its status said it."""
    error = ServiceError(message)
    error.code = code
    return error


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
