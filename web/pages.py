"""Human-facing pages: public tournaments, their standings and pairings, and match
scoresheets. Read-only; they show only what a spectator may see (scores and results of
finished hands, never a card of a hand in play)."""

from __future__ import annotations

import json
from typing import Any
from zoneinfo import ZoneInfo

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import NotFoundError
from games.audit import match_bundle_allowed, match_disputes, match_may_audit
from games.selectors import match_get, match_hand_rows, match_has_preset_deals
from tournaments.domain.state import TEAM_FORMATS
from tournaments.ratings.selectors import tournament_ratings_shown
from tournaments.selectors import (
    MatchPlace,
    match_followable,
    match_place,
    matches_followable_newest,
    tournament_get,
    tournament_rounds_set_by_hand,
    tournament_rounds_with_pairings,
    tournament_standings,
    tournaments_newest_for,
)
from tournaments.selectors.anchors import tournament_anchors
from tournaments.teams.selectors import team_event_of_tournament
from web.brackets import bracket_drawn
from web.language import page_language, tournament_page_language, tournament_view_language
from web.localize import standings_sorted


def home(request: HttpRequest) -> HttpResponse:
    tournaments = tournaments_newest_for(user=request.user, limit=50)
    matches = matches_followable_newest(user=request.user, limit=20)
    return render(request, "pages/home.html", {"tournaments": tournaments, "matches": matches})


def tournament_page(request: HttpRequest, tournament_id: int, wall: bool = False) -> HttpResponse:
    """A tournament's public page: on a person's own device in the person's language (their
    choice, else the browser's, else the tournament's); on the wall screen
    (`/tournaments/<id>/wall/`) in the tournament's, with a switch for that view."""
    try:
        tournament = tournament_get(tournament_id=tournament_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such tournament") from exc
    if tournament.format in TEAM_FORMATS:  # its teams' page (web/team_events.py)
        event = team_event_of_tournament(tournament_id=tournament.pk, user=request.user)
        name = "team-event-wall" if wall else "team-event-page"
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        return redirect(reverse(name, args=[event.pk]) + query)
    if wall:
        tournament_view_language(request, tournament)
    else:
        tournament_page_language(request, tournament)
    rounds = tournament_rounds_with_pairings(tournament=tournament)
    standings = standings_sorted(tournament_standings(tournament=tournament))
    ratings = tournament_ratings_shown(tournament=tournament)
    # The wall screen: the round in play beside the standings, the rounds before below it
    # (newest first); a finished tournament's rounds in order.
    current = None
    if tournament.status == "in_progress":
        current = next((r for r in rounds if r.round.number == tournament.current_round), None)
    others = [r for r in rounds if r is not current]
    if current is not None:
        others.reverse()
    context = {
        "tournament": tournament,
        "wall": wall,
        "rounds": others,
        "current": current,
        "standings": standings,
        **_played(tournament, [r.round for r in rounds]),
        "bracket": bracket_drawn(tournament=tournament),
        "by_hand": tournament_rounds_set_by_hand(tournament=tournament),
        "ratings": ratings,
    }
    if not request.headers.get("HX-Request"):  # not in the live part: the page's own
        anchors = tournament_anchors(tournament=tournament)
        context["anchors"] = anchors
        context["anchors_json"] = json.dumps(anchors, indent=1)
    return render(request, _live("pages/tournament.html", request), context)


def _played(tournament: Any, rounds: list[Any]) -> dict[str, Any]:
    """When it was played: from the first round's pairing to the end (the tournament's
    finish, else its last round's completion); `same_day` in the tournament's zone."""
    started = min((r.paired_at for r in rounds if r.paired_at), default=None)
    ended = None
    if tournament.status == "finished":
        ended = tournament.finished_at or max(
            (r.completed_at for r in rounds if r.completed_at), default=None
        )
    same_day = False
    if started and ended:
        zone = ZoneInfo(tournament.time_zone or "UTC")
        same_day = started.astimezone(zone).date() == ended.astimezone(zone).date()
    return {"played_from": started, "played_to": ended, "played_same_day": same_day}


def _live(template: str, request: HttpRequest) -> str:
    """The page, or only its live part (`pages/_<name>_live.html`) when web/live.js asks
    for it again after an event of the page's stream (it sends HX-Request)."""
    if request.headers.get("HX-Request"):
        folder, _, name = template.rpartition("/")
        return f"{folder}/_{name.removesuffix('.html')}_live.html"
    return template


def match_page(request: HttpRequest, match_id: str) -> HttpResponse:
    try:
        match = match_get(match_id=match_id)
    except NotFoundError as exc:
        raise Http404("no such match") from exc
    if not match_followable(user=request.user, match=match):
        raise Http404("no such match")
    place = match_place(match_id=match.pk)
    if place is not None:
        page_language(request, place.language)
    hands = list(match_hand_rows(match=match))
    names = {0: match.player1.name, 1: match.player2.name}
    for hand in hands:
        hand.correction_lines = [_correction_line(c, names) for c in hand.corrections or []]
    context = {
        "match": match,
        "games": _games(match),
        "hands": hands,
        "disputes": _disputes(match, request.user, names),
        "zone": match_time_zone(place),
        "preset_deals": match_has_preset_deals(match=match),
        "may_download_bundle": match_bundle_allowed(user=request.user, match=match),
    }
    return render(request, _live("pages/match.html", request), context)


def match_time_zone(place: MatchPlace | None) -> str:
    """The name of the zone the match's times are shown in: its tournament's, or "UTC" for
    a match outside any tournament (the match page and the replay page)."""
    return place.time_zone if place is not None else "UTC"


def _disputes(match: Any, user: Any, names: dict[int, str]) -> list[dict[str, Any]] | None:
    """The match's dispute cases with their outcomes, for its players and organisers only
    (None for anyone else: a spectator sees no statement)."""
    if not match_may_audit(user=user, match=match):
        return None
    by_id = {match.player1_id: names[0], match.player2_id: names[1]}
    return [
        {**case, "player_name": by_id.get(case["player"], "?")}
        for case in match_disputes(match=match, user=user)
    ]


def _entry_text(entry: dict[str, Any], names: dict[int, str]) -> str:
    """A table hand's entry as a scoresheet line: "Gin by Ann, 0 / 30" or "Drawn"."""
    if entry.get("drawn") or entry.get("kind") == "drawn":
        return gettext("Drawn")
    kind = str(entry.get("kind", "knock"))
    return gettext("%(kind)s by %(who)s, deadwood %(k)s / %(d)s, %(points)s points") % {
        "kind": str(ENTRY_KINDS.get(kind, kind.capitalize())),
        "who": names.get(entry.get("knocker"), "?"),
        "k": entry.get("knocker_deadwood"),
        "d": entry.get("defender_deadwood"),
        "points": entry.get("points"),
    }


ENTRY_KINDS = {"gin": _("Gin"), "knock": _("Knock"), "undercut": _("Undercut")}


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
