"""Human-facing pages: public tournaments, their standings and pairings, and match
scoresheets. Read-only; they show only what a spectator may see (scores and results of
finished hands, never a card of a hand in play)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from config.errors import NotFoundError
from games.models import Match
from games.selectors import match_get, user_can_organise_match
from tournaments.selectors import (
    tournament_get,
    tournament_list_for,
    tournament_rounds,
    tournament_standings,
)


def home(request: HttpRequest) -> HttpResponse:
    tournaments = tournament_list_for(user=request.user).order_by("-created_at")[:50]
    matches = _visible_matches(request).select_related("player1", "player2", "winner")[:20]
    return render(request, "pages/home.html", {"tournaments": tournaments, "matches": matches})


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = tournament_get(tournament_id=tournament_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such tournament") from exc
    rounds = tournament_rounds(tournament=tournament).prefetch_related(
        "pairings__player1", "pairings__player2", "pairings__winner"
    )
    standings = tournament_standings(tournament=tournament).select_related("player")
    context = {"tournament": tournament, "rounds": rounds, "standings": standings}
    return render(request, "pages/tournament.html", context)


def match_page(request: HttpRequest, match_id: str) -> HttpResponse:
    try:
        match = match_get(match_id=match_id)
    except NotFoundError as exc:
        raise Http404("no such match") from exc
    if not _may_follow(request, match):
        raise Http404("no such match")
    context = {
        "match": match,
        "games": _games(match),
        "hands": match.hands.select_related("knocker", "winner").order_by("hand_number"),
    }
    return render(request, "pages/match.html", context)


def _visible_matches(request: HttpRequest) -> Any:
    """Matches of tournaments the visitor may see, plus their own and those they organise."""
    visible = tournament_list_for(user=request.user)
    query = Match.objects.filter(tournament_pairing__round__tournament__in=visible)
    user = request.user
    if user.is_authenticated:
        if user.is_staff:
            return Match.objects.all()
        query = query | Match.objects.filter(organisers=user)
        query = query | Match.objects.filter(player1__user=user)
        query = query | Match.objects.filter(player2__user=user)
    return query.distinct().order_by("-created_at")


def _may_follow(request: HttpRequest, match: Match) -> bool:
    if user_can_organise_match(user=request.user, match=match):
        return True
    return _visible_matches(request).filter(pk=match.pk).exists()


def _games(match: Match) -> list[dict[str, Any]]:
    """Each game's totals, with the winner's name, for the scoresheet table."""
    names = {0: match.player1.name, 1: match.player2.name}
    rows = []
    for game in (match.scoresheet or {}).get("games", []):
        winner = game.get("winner")
        rows.append(
            {
                "number": game["game"],
                "p1": game["totals"][0],
                "p2": game["totals"][1],
                "winner": names.get(winner) if winner is not None else None,
            }
        )
    return rows
