"""The one in-process cache: bounded in size, and an entry left idle goes.

Every cache a worker keeps of the data in its memory is a `Memo` (STYLE.md habit 18): the
remembered states of matches and tournaments (eventstore.repository), the finished-hand
records of match snapshots, the live streams' copies of followed match and tournament
streams (games.selectors.followed, tournaments.followed), the matches with preset deals. It is
cachetools' `TTLCache` (least recently used out first, each entry with its own expiry) with
two changes: a read re-arms the entry's expiry, so what goes is what has not been read or
written for `idle` seconds, however recently it was first put; and a lock makes each call
atomic, since a worker's threads share its caches. What this costs against the hand-rolled
`OrderedDict` and lock it replaced: bench/cache.py, figures in bench/README.md.

(Not `core.cache`: that is the shared Redis cache with its in-process fallback.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from cachetools import TTLCache

K = TypeVar("K")
V = TypeVar("V")

_ABSENT: Any = object()


class Memo(Generic[K, V]):
    """A thread-safe map that holds at most `maxsize` (the sum of `sizeof(value)` over its
    entries, 1 each by default), the least recently used going first, and drops an entry
    not read or put for `idle` seconds.

    `maxsize` and `idle` may be callables (a setting, a module constant): they are read
    again at each `put` and `clear`, and a change rebuilds the cache keeping what still
    fits. `timer` is the clock idleness is measured on (tests may set another one that
    reads the same as the real one when set)."""

    def __init__(
        self,
        *,
        maxsize: int | Callable[[], int],
        idle: float | Callable[[], float],
        sizeof: Callable[[V], int] | None = None,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._maxsize = maxsize if callable(maxsize) else (lambda: maxsize)
        self._idle = idle if callable(idle) else (lambda: idle)
        self._sizeof = sizeof
        self.timer = timer
        self._lock = threading.Lock()
        self._bounds: tuple[int, float] | None = None
        self._cache: TTLCache | None = None  # built at the first put: settings are ready then

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value kept for `key` (its idle time starts again), else `default`."""
        with self._lock:
            cache = self._cache
            if cache is None:
                return default
            try:
                value = cache[key]
            except KeyError:
                return default
            cache[key] = value  # re-arms the expiry: idle counts from the last read
            return value

    def put(self, key: K, value: V, *, unless: Callable[[V], bool] | None = None) -> bool:
        """Keep `value` for `key`, pushing out the least recently used entries beyond the
        bound; a value larger than the whole bound is not kept (nor what `key` held). With
        `unless`, a value already held for which `unless(held)` is true stays instead (the
        test and the put are one step). True if `value` was kept."""
        size = 1 if self._sizeof is None else self._sizeof(value)
        with self._lock:
            cache = self._ready()
            if unless is not None:
                held = cache.get(key, _ABSENT)
                if held is not _ABSENT and unless(held):
                    return False
            if size > cache.maxsize:
                cache.pop(key, None)
                return False
            cache[key] = value
            return True

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Forget `key`; what it held, else `default`."""
        with self._lock:
            if self._cache is None:
                return default
            return self._cache.pop(key, default)

    def clear(self) -> None:
        """Forget everything (and read the bounds again)."""
        with self._lock:
            self._cache = None
            self._ready()

    def size(self) -> int:
        """The sum of the kept values' sizes (their number without `sizeof`)."""
        with self._lock:
            return 0 if self._cache is None else self._cache.currsize

    def __len__(self) -> int:
        with self._lock:
            return 0 if self._cache is None else len(self._cache)

    def __contains__(self, key: object) -> bool:
        """Whether `key` is kept (a look that does not count as a read)."""
        with self._lock:
            return self._cache is not None and key in self._cache

    def __iter__(self) -> Iterator[K]:
        """The keys kept, least recently used first (a copy: the cache may change)."""
        with self._lock:
            return iter([] if self._cache is None else list(self._cache))

    def _ready(self) -> TTLCache:
        bounds = (self._maxsize(), self._idle())
        if self._cache is not None and bounds == self._bounds:
            return self._cache
        old, self._bounds = self._cache, bounds
        self._cache = TTLCache(
            maxsize=bounds[0], ttl=bounds[1], timer=self._now, getsizeof=self._sizeof
        )
        for key in list(old) if old is not None else ():
            value = old[key]  # type: ignore[index]
            if (1 if self._sizeof is None else self._sizeof(value)) <= bounds[0]:
                self._cache[key] = value
        return self._cache

    def _now(self) -> float:
        return self.timer()
