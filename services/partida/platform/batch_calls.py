"""Calls that carry many entries (AppendLogs, RecordMatches, CreateStreams), each entry
kept or refused alone, as the call for one entry would keep or refuse it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from partida.platform.errors import ServiceError

E = TypeVar("E")  # an entry of a batch call
R = TypeVar("R")  # its result
T = TypeVar("T")


def each_checked(entries: Sequence[E], check: Callable[[E], T],
                 run_all: Callable[[list[T]], Sequence[R | Exception]]) -> list[R | Exception]:
    """Per entry, its outcome: every entry is checked alone (a ServiceError it raises is its
    refusal), and the well-formed ones go to `run_all` in one call, in order, which gives
    each its result or refusal."""
    checked: list[T | ServiceError] = []
    for entry in entries:  # a malformed entry is refused alone; the others go on
        try:
            checked.append(check(entry))
        except ServiceError as e:
            checked.append(e)
    ran = iter(run_all([c for c in checked if not isinstance(c, ServiceError)]))
    return [c if isinstance(c, ServiceError) else next(ran) for c in checked]


def answer_each(entries: Sequence[E], check: Callable[[E], Any],
                store_all: Callable[[list[Any]], Sequence[Any]], result: Callable[..., R],
                fields: Callable[[Any], dict[str, Any]]) -> list[R]:
    """The entries of a batch call, each kept or refused alone (`each_checked`: the
    well-formed ones share `store_all`'s call, so its transaction), each answered by its
    `result`, in the request's order: the `fields` of its outcome, or the code and message of
    its refusal (a ServiceError: malformed, or refused by the store)."""
    results: list[R] = []
    for outcome in each_checked(entries, check, store_all):
        if isinstance(outcome, ServiceError):
            results.append(result(code=outcome.code.value[0], message=outcome.message))
        elif isinstance(outcome, Exception):
            raise outcome  # not a refusal (the database failed): the whole call fails
        else:
            results.append(result(**fields(outcome)))
    return results


def only(outcomes: Sequence[T | Exception]) -> T:
    """The outcome of a batch of one entry (the single call made of the batched one): its
    result, or its refusal raised."""
    [outcome] = outcomes
    if isinstance(outcome, Exception):
        raise outcome
    return outcome
