"""Who may use the desk, and how domain errors become pages: the desk is for staff and a
tournament's organisers; anyone else signed in gets 403 (404 for a tournament they may not
see, as the API answers), anyone signed out the login page."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from core.errors import ApplicationError, NotFoundError, translated_message
from games.errors import RuleError
from players.selectors import user_is_organiser
from tournaments.errors import TournamentError
from tournaments.selectors import tournament_get, user_can_organise
from web.language import tournament_page_language

LOGIN_URL = "/desk/login/"

# The errors a desk form shows to the organiser (a clear message, nothing written): the
# kernel's, the rules', and the tournament domain's (shown as the API shows them).
FORM_ERRORS = (ApplicationError, RuleError, TournamentError)


def error_message(exc: Exception) -> str:
    """The error in words for the organiser, in the page's language; a rule error's section
    reference goes last ("6 knocking: deadwood 12 exceeds ..." reads "deadwood 12 exceeds
    ... (rule 6, knocking)")."""
    return translated_message(exc)


def desk_user(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed in as an organiser (staff, the organisers group, a club's organisers)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), LOGIN_URL)
        if not user_is_organiser(user=request.user):
            raise PermissionDenied("the desk is for organisers")
        return view(request, *args, **kwargs)

    return wrapper


def desk_tournament(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view gets the tournament (by `tournament_id`) if the user organises it."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), LOGIN_URL)
        try:
            # Seen by the user, or the same 404 as for none (a private one is not given away).
            tournament = tournament_get(tournament_id=tournament_id, user=request.user)
        except NotFoundError as exc:
            raise Http404("no such tournament") from exc
        if not user_can_organise(user=request.user, tournament=tournament):
            raise PermissionDenied("only the tournament's organisers use its desk")
        tournament_page_language(request, tournament)
        return view(request, tournament, *args, **kwargs)

    return wrapper
