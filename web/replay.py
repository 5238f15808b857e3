"""The replay page: a match stepped through event by event, as the viewer may see it, with
the deck commitments and the hash chain recomputed in the browser (static/replay/replay.js).

The page's data comes from `games.audit.match_replay_data`, built on the same redacted
selectors as the events API: a player sees no hidden card of a hand in play. Times are
shown in the match's tournament's zone (UTC for a friendly), named on the page."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation

from core.errors import NotFoundError
from games.audit import match_replay_data
from games.selectors import match_get
from tournaments.selectors import match_followable, match_place
from web.language import page_language
from web.pages import match_time_zone

LOGIN_URL = "/api-auth/login/"


def match_replay_page(request: HttpRequest, match_id: str) -> HttpResponse:
    try:
        match = match_get(match_id=match_id)
    except NotFoundError as exc:
        raise Http404("no such match") from exc
    if not match_followable(user=request.user, match=match):
        if not request.user.is_authenticated:
            # A player who has not signed in yet: sign in, then come back here.
            return HttpResponseRedirect(f"{LOGIN_URL}?{urlencode({'next': request.path})}")
        raise Http404("no such match")
    place = match_place(match_id=match.pk)
    if place is not None:
        page_language(request, place.language)
    data = match_replay_data(match=match, user=request.user)
    context = {
        "match": match,
        "replay": data,
        "may_dispute": data["your_seat"] is not None,
        # replay.js shows each event's instant (UTC in the data) in this zone, named.
        "time_zone": match_time_zone(place),
        # Persian: the Solar Hijri calendar (Intl's "persian") unless the club turned it off.
        "calendar": "persian"
        if translation.get_language() == "fa" and (place is None or place.jalali_dates)
        else "gregory",
    }
    return render(request, "replay/replay.html", context)
