"""Login throttling for every login path (`/api/auth/token/`, `/admin/login/`,
`/api-auth/login/`, `/desk/login/`), all before any password is hashed:

- django-axes counts failed logins (AXES_* settings) and refuses further attempts for a
  cool-off time: by default those of one account from one client address (so that nobody
  can lock someone else out by failing their password from elsewhere), and, whatever the
  lockout parameters, all of one address past LOGIN_ADDRESS_FAILURE_LIMIT failures
  (`LoginLockoutHandler`);
- a hashing budget (`hashing_allowed`) bounds the password hashes a minute per client
  address and per account, counted atomically in the cache before the hash, so that a
  burst of concurrent attempts (which all pass axes' check before any has failed) costs
  at most the budget;
- DRF's login throttles (core.api) also bound the API's attempts.

Staff locked out have a way back in that hashes no password: a one-time sign-in link from
`manage.py staff_signin_link` (players, web.desk.signin).

The client address is the one the nearest of our NUM_PROXIES proxies saw (DRF's rule): with
NUM_PROXIES = 0 (no proxy in front) `X-Forwarded-For` is ignored, so a client cannot rotate
it to look like many."""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger("core.login_throttle")

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
    """axes' lockout check and the hashing budget, first of AUTHENTICATION_BACKENDS, so
    that a refused attempt never reaches ModelBackend's hash. A call without a request (a
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
        super().authenticate(request, username, password, **kwargs)  # raises if locked out
        hashes = username is not None and password is not None  # else ModelBackend won't
        if hashes and not hashing_allowed(request, username):
            # As axes' own refusal: answered 429, and not counted as a failure.
            request.axes_locked_out = True
            raise AxesBackendPermissionDenied("the login hashing budget is spent")
        return None


class LoginLockoutHandler(AxesDatabaseHandler):
    """axes' database handler, with a limit of failed logins per client address beside
    its lockout parameters (LOGIN_ADDRESS_FAILURE_LIMIT; 0: none): the default lockout,
    by account at an address, would otherwise let one address try any number of accounts."""

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        return super().is_locked(request, credentials) or _address_locked(request)

    def user_login_failed(
        self, sender: Any, credentials: dict, request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        # The failure that reaches the address's limit is answered 429 already, as axes
        # answers the one that reaches its own.
        if request is not None and not request.axes_locked_out and _address_locked(request):
            request.axes_locked_out = True


def _address_locked(request: HttpRequest) -> bool:
    limit = getattr(settings, "LOGIN_ADDRESS_FAILURE_LIMIT", 0)
    address = getattr(request, "axes_ip_address", None)
    if not limit or not address or not settings.AXES_LOCK_OUT_AT_FAILURE:
        return False
    attempts = AccessAttempt.objects.filter(ip_address=address)
    if settings.AXES_COOLOFF_TIME is not None:
        attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
    failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
    return failures >= limit


# --- the hashing budget --------------------------------------------------------------------

HASHING_WINDOW = 60  # seconds: the budgets are per minute (fixed windows)


def _now() -> float:
    return time.time()


def hashing_allowed(request: HttpRequest, username: str) -> bool:
    """Take one password hash from the client address's budget and the account's
    (LOGIN_HASHES_PER_ADDRESS, LOGIN_HASHES_PER_ACCOUNT a minute; 0: unbounded). False,
    and nothing is hashed, once either is spent. Counted in the cache with an atomic
    increment before the hash, so concurrent attempts cannot all slip under the limit; a
    cache that fails lets the attempt through (axes still counts it)."""
    window = int(_now() // HASHING_WINDOW)
    account = hashlib.sha256(str(username).casefold().encode("utf-8", "replace")).hexdigest()
    budgets = (
        ("address", client_ip(request), getattr(settings, "LOGIN_HASHES_PER_ADDRESS", 0)),
        ("account", account, getattr(settings, "LOGIN_HASHES_PER_ACCOUNT", 0)),
    )
    for scope, ident, limit in budgets:
        if not limit:
            continue
        key = f"login-hashes:{scope}:{ident}:{window}"
        try:
            cache.add(key, 0, timeout=HASHING_WINDOW * 2)
            spent = cache.incr(key)
        except ValueError:  # evicted between the two: this is the window's first
            cache.set(key, 1, timeout=HASHING_WINDOW * 2)
            spent = 1
        except Exception:  # noqa: BLE001 - the cache is down: axes still guards the login
            logger.warning("login hashing budget not checked: the cache failed", exc_info=True)
            return True
        if spent > limit:
            logger.warning("login refused before hashing: the %s's budget is spent", scope)
            return False
    return True


def lockouts_clear(*, username: str) -> int:
    """Forget the failed logins of an account (from every address), e.g. once its owner
    came back in by a sign-in link; returns how many records went."""
    return AccessAttempt.objects.filter(username=username).delete()[0]


def locked_out(request: HttpRequest) -> bool:
    """Did axes refuse this request's login?"""
    return bool(getattr(request, "axes_locked_out", False))
