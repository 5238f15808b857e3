"""Where transactions begin, made visible (STYLE 14).

A write service is an entry point: `@write_service` runs it in the OUTERMOST transaction
(`transaction.atomic(durable=True)`), so calling it inside another transaction is an error
Django raises at once, not a nesting nobody sees. The one place that may put a service
inside a larger transaction is a request's own unit of work (`request_transaction`, used
by the Idempotency-Key handling, whose record must commit or roll back with the service's
writes); there the service joins it without a savepoint. Code that runs inside a caller's
transaction is named `..._in_tx` (or kept private) and opens none.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from django.db import transaction

P = ParamSpec("P")
R = TypeVar("R")

_local = threading.local()


def _in_request_transaction() -> bool:
    return getattr(_local, "depth", 0) > 0


@contextmanager
def request_transaction() -> Iterator[None]:
    """One request's whole unit of work, in one outermost transaction; write services
    called inside join it."""
    with transaction.atomic(durable=True):
        _local.depth = getattr(_local, "depth", 0) + 1
        try:
            yield
        finally:
            _local.depth -= 1


@contextmanager
def service_transaction() -> Iterator[None]:
    """The transaction of a write service: the outermost one (durable), or the enclosing
    `request_transaction`, joined without a savepoint."""
    if _in_request_transaction():
        yield
        return
    with transaction.atomic(durable=True):
        yield


def write_service(fn: Callable[P, R]) -> Callable[P, R]:
    """Mark `fn` as a write service: its body runs in `service_transaction()`."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with service_transaction():
            return fn(*args, **kwargs)

    wrapper.write_service = True  # type: ignore[attr-defined]
    return wrapper


def write_service_of(fn: Callable[P, R], *, name: str, doc: str) -> Callable[P, R]:
    """The entry point (`write_service`) named `name` of `fn`, a helper that runs inside a
    caller's transaction (`..._in_tx`): one body, two ways in, the signature kept."""
    entry = write_service(fn)
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = doc
    return entry
