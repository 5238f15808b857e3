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
  at most the budget; the account's budget, once spent, refuses only the addresses that
  have failed for it (`address_failed_for`), never its owner's;
- at most LOGIN_HASHES_AT_ONCE_PER_ADDRESS (and _PER_ACCOUNT) hashes run at once for one
  address (account): a burst from one client takes that many workers at most, not all of
  them, and the others' requests go on being answered (`login_slots_take`, released by
  `LoginSlotsMiddleware` when the request ends);
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
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import gettext_lazy
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger("core.login_throttle")

LOCKED_OUT_MESSAGE = gettext_lazy("Too many failed logins: try again later.")


def client_ip(request: HttpRequest) -> str:
    """The client's address as DRF's throttles see it (NUM_PROXIES; AXES_CLIENT_IP_CALLABLE)."""
    return BaseThrottle().get_ident(request)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE): the API's error shape
    under /api/, plain text elsewhere; 429 either way."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "throttled", "message": str(LOCKED_OUT_MESSAGE)}}
        return JsonResponse(body, status=429)
    return HttpResponse(
        str(LOCKED_OUT_MESSAGE), status=429, content_type="text/plain; charset=utf-8"
    )


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
        if hashes and not (
            login_slots_take(request, username) and hashing_allowed(request, username)
        ):
            login_slots_release(request)
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


def address_failed_for(request: HttpRequest, username: str) -> bool:
    """Has this client address failed a login to this account within the cool-off? The
    per-account budgets (the hashing budget here, the token login's throttle in core.api)
    hold only for such addresses: wrong passwords from elsewhere must not shut the owner
    out of their account (issue 32), as axes' (account, address) lockout does not."""
    attempts = AccessAttempt.objects.filter(
        username=username, ip_address=client_ip(request), failures_since_start__gt=0
    )
    cool_off = get_cool_off(request)
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
    return attempts.exists()


# --- hashes at once -------------------------------------------------------------------------

SLOTS_TTL = 60  # seconds a count of hashes at once outlives the last login that touched it
_SLOTS = "_login_slots"  # the request's slots, released when it ends


def _account(username: str) -> str:
    return hashlib.sha256(str(username).casefold().encode("utf-8", "replace")).hexdigest()


def login_slots_take(request: HttpRequest, username: str) -> bool:
    """Take a slot of the address's and the account's hashes at once
    (LOGIN_HASHES_AT_ONCE_PER_ADDRESS, _PER_ACCOUNT; 0: unbounded); False when one of them
    is full. Held until `login_slots_release` (LoginSlotsMiddleware, at the request's end).
    A cache that fails lets the attempt through."""
    slots = (
        ("address", client_ip(request), getattr(settings, "LOGIN_HASHES_AT_ONCE_PER_ADDRESS", 0)),
        ("account", _account(username), getattr(settings, "LOGIN_HASHES_AT_ONCE_PER_ACCOUNT", 0)),
    )
    held = getattr(request, _SLOTS, None)
    if held is None:
        held = []
        setattr(request, _SLOTS, held)
    for scope, ident, limit in slots:
        if not limit:
            continue
        key = f"login-hashing:{scope}:{ident}"
        try:
            cache.add(key, 0, timeout=SLOTS_TTL)
            at_once = cache.incr(key)
            cache.touch(key, SLOTS_TTL)
        except ValueError:  # expired between the two: take it afresh
            cache.set(key, 1, timeout=SLOTS_TTL)
            at_once = 1
        except Exception:  # noqa: BLE001 - the cache is down: axes still guards the login
            logger.warning("login hashes at once not checked: the cache failed", exc_info=True)
            continue
        held.append(key)
        if at_once > limit:
            logger.warning("login refused before hashing: the %s hashes at its limit", scope)
            return False
    return True


def login_slots_release(request: HttpRequest) -> None:
    for key in getattr(request, _SLOTS, None) or ():
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, timeout=SLOTS_TTL)
        except ValueError:
            pass  # expired: nothing to give back
        except Exception:  # noqa: BLE001 - the cache is down: its count expires
            logger.warning("login slot not released: the cache failed", exc_info=True)
    setattr(request, _SLOTS, [])


@sync_and_async_middleware
def LoginSlotsMiddleware(get_response: Callable) -> Callable:  # noqa: N802 - a middleware
    """Releases the login slots a request took (core.login_throttle), however it ended."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponse:
            try:
                return await get_response(request)
            finally:
                if getattr(request, _SLOTS, None):
                    await sync_to_async(login_slots_release)(request)

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponse:
        try:
            return get_response(request)
        finally:
            login_slots_release(request)

    return middleware


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
    account = _account(username)
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
            if scope == "account" and not address_failed_for(request, username):
                continue  # the account's budget is spent by others: not on its owner
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
