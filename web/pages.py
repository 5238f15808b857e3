"""Human-facing pages: public tournaments, their standings and pairings, and match
scoresheets. Read-only; they show only what a spectator may see (scores and results of
finished hands, never a card of a hand in play)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from core.errors import NotFoundError
from games.selectors import match_get, match_hand_rows
from tournaments.selectors import (
    match_followable,
    matches_followable,
    tournament_get,
    tournament_list_for,
    tournament_rounds,
    tournament_standings,
)


def home(request: HttpRequest) -> HttpResponse:
    tournaments = tournament_list_for(user=request.user).order_by("-created_at")[:50]
    matches = matches_followable(user=request.user).select_related("player1", "player2", "winner")[
        :20
    ]
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
    if not match_followable(user=request.user, match=match):
        raise Http404("no such match")
    hands = list(match_hand_rows(match=match))
    names = {0: match.player1.name, 1: match.player2.name}
    for hand in hands:
        hand.correction_lines = [_correction_line(c, names) for c in hand.corrections or []]
    context = {"match": match, "games": _games(match), "hands": hands}
    return render(request, "pages/match.html", context)


def _entry_text(entry: dict[str, Any], names: dict[int, str]) -> str:
    """A table hand's entry as a scoresheet line: "Gin by Ann, 0 / 30" or "Drawn"."""
    if entry.get("drawn") or entry.get("kind") == "drawn":
        return "Drawn"
    kind = str(entry.get("kind", "knock")).capitalize()
    who = names.get(entry.get("knocker"), "?")
    deadwood = f"{entry.get('knocker_deadwood')} / {entry.get('defender_deadwood')}"
    return f"{kind} by {who}, deadwood {deadwood}, {entry.get('points')} points"


def _correction_line(correction: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """One crossed-out entry and what replaced it, who corrected it, when and why."""
    return {
        "before": _entry_text(correction.get("before") or {}, names),
        "after": _entry_text(correction.get("after") or {}, names),
        "by": correction.get("by", ""),
        "at": correction.get("at", ""),
        "reason": correction.get("reason", ""),
    }


def _games(match: Any) -> list[dict[str, Any]]:
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
