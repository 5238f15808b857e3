"""The players' page of a table (the QR code on the table slip leads here): on a phone, a
player enters the hand just played; the opponent confirms or disputes it on theirs. Hands
become part of the match only once confirmed (or accepted by an organiser on the desk)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from core.errors import NotFoundError
from games.selectors import match_get, table_entry_latest, table_entry_open, user_can_organise_match
from games.services.table_entries import (
    table_entry_confirm,
    table_entry_dispute,
    table_entry_submit,
    table_entry_withdraw,
)
from players.selectors import player_for_user
from tournaments.selectors import match_places, tournament_get, tournament_pairing_at
from web.desk.access import FORM_ERRORS, LOGIN_URL, error_message
from web.desk.entry_forms import HandForm, ReasonForm
from web.desk.rounds import scoresheet


def table_short(request: HttpRequest, tournament_id: int, number: int, table: int) -> HttpResponse:
    """`/t/<tournament>/<round>/<table>/`, printed on the table slip beside its QR code for
    a phone that cannot scan: the table's page (the round's match at that table, also after
    a re-pairing). Someone who may not see the tournament gets the 404 of none."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    try:
        tournament = tournament_get(tournament_id=tournament_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such tournament") from exc
    pairing = tournament_pairing_at(
        tournament=tournament, round_number=number, table=table, with_match=True
    )
    if pairing is None:
        raise Http404("no such table")
    return redirect("table-entry", match_id=pairing.match_id)


def table_entry_page(request: HttpRequest, match_id: Any) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    try:
        # Seen by the user, or the same 404 as for none (a private one is not given away).
        match = match_get(match_id=match_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such match") from exc
    me = player_for_user(user=request.user)
    seat = match.seat_of(me.pk) if me is not None else None
    if seat is None:
        if user_can_organise_match(user=request.user, match=match):
            return redirect("desk-match", match_id=match.pk)
        raise PermissionDenied("this table's page is for its two players")
    names = (match.player1.name, match.player2.name)
    form, dispute, error = HandForm(names=names), ReasonForm(prefix="dispute"), None
    status = 400 if request.method == "POST" else 200
    if request.method == "POST":
        action = request.POST.get("action")
        entry = table_entry_open(match=match)
        try:
            if action in ("confirm", "dispute") and not _shown(request, entry):
                # The page showed another entry (taken back and entered again since, or
                # settled): nothing is recorded, and the page shows the one there is now.
                error = gettext(
                    "The entry changed since your page showed it: check the one shown now."
                )
                status = 409
            elif action == "enter":
                form = HandForm(request.POST, names=names)
                if form.is_valid():
                    table_entry_submit(
                        match_id=match.pk,
                        player=me,
                        hand=form.entry((match.player1_id, match.player2_id)),
                    )
                    return redirect("table-entry", match_id=match.pk)
            elif action in ("confirm", "dispute", "withdraw") and entry is not None:
                if action == "confirm":
                    table_entry_confirm(entry_id=entry.pk, player=me, version=entry.version)
                elif action == "withdraw":
                    table_entry_withdraw(entry_id=entry.pk, player=me)
                else:
                    dispute = ReasonForm(request.POST, prefix="dispute")
                    if dispute.is_valid():
                        table_entry_dispute(
                            entry_id=entry.pk, player=me, note=dispute.cleaned_data["reason"]
                        )
                if action != "dispute" or dispute.is_valid():
                    return redirect("table-entry", match_id=match.pk)
            else:
                error = gettext("that entry is no longer waiting (reload the page)")
        except FORM_ERRORS as exc:
            error = error_message(exc)
        match = match_get(match_id=match.pk)
    context = _context(match, me, form=form, dispute=dispute, error=error)
    if request.headers.get("HX-Request"):  # web/live.js asks for the panel again
        return render(request, "desk/_phone_panel.html", context)
    return render(request, "desk/phone_table.html", context, status=status)


def _shown(request: HttpRequest, entry: Any) -> bool:
    """Does the confirmation (or contest) name the open entry, as the page showed it (its
    id and the scoresheet's version it was entered against)?"""
    named = (request.POST.get("entry", ""), request.POST.get("entry_version", ""))
    return entry is not None and named == (str(entry.pk), str(entry.version))


def _context(match: Any, me: Any, **extra: Any) -> dict[str, Any]:
    entry = table_entry_open(match=match)
    latest = table_entry_latest(match=match) if entry is None else entry
    # A rejected entry stays before both players, with the organiser's reason, until a
    # hand is entered again (the scoresheet has not moved since it was entered).
    rejected = (
        latest
        if latest is not None and latest.status == "rejected" and latest.version == match.version
        else None
    )
    return {
        "rejected": rejected,
        "latest": latest,
        "place": match_places(match_ids=[match.pk]).get(str(match.pk)),
        "match": match,
        "me": me,
        "sheet": scoresheet(match),
        "entry": entry,
        "mine": entry is not None and entry.entered_by_id == me.pk,
        "finished": match.status != "in_progress",
        "tournament": None,
        **extra,
    }
