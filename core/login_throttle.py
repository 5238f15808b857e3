"""Login throttling for every login path (`/api/auth/token/`, `/admin/login/`,
`/api-auth/login/`): django-axes counts failed logins by account and by client address
(AXES_* settings) and refuses further attempts from either for a cool-off time, before any
password is hashed; DRF's login throttles (core.api) also bound every attempt's rate.

The client address is the one the nearest of our NUM_PROXIES proxies saw (DRF's rule): with
NUM_PROXIES = 0 (no proxy in front) `X-Forwarded-For` is ignored, so a client cannot rotate
it to look like many."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.throttling import BaseThrottle

LOCKED_OUT_MESSAGE = "Too many failed logins: try again later."


def client_ip(request: HttpRequest) -> str:
    """The client's address as DRF's throttles see it (NUM_PROXIES; AXES_CLIENT_IP_CALLABLE)."""
    return BaseThrottle().get_ident(request)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE): the API's error shape
    under /api/, plain text elsewhere; 429 either way."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "throttled", "message": LOCKED_OUT_MESSAGE}}
        return JsonResponse(body, status=429)
    return HttpResponse(LOCKED_OUT_MESSAGE, status=429, content_type="text/plain; charset=utf-8")


class LoginThrottleBackend(AxesStandaloneBackend):
    """axes' lockout check, first of AUTHENTICATION_BACKENDS. A call without a request (a
    shell, a management command, the test client's `login`) is no web login: passed on to
    the next backend rather than refused."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def locked_out(request: HttpRequest) -> bool:
    """Did axes refuse this request's login?"""
    return bool(getattr(request, "axes_locked_out", False))
