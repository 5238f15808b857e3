"""A club's page (/clubs/<slug>/): its upcoming and recent tournaments, its rating list and
its seasons' tables. Read through the ratings selectors only."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from core.errors import NotFoundError
from tournaments.ratings import selectors
from tournaments.ratings.selectors.player_page import club_tournaments


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        club = selectors.club_by_slug(slug=slug)
    except NotFoundError as exc:
        raise Http404("no such club") from exc
    upcoming, recent = club_tournaments(club=club, user=request.user)
    ratings = selectors.club_rating_top(club=club, limit=100)
    seasons = [
        (season, selectors.season_standing_list(season=season, limit=20))
        for season in selectors.club_season_list(club=club, limit=5)
    ]
    context = {
        "club": club,
        "upcoming": upcoming,
        "recent": recent,
        "ratings": ratings,
        "seasons": seasons,
    }
    return render(request, "pages/club.html", context)


def season_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's whole table (printable): every player, the tournaments counted."""
    try:
        club = selectors.club_by_slug(slug=slug)
        season = selectors.season_get(season_id=season_id)
    except NotFoundError as exc:
        raise Http404("no such season") from exc
    if season.club_id != club.pk:
        raise Http404("no such season")
    table = selectors.season_standing_list(season=season)
    names = selectors.season_tournament_names(season=season, user=request.user)
    rows = [
        (s, [(names.get(c["tournament"]), c["place"], c["points"]) for c in s.counted])
        for s in table
    ]
    return render(request, "pages/season.html", {"club": club, "season": season, "rows": rows})
