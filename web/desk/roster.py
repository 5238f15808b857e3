"""The roster at the desk, beside the check-in: check in everyone registered at once, undo a
check-in made by mistake, withdraw a player (a match of theirs in play forfeited if the
director says so), a member with a login of their own, and every phone login code on one
printed page. Every change goes through the tournament services, so every change is an
event; the page's search filters the rows in the browser (web/static/web/roster.js)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import NotFoundError, PermissionDeniedError
from core.transactions import request_transaction
from players.selectors import login_codes_active, player_may_get_login_code
from players.services import login_code_display, player_create, player_login_code_issue
from tournaments import services
from tournaments.privacy import selectors as privacy_selectors
from tournaments.ratings.selectors import tournament_ratings_shown
from tournaments.selectors import (
    tournament_registration_of,
    tournament_registrations_with_accounts,
    tournament_registrations_with_status,
    user_may_act_as_player,
)
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.desk.forms import MemberForm, WithdrawForm
from web.desk.prints import qr_svg
from web.localize import sort_by_name


def roster_context(tournament: Any, *, user: Any) -> dict[str, Any]:
    """The registrations by name in the page language's order (ICU: Ș after S in Romanian,
    Ž after Z...), with the counts and who may be given a phone login code (by `user`: it
    needs authority over the account, tournaments.selectors.user_may_act_as_player)."""
    registrations = sort_by_name(
        tournament_registrations_with_accounts(tournament=tournament),
        lambda r: r.player.name,
    )
    codes = login_codes_active(player_ids=[r.player_id for r in registrations])
    counts = {"registered": 0, "checked_in": 0, "withdrawn": 0}
    for r in registrations:
        counts[r.status] = counts.get(r.status, 0) + 1
        r.may_get_code = player_may_get_login_code(player=r.player) and user_may_act_as_player(
            user=user, player=r.player
        )
        r.code_expires_at = codes.get(r.player_id)
    counts["total"] = len(registrations)
    return {
        "registrations": registrations,
        "counts": counts,
        "codes_to_print": sum(
            1 for r in registrations if r.may_get_code and r.status != "withdrawn"
        ),
        "in_progress": tournament.status == "in_progress",
        "withdraw_form": WithdrawForm(),
        "ratings": tournament_ratings_shown(tournament=tournament),
    }


def panel(
    request: HttpRequest, tournament: Any, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    """After a roster action: htmx gets the panel (rows and counts), a plain form the
    check-in page (a refusal shown on it)."""
    if not request.headers.get("HX-Request") and error is None:
        return redirect("desk-check-in", tournament_id=tournament.pk)
    tournament.refresh_from_db()
    context = {
        "tournament": tournament,
        "error": error,
        **roster_context(tournament, user=request.user),
    }
    htmx = request.headers.get("HX-Request")
    template = "desk/_check_in_panel.html" if htmx else "desk/check_in.html"
    return render(request, template, context, status=status)


def _registration(tournament: Any, player_id: int) -> Any:
    registration = tournament_registration_of(tournament=tournament, player_id=player_id)
    if registration is None:
        raise Http404("this player is not entered")
    return registration


@require_POST
@desk_tournament
def check_in_all(request: HttpRequest, tournament: Any) -> HttpResponse:
    """Everyone registered and not withdrawn, in one unit of work (all or none)."""
    waiting = tournament_registrations_with_status(tournament=tournament, statuses=["registered"])
    try:
        with request_transaction():
            for registration in waiting:
                services.tournament_check_in(
                    tournament_id=tournament.pk, player=registration.player, by=request.user
                )
    except FORM_ERRORS as exc:
        return panel(request, tournament, error=error_message(exc), status=409)
    return panel(request, tournament)


@require_POST
@desk_tournament
def check_in_undo(request: HttpRequest, tournament: Any, player_id: int) -> HttpResponse:
    registration = _registration(tournament, player_id)
    try:
        services.tournament_check_in_undo(
            tournament_id=tournament.pk,
            player=registration.player,
            by=request.user,
            reason="undone at the desk",
        )
    except FORM_ERRORS as exc:
        return panel(request, tournament, error=error_message(exc), status=409)
    return panel(request, tournament)


@require_POST
@desk_tournament
def withdraw(request: HttpRequest, tournament: Any, player_id: int) -> HttpResponse:
    """Withdrawn players are not paired again; with "forfeit", a match of theirs still in
    play is ruled won by the opponent."""
    registration = _registration(tournament, player_id)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        return panel(request, tournament, error=errors, status=400)
    try:
        services.tournament_withdraw(
            tournament_id=tournament.pk,
            player=registration.player,
            by=request.user,
            reason=form.cleaned_data["reason"] or "withdrawn at the desk",
            forfeit_current=form.cleaned_data["forfeit"],
        )
    except FORM_ERRORS as exc:
        return panel(request, tournament, error=error_message(exc), status=409)
    return panel(request, tournament)


@desk_tournament
def member_new(request: HttpRequest, tournament: Any) -> HttpResponse:
    """A member with a login of their own (a username, and a password or none: then a
    phone login code signs them in the first time), entered in the tournament in one unit
    of work (no account is left behind when the entry is refused)."""
    form = MemberForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                with request_transaction():
                    player = player_create(
                        name=data["name"],
                        username=data["username"],
                        password=data["password"] or None,
                        email=data["email"],
                        club=tournament.club,
                    )
                    services.tournament_register(
                        tournament_id=tournament.pk, player=player, by=request.user
                    )
            except FORM_ERRORS as exc:
                form.add_error(None, error_message(exc))
            else:
                return redirect(reverse("desk-tournament", args=[tournament.pk]) + "#roster")
    context = {"tournament": tournament, "form": form}
    return render(request, "desk/member_new.html", context, status=status)


@never_cache
@require_POST
@desk_tournament
def login_codes_print(request: HttpRequest, tournament: Any) -> HttpResponse:
    """A new one-time code for every player of the roster who signs in without a password
    (not withdrawn), on one printed page to cut into slips. Shown this once: the codes
    given before end."""
    registrations = [
        r
        for r in roster_context(tournament, user=request.user)["registrations"]
        if r.may_get_code and r.status != "withdrawn"
    ]
    issued = []
    try:
        with request_transaction():
            for r in registrations:
                code = player_login_code_issue(player_id=r.player_id, by=request.user)
                issued.append({"issued": code, "code": login_code_display(code.code)})
    except FORM_ERRORS as exc:
        return panel(request, tournament, error=error_message(exc), status=409)
    login_url = request.build_absolute_uri(reverse("desk-login"))
    context = {
        "tournament": tournament,
        "codes": issued,
        "login_url": login_url,
        "qr": qr_svg(login_url),
        "none": gettext("Nobody on the roster needs a login code."),
    }
    return render(request, "desk/login_codes_print.html", context)


@never_cache
@desk_tournament
def member_data(request: HttpRequest, tournament: Any, player_id: int) -> HttpResponse:
    """Everything held about a member of this tournament, as the JSON file they would get
    themselves (GET /api/me/data/): for an organiser acting on the member's request (GDPR
    article 15). Only staff and the organisers of the member's clubs."""
    if tournament_registration_of(tournament=tournament, player_id=player_id) is None:
        raise Http404("this player is not entered in this tournament")
    try:
        document = privacy_selectors.member_data(player_id=player_id, user=request.user)
    except PermissionDeniedError as exc:
        raise PermissionDenied(exc.message) from exc
    except NotFoundError as exc:
        raise Http404(exc.message) from exc
    response = JsonResponse(document, encoder=DjangoJSONEncoder, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="member-data-{player_id}.json"'
    return response
