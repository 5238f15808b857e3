"""A player's page (/players/<id>/): ratings per club with a chart of each history (an SVG
drawn here, on the server), tournaments with places, matches with their scoresheets and
replays, head-to-head, and game statistics. What the viewer may see only; a player who
keeps the page to their clubs is 404 to everyone else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from players.selectors import player_for_user, player_get
from tournaments.federation.selectors import federation_player_ratings, player_federation_ids
from tournaments.ratings import selectors, services
from tournaments.ratings.selectors import player_page as pages
from web.localize import format_day, format_month

CHART_WIDTH, CHART_HEIGHT, PAD_X, PAD_Y = 640, 220, 66, 18


@dataclass(frozen=True)
class RatingChart:
    """An SVG chart's shapes: the rating line, the deviation band, axis labels."""

    width: int
    height: int
    line: str  # polyline points
    band: str  # polygon points: rating + rd forwards, rating - rd back
    dots: list[tuple[float, float, str]]  # x, y, title
    ticks: list[tuple[float, str]]  # y, label
    x_labels: list[tuple[float, str]]


def rating_chart(entries: list[dict[str, Any]]) -> RatingChart | None:
    """The chart of a rating history (the player's per-period entries, oldest first): the
    rating before the first period, then after each; the band is rating ± deviation."""
    if not entries:
        return None
    ratings = [entries[0]["rating_before"], *(e["rating"] for e in entries)]
    rds = [entries[0]["rd_before"], *(e["rd"] for e in entries)]
    # The axis in the page's words: a day ("2 Dec 2026", "۱۱ آذر ۱۴۰۵") or a month.
    dates = ["", *(e.get("label") or format_day(e["finished_at"].date()) for e in entries)]
    low = min(r - d for r, d in zip(ratings, rds, strict=True))
    high = max(r + d for r, d in zip(ratings, rds, strict=True))
    low, high = (low // 50) * 50, (high // 50 + 1) * 50
    n = len(ratings)

    def x(i: int) -> float:
        return round(PAD_X + (CHART_WIDTH - PAD_X - 8) * (i / (n - 1) if n > 1 else 0.5), 1)

    def y(value: float) -> float:
        span = CHART_HEIGHT - 2 * PAD_Y
        return round(CHART_HEIGHT - PAD_Y - span * (value - low) / (high - low), 1)

    line = " ".join(f"{x(i)},{y(r)}" for i, r in enumerate(ratings))
    upper = [f"{x(i)},{y(r + d)}" for i, (r, d) in enumerate(zip(ratings, rds, strict=True))]
    lower = [f"{x(i)},{y(r - d)}" for i, (r, d) in enumerate(zip(ratings, rds, strict=True))]
    step = max(50, round((high - low) / 4 / 50) * 50)
    ticks = [(y(v), f"{v:.0f}") for v in range(int(low), int(high) + 1, int(step))]
    pairs = list(zip(ratings, rds, strict=True))
    dots = [(x(i), y(r), f"{r:.0f} ± {d:.0f}") for i, (r, d) in enumerate(pairs)]
    labels = [(x(i), dates[i]) for i in (1, n - 1)] if n > 2 else [(x(n - 1), dates[n - 1])]
    return RatingChart(
        CHART_WIDTH, CHART_HEIGHT, line, " ".join(upper + lower[::-1]), dots, ticks, labels
    )


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = player_get(player_id=player_id)
    if player is None or not selectors.player_page_visible(player=player, user=request.user):
        raise Http404("no such player")
    clubs = []
    for club, rating in selectors.player_club_ratings(player=player):
        history = selectors.player_rating_history(player=player, club=club, user=request.user)
        row = selectors.club_rating_rows(club=club, rows=[rating])[0]
        clubs.append({"club": club, "rating": row, "chart": rating_chart(history)})
    federations = [
        {
            **f,
            "chart": rating_chart(
                [
                    {
                        "rating_before": m.rating_before,
                        "rd_before": m.rd_before,
                        "rating": m.rating,
                        "rd": m.rd,
                        "label": format_month(m.month),
                    }
                    for m in f["months"]
                ]
            ),  # fmt: skip
        }
        for f in federation_player_ratings(player_id=player.pk)
    ]
    places = pages.player_tournament_places(player=player, user=request.user)
    sizes = pages.tournament_field_sizes(tournament_ids=[s.tournament_id for s in places])
    matches = pages.player_matches(player=player, user=request.user, limit=200)
    context = {
        "player": player,
        "clubs": clubs,
        "federations": federations,
        "federation_ids": player_federation_ids(player_id=player.pk),
        "places": [(s, sizes.get(s.tournament_id, 0)) for s in places],
        "matches": [(m, m.player2 if m.player1_id == player.pk else m.player1) for m in matches],
        "head_to_head": pages.head_to_head(player=player, matches=matches),
        "stats": pages.player_statistics(player=player, matches=matches),
        "is_own": player_for_user(user=request.user) == player,
        "visibility_choices": type(player).PageVisibility.choices,
    }
    return render(request, "pages/player.html", context)


@require_POST
def player_visibility(request: HttpRequest, player_id: int) -> HttpResponse:
    """The player's own choice: the page for everyone, or for their clubs only."""
    if not request.user.is_authenticated:
        raise Http404("no such player")
    try:
        services.player_page_visibility_set(
            player_id=player_id, by=request.user, visibility=request.POST.get("visibility", "")
        )
    except ApplicationError as exc:
        raise Http404(str(exc)) from exc
    return redirect("player-page", player_id=player_id)
