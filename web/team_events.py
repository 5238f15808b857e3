"""A team event's public page: team standings, and each round's team matches with their
board results (through tournaments.teams.selectors only)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from core.errors import NotFoundError
from tournaments.teams.selectors import team_event_page


def team_event_public(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        context = team_event_page(event_id=event_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such team event") from exc
    return render(request, "pages/team_event.html", context)
