"""A player's entries page (/me/entries/, issue 40): their entries (registered, waiting
with their place, awaiting approval) with a withdraw button, the public tournaments they
may enter themselves, their notices with the e-mail kinds they want, and their calendar
feed's address."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import application_error, refusals, translated_message
from players.selectors import player_for_user
from tournaments import services
from tournaments.entries.services import calendar_feed_of, calendar_feed_renew
from tournaments.notices.services import (
    notice_kinds,
    notice_text,
    player_notice_opt_outs,
    player_notice_opt_outs_set,
    player_notices,
)
from tournaments.selectors import tournament_get
from tournaments.selectors.entries import player_entries, tournaments_open_for_entry
from web.desk.access import LOGIN_URL


def _context(request: HttpRequest, me: Any, error: str = "") -> dict[str, Any]:
    opted_out = player_notice_opt_outs(player=me)
    notices = [{"notice": n, **notice_text(n)} for n in player_notices(player=me)]
    feed = calendar_feed_of(player=me)
    return {
        "me": me,
        "entries": player_entries(player=me),
        "open": tournaments_open_for_entry(user=request.user, player=me),
        "notices": notices,
        "kinds": [(k, label, k not in opted_out) for k, label in notice_kinds()],
        "calendar_url": request.build_absolute_uri(f"/api/calendar/{feed.token}.ics"),
        "error": error,
    }


def _me(request: HttpRequest) -> Any:
    return player_for_user(user=request.user) if request.user.is_authenticated else None


def my_entries(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    me = _me(request)
    if me is None:
        return render(request, "play/entries.html", {"me": None})
    return render(request, "play/entries.html", _context(request, me))


@require_POST
def my_entry_act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """Enter a tournament, or withdraw from it: the player themselves, as the API does."""
    me = _me(request)
    if me is None:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    act = {"enter": services.tournament_register, "withdraw": services.tournament_withdraw}
    if action not in act:
        raise Http404("no such action")
    try:
        tournament = tournament_get(tournament_id=tournament_id, user=request.user)
        act[action](tournament_id=tournament.pk, player=me, by=request.user)
    except refusals() as exc:
        error = application_error(exc)
        assert error is not None  # a refusal
        context = _context(request, me, error=translated_message(error))
        return render(request, "play/entries.html", context, status=error.status)
    return redirect("my-entries")


@require_POST
def my_notice_kinds(request: HttpRequest) -> HttpResponse:
    """The kinds of notice the player wants by e-mail (the others: opted out)."""
    me = _me(request)
    if me is None:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    wanted = set(request.POST.getlist("email"))
    player_notice_opt_outs_set(player=me, kinds=[k for k, _ in notice_kinds() if k not in wanted])
    return redirect("my-entries")


@require_POST
def my_calendar_renew(request: HttpRequest) -> HttpResponse:
    """A new calendar address: the old one stops working."""
    me = _me(request)
    if me is None:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    calendar_feed_renew(player=me)
    return redirect("my-entries")
