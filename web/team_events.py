"""A team event's public page and its wall screen: team standings, and each round's team
matches with their board results (through tournaments.teams.selectors only). The page
follows the team event's live stream (web/live.js): an event refetches its live part
(HX-Request: the fragment only). On the wall screen the round in play stands beside the
standings, in the language of the tournament that owns it (`?lang=` for this view)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from core.errors import NotFoundError
from tournaments.selectors import tournament_get
from tournaments.teams.selectors import team_event_page
from web.language import tournament_view_language


def team_event_public(request: HttpRequest, event_id: int, wall: bool = False) -> HttpResponse:
    try:
        context = team_event_page(event_id=event_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such team event") from exc
    event = context["event"]
    if wall and event.tournament_id is not None:
        tournament_view_language(request, tournament_get(tournament_id=event.tournament_id))
    rounds = context["rounds"]
    current = None
    if event.status == "in_progress" and rounds and rounds[-1][0] == event.current_round:
        current, rounds = rounds[-1], list(reversed(rounds[:-1]))
    context.update({"wall": wall, "current": current, "rounds": rounds})
    if request.headers.get("HX-Request"):
        return render(request, "pages/_team_event_live.html", context)
    return render(request, "pages/team_event.html", context)
