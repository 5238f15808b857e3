"""DRF's throttles, saying where a client stands: each throttle that counted a request
notes its limit, what is left and when the window frees up, and
`RateLimitHeadersMiddleware` writes the tightest as `X-RateLimit-Limit`,
`X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until a request more is allowed
again). A refusal is 429 `throttled` with `Retry-After` (DRF's handler sets it).

Kept apart from core/api.py: a class named in DEFAULT_THROTTLE_CLASSES is imported while
rest_framework.views is being imported, so its module must not import views itself."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin
from rest_framework import throttling

_ATTRIBUTE = "_rate_limits"


@dataclass(frozen=True)
class RateLimit:
    scope: str
    limit: int
    remaining: int
    reset: int  # seconds


class RateLimitNoted:
    """Mixed into a SimpleRateThrottle: after deciding, note where the client stands."""

    def allow_request(self, request: Any, view: Any) -> bool:
        allowed = super().allow_request(request, view)  # type: ignore[misc]
        if self.rate is not None and getattr(self, "key", None) is not None:
            _note(request, self._standing(allowed))
        return allowed

    def _standing(self, allowed: bool) -> RateLimit:
        history, now = self.history, self.now
        remaining = max(self.num_requests - len(history), 0)
        if allowed and history:
            reset = history[-1] + self.duration - now
        elif history:
            reset = self.wait() or 0
        else:
            reset = self.duration
        return RateLimit(self.scope, self.num_requests, remaining, math.ceil(max(reset, 0)))


def _note(request: Any, standing: RateLimit) -> None:
    django_request = getattr(request, "_request", request)
    limits = getattr(django_request, _ATTRIBUTE, None)
    if limits is None:
        limits = []
        setattr(django_request, _ATTRIBUTE, limits)
    limits.append(standing)


class AnonRateThrottle(RateLimitNoted, throttling.AnonRateThrottle):
    """Anonymous requests per client address (rate: THROTTLE_ANON); logins have their own
    scopes (core.api.LOGIN_THROTTLES), so reads never block a login."""


class UserRateThrottle(RateLimitNoted, throttling.UserRateThrottle):
    """Signed-in requests per user (rate: THROTTLE_USER; unset: none)."""


class PracticeRateThrottle(RateLimitNoted, throttling.UserRateThrottle):
    """New practice matches per player (rate: THROTTLE_PRACTICE), on the API and the lobby
    alike (issue 32: practice must not pile up)."""

    scope = "practice"


class RateLimitHeadersMiddleware(MiddlewareMixin):
    """The tightest limit that counted the request, as headers (sync and async)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        limits = getattr(request, _ATTRIBUTE, None)
        if limits:
            tightest = min(limits, key=lambda r: (r.remaining, -r.reset))
            response["X-RateLimit-Limit"] = str(tightest.limit)
            response["X-RateLimit-Remaining"] = str(tightest.remaining)
            response["X-RateLimit-Reset"] = str(tightest.reset)
        return response
