"""The players' side: play a match online in the browser (`/play/<match id>/`), the lobby
(`/play/`: my online matches, practice against the bot). Through the same selectors and
services as the API: the play page is the player's view of the match (`match_view_for`,
what GET /api/matches/{id}/ answers) and its script plays through the public API."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import NotFoundError
from core.throttles import PracticeRateThrottle
from games.selectors import (
    match_get,
    match_seat_for,
    match_view_for,
    matches_online_in_play_of,
)
from games.services.practice import practice_bot_nudge, practice_matches_of, practice_start
from players.selectors import player_for_user
from tournaments.selectors import match_places, player_tournament_match_ids
from web.desk.access import LOGIN_URL
from web.play.strings import play_strings

# Cards nobody needs on the page: the decks, salts and stock orders of hands already over
# (the player may read them in the replay); the page stays light.
_PAGE_SKIPS = ("deck", "salt", "stock")
LOBBY_MATCHES = 100  # online matches the lobby lists at most


def page_phase(view: dict[str, Any], me: int) -> str:
    """data-phase as the page starts (play.js keeps it from then on; README)."""
    if view["status"] != "in_progress":
        return "match-over"
    if view["turn"] != me or not view["legal_actions"]:
        return "waiting"
    return {"upcard": "first-turn", "draw": "draw", "discard": "discard"}.get(
        view["phase"], "waiting"
    )


def _light(view: dict[str, Any]) -> dict[str, Any]:
    hands = [{k: v for k, v in h.items() if k not in _PAGE_SKIPS} for h in view["hands"]]
    return {**view, "hands": hands}


def play_page(request: HttpRequest, match_id: Any) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    try:
        match = match_get(match_id=match_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such match") from exc
    me = player_for_user(user=request.user)
    if me is None or match_seat_for(user=request.user, match=match) is None:
        return redirect("match-page", match_id=match.pk)  # someone else's: watch it there
    if match.mode != "online":
        return redirect("table-entry", match_id=match.pk)
    practice_bot_nudge(match=match)  # a bot job that was lost is queued again
    view = match_view_for(match=match, user=request.user)
    place = match_places(match_ids=[match.pk]).get(str(match.pk))
    turn_time = place.turn_time if place is not None else None
    context = {
        "match": match,
        "me": me,
        "view": _light(view),
        "phase": page_phase(view, me.pk),
        "place": place,
        "turn_seconds": int(turn_time.total_seconds()) if turn_time else 0,
        "strings": play_strings(),
        "csrf": get_token(request),
        "opponent": match.player2 if match.player1_id == me.pk else match.player1,
    }
    return render(request, "play/play.html", context)


def lobby(request: HttpRequest) -> HttpResponse:
    """My online matches to play (a tournament's first), my practice matches, and a button
    to start one against the bot."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    me = player_for_user(user=request.user)
    context = {"me": me, "matches": [], "practice": []}
    if me is not None:
        context.update(_lobby_rows(request.user, me))
    return render(request, "play/lobby.html", context)


def _lobby_rows(user: Any, me: Any) -> dict[str, list[Any]]:
    """My online matches in play, the tournaments' first whatever else there is (their own
    query: friendlies never push them past the page's 100), then my practice matches."""
    in_tournaments = player_tournament_match_ids(player=me)
    mine = matches_online_in_play_of(user=user, first_ids=in_tournaments, limit=LOBBY_MATCHES)
    places = match_places(match_ids=[m.pk for m in mine])
    matches = sorted(
        ({"match": m, "place": places.get(str(m.pk))} for m in mine),
        key=lambda row: row["place"] is None,
    )
    return {"matches": matches, "practice": list(practice_matches_of(player=me)[:10])}


@require_POST
def practice_new(request: HttpRequest) -> HttpResponse:
    """The lobby's "Practise against the bot": a new practice match, then its page."""
    if not request.user.is_authenticated:
        return redirect_to_login("/play/", LOGIN_URL)
    me = player_for_user(user=request.user)
    if me is None:
        return render(request, "play/lobby.html", {"me": None}, status=403)
    if not PracticeRateThrottle().allow_request(request, None):
        error = gettext("You have started many practice matches: try again later.")
        context = {"me": me, "error": error, **_lobby_rows(request.user, me)}
        return render(request, "play/lobby.html", context, status=429)
    match = practice_start(player=me)
    return redirect("play", match_id=match.pk)
