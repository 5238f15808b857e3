"""The desk before the event: the organiser's tournaments, creating one, the roster (add a
registered player, a walk-in by name, a pasted list; the rest in web.desk.roster), check-in
(one tap a player), a one-time phone login code for a player without a password, and the
start. Every change
goes through the tournament services, so every change is an event."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.transactions import request_transaction
from players.selectors import player_get, player_list, players_named, user_is_organiser
from players.services import login_code_display, player_create, player_login_code_issue
from tournaments import services
from tournaments.domain.state import TEAM_FORMATS
from tournaments.ratings.selectors import clubs_managed_by
from tournaments.ratings.selectors.names import SimilarPlayer, club_players, club_players_like
from tournaments.selectors import (
    tournament_forbidden_pairs,
    tournament_player_ids,
    tournament_registration_of,
    tournament_round_list,
    tournaments_organised_by,
    user_may_act_as_player,
)
from tournaments.teams.selectors import team_event_of_tournament
from web.brackets import bracket_drawn
from web.desk.access import (
    FORM_ERRORS,
    LOGIN_URL,
    desk_tournament,
    desk_user,
    error_message,
)
from web.desk.cases import tournament_disputes_open
from web.desk.forms import (
    AddPlayerForm,
    PasteNamesForm,
    TournamentCreateForm,
    TournamentLanguageForm,
    TournamentZoneForm,
    WalkInForm,
)
from web.desk.prints import qr_svg
from web.desk.roster import panel, roster_context
from web.localize import sort_by_name


def desk_home(request: HttpRequest) -> HttpResponse:
    """The tournaments the user organises. Organisers (staff, the organisers group, club
    organisers) may also create one; someone made organiser of one tournament sees it."""
    user = request.user
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    tournaments = tournaments_organised_by(user=user, limit=100)
    may_create = user_is_organiser(user=user)
    if not may_create and not tournaments:
        raise PermissionDenied("the desk is for organisers")
    context = {
        "tournaments": tournaments,
        "may_create": may_create,
        "clubs": clubs_managed_by(user=user, limit=50),
    }
    return render(request, "desk/home.html", context)


@desk_user
def tournament_new(request: HttpRequest) -> HttpResponse:
    clubs = clubs_managed_by(user=request.user, limit=50)
    form = TournamentCreateForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create_by_ids(
                created_by=request.user, **form.service_kwargs()
            )
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-tournament", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/tournament_new.html", {"form": form}, status=status)


def _tournament_context(user: Any, tournament: Any, **forms: Any) -> dict[str, Any]:
    roster = roster_context(tournament, user=user)
    entered = [r.player_id for r in roster["registrations"]]
    players = [
        (p.pk, p.name) for p in sort_by_name(player_list(exclude_ids=entered), lambda p: p.name)
    ]
    walk_in = forms.get("walk_in") or WalkInForm()
    # Suggestions while the name is typed (htmx): the club's players with a name like it.
    walk_in.fields["name"].widget.attrs.update(
        {
            "autocomplete": "off",
            "hx-get": reverse("desk-walk-in-similar", args=[tournament.pk]),
            "hx-trigger": "input changed delay:300ms",
            "hx-target": "#walk-in-similar",
            "hx-sync": "this:replace",
        }
    )
    return {
        "tournament": tournament,
        "rounds": tournament_round_list(tournament=tournament),
        "walk_in": walk_in,
        "walk_in_similar": forms.get("walk_in_similar") or [],
        "paste_review": forms.get("paste_review") or [],
        "paste": forms.get("paste") or PasteNamesForm(),
        "add": forms.get("add") or AddPlayerForm(players=players),
        "language_form": forms.get("language_form")
        or TournamentLanguageForm(initial={"language": tournament.language}),
        "zone_form": forms.get("zone_form") or TournamentZoneForm(current=tournament.time_zone),
        "error": forms.get("error"),
        "confirm_start": forms.get("confirm_start"),  # round 1's time, when starting early
        **roster,
        **_formats_context(tournament),
    }


@desk_tournament
def tournament_desk(request: HttpRequest, tournament: Any) -> HttpResponse:
    if tournament.format in TEAM_FORMATS:  # run through its team event (web/desk/teams.py)
        event = team_event_of_tournament(tournament_id=tournament.pk, user=request.user)
        return redirect("desk-team-event", event_id=event.pk)
    context = _tournament_context(request.user, tournament)
    context["disputes_open"] = len(
        tournament_disputes_open(tournament=tournament, user=request.user)
    )
    return render(request, "desk/tournament.html", context)


def _formats_context(tournament: Any) -> dict[str, Any]:
    """The bracket (where the format draws one) and how many pairs are kept apart."""
    started = tournament.status != "registration"
    return {
        "bracket": bracket_drawn(tournament=tournament) if started else None,
        "forbidden_count": len(tournament_forbidden_pairs(tournament=tournament)),
    }


def _again(request: HttpRequest, tournament: Any, **forms: Any) -> HttpResponse:
    """The tournament's desk with the form that failed and its errors (400, nothing written)."""
    tournament.refresh_from_db()
    context = _tournament_context(request.user, tournament, **forms)
    return render(request, "desk/tournament.html", context, status=400)


