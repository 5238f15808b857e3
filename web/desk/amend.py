"""The desk amends a player's entry: an entry waiting at a table (pending or disputed) is
settled with the right values instead of accepting the wrong ones or rejecting it
(`games.services.table_entries.table_entry_amend`: the amended hand is recorded; the entry keeps
what was entered)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.selectors import match_get, table_entry_open
from games.services.table_entries import table_entry_amend
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.desk.entry_forms import amend_form
from web.desk.rounds import _pairing, _table_context


@require_POST
@desk_tournament
def entry_amend(
    request: HttpRequest, tournament: Any, number: int, table: int, entry_id: int
) -> HttpResponse:
    pairing = _pairing(tournament, number, table)
    match = match_get(match_id=pairing.match_id)
    entry = table_entry_open(match=match)
    form = amend_form(match, request.POST)
    if entry is None or entry.pk != entry_id:
        form.is_valid()
        form.add_error(None, "that entry is no longer open")
    elif form.is_valid():
        try:
            table_entry_amend(
                entry_id=entry.pk,
                by=request.user,
                hand=form.entry((match.player1_id, match.player2_id)),
                note=request.POST.get("note", ""),
            )
            return redirect("desk-table", tournament_id=tournament.pk, number=number, table=table)
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
    context = _table_context(tournament, number, pairing, amend=form)
    return render(request, "desk/table.html", context, status=400)
