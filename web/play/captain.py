"""A team captain's page (`/me/teams/<event id>/`, issue 39): the captain's team, the round
in play with its opponent and boards once it is paired, and the board order for the round
to come, set before its deadline (the round's pairing) through the same service as the API
and the desk (`team_lineup_set`). A plain form of board numbers that works without a
script; web/static/play/lineup.js adds dragging and keyboard moves. "My evening" links it.
Only the team's captain: another signed-in person gets a 403 (a 404 where the event is not
theirs to see); the opponent's lineup shows only once the round is paired."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from core.errors import ConflictError, NotFoundError, PermissionDeniedError
from tournaments.domain.errors import TournamentConflictError
from tournaments.teams.selectors import team_captain_page
from tournaments.teams.services import team_lineup_set
from web.desk.access import FORM_ERRORS, LOGIN_URL, error_message
from web.desk.teams import LineupInputError, lineup_posted
from web.play.strings import lineup_strings


def _context(request: HttpRequest, event_id: int) -> dict[str, Any]:
    try:
        return team_captain_page(event_id=event_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such team event") from exc
    except PermissionDeniedError as exc:
        raise PermissionDenied("only the team's captain") from exc


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context["strings"] = lineup_strings()
    # "?saved=N": round N's lineup was saved (said only while it is the round to come).
    upcoming = context.get("upcoming")
    saved = upcoming is not None and request.GET.get("saved") == str(upcoming["round"])
    context.setdefault("saved", saved)
    return render(request, "play/captain.html", context, status=status)


def captain_page(request: HttpRequest, event_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    context = _context(request, event_id)
    if request.method != "POST":
        return _page(request, context)
    upcoming, event = context["upcoming"], context["event"]
    posted_round = request.POST.get("round", "")
    try:
        if not posted_round.isdigit():
            raise LineupInputError(gettext("a round is a whole number"))
        if upcoming is None or int(posted_round) != upcoming["round"]:
            # A form from before the round was paired: that round's lineup is fixed.
            raise TournamentConflictError(
                "the round is paired: its lineups are fixed", code="lineup_deadline"
            )
        team_lineup_set(
            event_id=event.pk,
            team=context["team"].number,
            round_number=upcoming["round"],
            players=lineup_posted(request.POST, event.boards),
            by=request.user,
        )
    except LineupInputError as exc:
        return _page(request, {**context, "errors": [str(exc)]}, 400)
    except FORM_ERRORS as exc:
        if isinstance(exc, ConflictError | TournamentConflictError):
            # Paired meanwhile: the page as it is now, the lineup sent not saved.
            context = _context(request, event_id)
            return _page(request, {**context, "errors": [error_message(exc)]}, 409)
        return _page(request, {**context, "errors": [error_message(exc)]}, 400)
    return redirect(reverse("my-team", args=[event.pk]) + f"?saved={upcoming['round']}")
