"""The one cache class: Django's Redis cache, which falls back to this process's memory
while Redis is away, so that what the cache serves (throttles' counts, login budgets)
degrades instead of failing: anonymous reads and sign-ins go on being answered, each
process counting its own requests (a per-process limit) until Redis is back.

An outage is logged once when it starts and once when it ends, not on every request; while
Redis is away it is tried again every CACHE_RETRY_SECONDS, so a request does not wait on a
dead server each time. /readyz asks Redis itself (`primary_ping`) and says the cache is
down. config/settings/base.py puts this class in place of Django's whenever CACHE_URL
names Redis."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class _Outage:
    """Whether one Redis is away, for the whole process: Django makes a cache object per
    thread, but an outage is logged once and counted in one memory per process."""

    def __init__(self, location: str, timeout: Any) -> None:
        self.location = location
        self.fallback = LocMemCache(f"hg-cache-fallback:{location}", {"TIMEOUT": timeout})
        self.down_since: float | None = None
        self.retry_at = 0.0
        self.lock = threading.Lock()


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(location: str, timeout: Any) -> _Outage:
    with _outages_lock:
        if location not in _outages:
            _outages[location] = _Outage(location, timeout)
        return _outages[location]


class FallbackRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("retry_seconds", 30.0))
        # A hung Redis costs a request a second at most, not the OS's TCP timeout.
        options.setdefault("socket_connect_timeout", 1.0)
        options.setdefault("socket_timeout", 1.0)
        super().__init__(server, {**params, "OPTIONS": options})
        self._outage = _outage_of(str(server), params.get("TIMEOUT", 300))

    # --- the switch -------------------------------------------------------------------------

    @property
    def down(self) -> bool:
        return self._outage.down_since is not None

    def _went_down(self, exc: Exception) -> None:
        outage = self._outage
        with outage.lock:
            first = outage.down_since is None
            if first:
                outage.down_since = time.monotonic()
            outage.retry_at = time.monotonic() + self.retry_seconds
        if first:
            log.warning(
                "the cache's Redis is unreachable (%s): throttles count in this process's "
                "memory until it is back",
                exc.__class__.__name__,
            )

    def _came_back(self) -> None:
        outage = self._outage
        with outage.lock:
            since, outage.down_since = outage.down_since, None
        if since is not None:
            log.warning("the cache's Redis is back after %.0fs", time.monotonic() - since)

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        outage = self._outage
        if outage.down_since is None or time.monotonic() >= outage.retry_at:
            try:
                value = getattr(super(), name)(*args, **kwargs)
            except UNREACHABLE as exc:
                self._went_down(exc)
            else:
                if outage.down_since is not None:
                    self._came_back()
                return value
        return getattr(outage.fallback, name)(*args, **kwargs)

    def primary_ping(self) -> None:
        """Ask Redis itself (raises if it does not answer); /readyz's cache check."""
        self._cache.get_client(write=True).ping()

    # --- the cache's methods, each through the switch ---------------------------------------

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either("add", key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._either("get", key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either("set", key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either("touch", key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._either("delete", key, version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._either("get_many", keys, version)

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._either("has_key", key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        return self._either("incr", key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> Any:
        return self._either("delete_many", keys, version)

    def clear(self) -> Any:
        self._outage.fallback.clear()
        return self._either("clear")
