"""Which language a request is answered in (README, "Languages").

Pages: the person's own choice (kept on the account, and in a cookie for visitors), else
`Accept-Language`, else the tournament's language (the page's view applies it, see
`web.language`), else English. The API: `Accept-Language`, else the account's choice, else
English. Every answer names its language in `Content-Language` (LocaleMiddleware).

The kernel knows no app: the account's choice is the `language` field of the user's
profile (the TOKEN_PROFILE_MODEL setting, our players)."""

from __future__ import annotations

import functools
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import trans_real

# How the request's language was chosen: the person's own choice, the browser's header,
# or nothing (English, until a view applies its tournament's language).
CHOICE, HEADER, DEFAULT = "choice", "header", "default"


def supported(code: str | None) -> str | None:
    """`code` ("de", "de-AT", "fa-IR") as one of LANGUAGES, or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def header_language(request: HttpRequest) -> str | None:
    """The first supported language of `Accept-Language` (by its q values), or None."""
    accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _q in trans_real.parse_accept_lang_header(accept):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return None


def account_language(user: Any) -> str | None:
    """The language kept on the user's profile, or None (no profile, none chosen)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        profile = getattr(user, _profile_accessor())
    except (ObjectDoesNotExist, AttributeError):
        return None
    return supported(getattr(profile, "language", "") or None)


@functools.cache
def _profile_accessor() -> str:
    """The user's reverse one-to-one to its profile (`user.player`)."""
    model = apps.get_model(settings.TOKEN_PROFILE_MODEL)
    return model._meta.get_field("user").remote_field.get_accessor_name()


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def use(request: HttpRequest, code: str, source: str) -> None:
    translation.activate(code)
    request.LANGUAGE_CODE = translation.get_language()
    request.language_source = source


class LanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (Content-Language, Vary) with our order of choice."""

    def process_request(self, request: HttpRequest) -> None:
        if is_api(request):
            found = header_language(request)
            if found:
                return use(request, found, HEADER)
            # A token's account is known only inside the view: see account_language_apply.
            found = account_language(getattr(request, "user", None))
            return use(request, found or settings.LANGUAGE_CODE, CHOICE if found else DEFAULT)
        cookie = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        found = account_language(getattr(request, "user", None)) or cookie
        if found:
            return use(request, found, CHOICE)
        found = header_language(request)
        if found:
            return use(request, found, HEADER)
        return use(request, settings.LANGUAGE_CODE, DEFAULT)


def account_language_apply(request: HttpRequest, user: Any) -> None:
    """An API request authenticated by a token, without a supported `Accept-Language`: the
    account's choice (called by core.authentication once the token's user is known)."""
    if getattr(request, "language_source", None) != DEFAULT:
        return
    found = account_language(user)
    if found:
        use(request, found, CHOICE)
