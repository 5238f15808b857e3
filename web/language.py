"""The page's language (README, "Languages"): the switcher on every page, and where a
tournament decides.

core.language picks the request's language (the person's choice, else Accept-Language,
else English). A page of a tournament then uses the tournament's language where neither
the person nor the browser chose one (`tournament_page_language`); prints and the wall
screen always use the tournament's, unless the page's own switch (`?lang=`) says
otherwise for that view (`tournament_view_language`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from core.language import DEFAULT, supported, use
from players.services import player_language_set
from tournaments.selectors import tournament_language

VIEW = "view"  # the tournament's language, or the page's own switch (?lang=)


def tournament_page_language(request: HttpRequest, tournament: Any) -> None:
    """A tournament's page: `?lang=` for this view (a link someone shared), else its
    language unless the person or the browser chose one."""
    page_language(request, lambda: tournament_language(tournament=tournament))


def page_language(request: HttpRequest, language: str | Callable[[], str]) -> None:
    """A page of a tournament whose language is `language` (or what it returns, asked only
    when needed): `?lang=` for this view, else that language unless the person or the
    browser chose one."""
    linked = supported(request.GET.get("lang"))
    if linked:
        use(request, linked, VIEW)
        return
    if getattr(request, "language_source", DEFAULT) == DEFAULT:
        found = supported(language() if callable(language) else language)
        if found:
            use(request, found, DEFAULT)


def tournament_view_language(request: HttpRequest, tournament: Any) -> None:
    """A print or the wall screen: the tournament's language, or `?lang=` for this view."""
    found = supported(request.GET.get("lang")) or supported(
        tournament_language(tournament=tournament)
    )
    use(request, found or settings.LANGUAGE_CODE, VIEW)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The switcher: Django's set_language (the cookie, back to `next`), and the choice
    kept on the account of a signed-in player."""
    response = set_language(request)
    code = supported(request.POST.get("language"))
    if code and request.user.is_authenticated:
        player_language_set(user=request.user, language=code)
    return response


def context(request: HttpRequest) -> dict[str, Any]:
    """For the switcher (web/templates/web/_language_switch.html) and `<html lang dir>`."""
    current = translation.get_language() or settings.LANGUAGE_CODE
    return {
        "languages": [
            {"code": code, "name": name, "current": code == current}
            for code, name in settings.LANGUAGES
        ],
        "language_by_link": getattr(request, "language_source", None) == VIEW,
        "text_dir": "rtl" if translation.get_language_bidi() else "ltr",
    }
