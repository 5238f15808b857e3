"""Where transactions begin, made visible (STYLE 14).

A write service is an entry point: `@write_service` runs it in the OUTERMOST transaction
(`transaction.atomic(durable=True)`), so calling it inside another transaction is an error
Django raises at once, not a nesting nobody sees. The one place that may put a service
inside a larger transaction is a request's own unit of work (`request_transaction`, used
by the Idempotency-Key handling, whose record must commit or roll back with the service's
writes); there the service joins it without a savepoint. The same body inside a caller's
transaction is the service's `.in_tx` (exported as `<service>_in_tx` where other code
calls it); it opens none. This is the only way a write service begins: no context manager
of its own, no second wrapper (STYLE 18).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, ParamSpec, TypeVar

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
def _service_transaction() -> Iterator[None]:
    """The transaction of a write service: the outermost one (durable), or the enclosing
    `request_transaction`, joined without a savepoint."""
    if _in_request_transaction():
        yield
        return
    with transaction.atomic(durable=True):
        yield


class WriteService(Generic[P, R]):
    """A write service (`@write_service`): calling it runs its body in the outermost
    transaction; `.in_tx` is the same body for a caller already inside one (a tournament
    that makes its round's matches, a sheet that records many hands), which opens none."""

    def __init__(self, fn: Callable[P, R]) -> None:
        functools.update_wrapper(self, fn)
        self.in_tx = fn
        self.write_service = True

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        with _service_transaction():
            return self.in_tx(*args, **kwargs)


def write_service(fn: Callable[P, R]) -> WriteService[P, R]:
    """Mark `fn` as a write service, the one way a write begins (STYLE 14, 18): its body
    runs in the outermost transaction (or the request's own, joined); `fn.in_tx` runs it in
    the caller's."""
    return WriteService(fn)