def _setting_saved(
    request: HttpRequest, tournament: Any, form: Any, form_name: str, field: str
) -> HttpResponse:
    """One setting from a valid desk form, as a SettingsChanged event; the desk again, or
    the desk with the form and its error (400, nothing written)."""
    if form.is_valid():
        try:
            services.tournament_settings_change(
                tournament_id=tournament.pk,
                by=request.user,
                changes={field: form.cleaned_data[field]},
            )
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-tournament", tournament_id=tournament.pk)
    return _again(request, tournament, **{form_name: form})


@require_POST
@desk_tournament
def tournament_language_set(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The language of the tournament's prints and wall screen (a SettingsChanged event)."""
    form = TournamentLanguageForm(request.POST)
    return _setting_saved(request, tournament, form, "language_form", "language")


@require_POST
@desk_tournament
def tournament_zone_set(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The tournament's time zone, until it starts (a SettingsChanged event): its times
    already set (the start) keep their instant, shown in the new zone."""
    form = TournamentZoneForm(request.POST, current=tournament.time_zone)
    if tournament.status != "registration":
        form.is_valid()  # its errors are looked at, and one is added
        form.add_error(None, gettext("the time zone can be changed until the tournament starts"))
    return _setting_saved(request, tournament, form, "zone_form", "time_zone")


@require_POST
@desk_tournament
def walk_in(request: HttpRequest, tournament: Any) -> HttpResponse:
    """A walk-in by name: in a club, the club's players with a name like it are offered
    first (one person, one rating); else, or when the organiser says so, a new player (no
    login) entered in the tournament, in one unit of work (no player is left behind when
    the entry is refused)."""
    form = WalkInForm(request.POST)
    if not form.is_valid():
        return _again(request, tournament, walk_in=form)
    name = form.cleaned_data["name"]
    similar = club_players_like(club=tournament.club, name=name)
    chosen = form.cleaned_data.get("player")
    player = None
    if chosen is not None:
        player = next((s.player for s in similar if s.player.pk == chosen), None)
        if player is None:
            form.add_error(None, gettext("choose one of the players offered, or a new player"))
            return _again(request, tournament, walk_in=form, walk_in_similar=similar)
    elif similar and not form.cleaned_data["new"]:
        # A question, not an error: is it one of these?
        context = _tournament_context(
            request.user, tournament, walk_in=form, walk_in_similar=similar
        )
        return render(request, "desk/tournament.html", context)
    try:
        with request_transaction():
            if player is None:
                player = player_create(name=name)
            services.tournament_register(
                tournament_id=tournament.pk, player=player, by=request.user
            )
    except FORM_ERRORS as exc:
        form.add_error(None, error_message(exc))
        return _again(request, tournament, walk_in=form)
    return redirect("desk-tournament", tournament_id=tournament.pk)


@desk_tournament
def walk_in_similar(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The club's players with a name like the one being typed (htmx, as it is typed)."""
    name = " ".join(request.GET.get("name", "").split())[:120]
    similar = club_players_like(club=tournament.club, name=name) if len(name) > 1 else []
    return render(
        request, "desk/_similar_players.html", {"tournament": tournament, "similar": similar}
    )


def _pasted_player(
    tournament: Any, name: str, pool: list[Any], picks: dict[str, str]
) -> tuple[Any, list[SimilarPlayer]]:
    """Who a pasted name is: (a player, []) — the picked one, the one player of the club
    of that name but for case and accents, or the one of exactly that name without a
    club; (None, []) a new player; (None, offers) a question for the organiser."""
    if tournament.club is None:
        named = players_named(name=name)
        return (named[0] if len(named) == 1 else None), []
    similar = club_players_like(club=tournament.club, name=name, candidates=pool)
    pick = picks.get(name)
    if pick == "new":
        return None, []
    chosen = next((s.player for s in similar if str(s.player.pk) == pick), None)
    if chosen is not None:
        return chosen, []
    same = [s for s in similar if s.score == 1.0]
    if len(same) == 1:
        return same[0].player, []
    return None, similar


def _picks(request: HttpRequest) -> dict[str, str]:
    """The organiser's answers to the paste's questions: {name: player id or "new"}."""
    picks = {}
    for key, name in request.POST.items():
        if key.startswith("pick-for-"):
            picks[name] = request.POST.get("pick-" + key.removeprefix("pick-for-"), "")
    return picks


@require_POST
@desk_tournament
def paste_names(request: HttpRequest, tournament: Any) -> HttpResponse:
    """A pasted list: all the names are entered, or none (one unit of work). In a club, a
    name like some of the club's players (but not exactly one of them) is asked about
    first: which of them it is, or a new player."""
    form = PasteNamesForm(request.POST)
    if not form.is_valid():
        return _again(request, tournament, paste=form)
    names = form.cleaned_data["names"]
    pool = club_players(club=tournament.club) if tournament.club is not None else []
    picks = _picks(request)
    who = {name: _pasted_player(tournament, name, pool, picks) for name in names}
    review = [{"name": n, "similar": offers} for n, (_, offers) in who.items() if offers]
    if review:
        context = _tournament_context(request.user, tournament, paste=form, paste_review=review)
        return render(request, "desk/tournament.html", context)
    try:
        with request_transaction():
            for name in names:
                player = who[name][0] or player_create(name=name)
                try:
                    services.tournament_register(
                        tournament_id=tournament.pk, player=player, by=request.user
                    )
                except FORM_ERRORS as exc:
                    # Which name it was (isolated: a Persian name before a Latin text),
                    # the message already in the page's words.
                    exc.message = exc.template = f"\u2068{name}\u2069: {error_message(exc)}"
                    exc.params = {}
                    raise
    except FORM_ERRORS as exc:
        form.add_error(
            None, gettext("%(error)s (nobody was entered)") % {"error": error_message(exc)}
        )
        return _again(request, tournament, paste=form)
    return redirect("desk-tournament", tournament_id=tournament.pk)


@require_POST
@desk_tournament
def add_player(request: HttpRequest, tournament: Any) -> HttpResponse:
    entered = tournament_player_ids(tournament=tournament)
    players = [
        (p.pk, p.name) for p in sort_by_name(player_list(exclude_ids=entered), lambda p: p.name)
    ]
    form = AddPlayerForm(request.POST, players=players)
    if not form.is_valid():
        return _again(request, tournament, add=form)
    player = player_get(player_id=form.cleaned_data["player"])
    try:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=request.user)
    except FORM_ERRORS as exc:
        form.add_error(None, error_message(exc))
        return _again(request, tournament, add=form)
    return redirect("desk-tournament", tournament_id=tournament.pk)


@desk_tournament
def check_in(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The check-in screen: one tap a player (htmx swaps the row and the counts)."""
    context = {"tournament": tournament, **roster_context(tournament, user=request.user)}
    return render(request, "desk/check_in.html", context)


@require_POST
@desk_tournament
def check_in_player(request: HttpRequest, tournament: Any, player_id: int) -> HttpResponse:
    registration = tournament_registration_of(tournament=tournament, player_id=player_id)
    if registration is None:
        return panel(request, tournament, error=gettext("this player is not entered"), status=404)
    try:
        services.tournament_check_in(
            tournament_id=tournament.pk, player=registration.player, by=request.user
        )
    except FORM_ERRORS as exc:
        return panel(request, tournament, error=error_message(exc), status=409)
    return panel(request, tournament)


@never_cache
@require_POST
@desk_tournament
def login_code_issue(request: HttpRequest, tournament: Any, player_id: int) -> HttpResponse:
    """A one-time code for a player of this tournament to sign in on a phone, shown once
    (only its hash is kept): a new one replaces the last."""
    registration = tournament_registration_of(tournament=tournament, player_id=player_id)
    if registration is None:
        raise Http404("this player is not entered in this tournament")
    if not user_may_act_as_player(user=request.user, player=registration.player):
        # A code signs in as the person: entering them in one's evening is no authority.
        raise PermissionDenied("only staff or the organisers of the player's club may")
    try:
        issued = player_login_code_issue(player_id=player_id, by=request.user)
    except FORM_ERRORS as exc:
        return _again(request, tournament, error=error_message(exc))
    login_url = request.build_absolute_uri(reverse("desk-login"))
    context = {
        "tournament": tournament,
        "issued": issued,
        "code": login_code_display(issued.code),
        "login_url": login_url,
        "qr": qr_svg(login_url),
    }
    return render(request, "desk/login_code.html", context)


@require_POST
@desk_tournament
def start(request: HttpRequest, tournament: Any) -> HttpResponse:
    """Pair round 1 now; more than an hour before its scheduled time, only once the
    organiser confirms (the page asks, with the scheduled time)."""
    try:
        services.tournament_start(
            tournament_id=tournament.pk,
            by=request.user,
            reason="started from the desk",
            confirm=request.POST.get("confirm") == "1",
        )
    except FORM_ERRORS as exc:
        extra = getattr(exc, "extra", None) or {}
        if "before_schedule" in (getattr(exc, "code", None), extra.get("reason")):
            scheduled = dt.datetime.fromisoformat(extra["scheduled_at"])
            return _again(request, tournament, confirm_start=scheduled)
        return _again(request, tournament, error=error_message(exc))
    tournament.refresh_from_db()
    return redirect(
        "desk-round", tournament_id=tournament.pk, number=max(1, tournament.current_round)
    )
