"""The desk's entries page (issue 40): the places and the waitlist, entries awaiting
approval, no-shows to take back before round 1, the promotions made, and the entry rules
(who may enter themselves, the withdrawal and check-in deadlines). Each change goes
through the tournament services, so each is an event (or the rules' row)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from tournaments.selectors import tournament_registration_of
from tournaments.selectors.entries import entry_rules_of, tournament_entries_overview
from tournaments.services import waitlist
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.desk.forms import IntegerField, LocalDateTimeField, local_to_aware

_WHEN = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class CapacityForm(forms.Form):
    capacity = IntegerField(
        required=False, min_value=2, max_value=100000, label=_("Places (empty: no limit)")
    )


class EntryRulesForm(forms.Form):
    self_registration = forms.BooleanField(required=False, label=_("Players register themselves"))
    members_only = forms.BooleanField(required=False, label=_("Club members only"))
    rating_min = IntegerField(required=False, min_value=0, label=_("Lowest rating"))
    rating_max = IntegerField(required=False, min_value=0, label=_("Highest rating"))
    approval_required = forms.BooleanField(required=False, label=_("Organisers approve each entry"))
    withdraw_until = LocalDateTimeField(
        required=False, widget=_WHEN, label=_("Players may withdraw until")
    )
    check_in_deadline = LocalDateTimeField(
        required=False, widget=_WHEN, label=_("Check-in deadline")
    )
    fee_amount = forms.DecimalField(
        required=False, min_value=0, max_digits=8, decimal_places=2, label=_("Entry fee")
    )
    fee_currency = forms.CharField(required=False, max_length=3, label=_("Currency (EUR, RON)"))

    def __init__(self, *args: Any, zone: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = zone

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["fee_currency"] = (data.get("fee_currency") or "").upper()
        for name in ("withdraw_until", "check_in_deadline"):
            if data.get(name) is not None:
                try:
                    data[name] = local_to_aware(data[name], self.zone)
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
        return data


def _rules_initial(tournament: Any) -> dict[str, Any]:
    rules = entry_rules_of(tournament)
    out = {name: getattr(rules, name) for name in waitlist.RULE_FIELDS}
    out["fee_currency"] = out["fee_currency"] or ""
    for name in ("withdraw_until", "check_in_deadline"):
        if out[name] is not None:
            out[name] = out[name].astimezone(tournament.zone).replace(tzinfo=None)
    return out


def _context(tournament: Any, **forms_: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "overview": tournament_entries_overview(tournament=tournament),
        "capacity_form": forms_.get("capacity_form")
        or CapacityForm(initial={"capacity": tournament.capacity}),
        "rules_form": forms_.get("rules_form")
        or EntryRulesForm(initial=_rules_initial(tournament), zone=tournament.time_zone),
        "error": forms_.get("error", ""),
    }


@desk_tournament
def entries(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The places and the waitlist; POST sets the capacity."""
    if request.method != "POST":
        return render(request, "desk/entries.html", _context(tournament))
    form = CapacityForm(request.POST)
    if form.is_valid():
        try:
            waitlist.tournament_capacity_set(
                tournament_id=tournament.pk, by=request.user,
                capacity=form.cleaned_data["capacity"],
            )  # fmt: skip
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-entries", tournament_id=tournament.pk)
    return render(
        request, "desk/entries.html", _context(tournament, capacity_form=form), status=400
    )


@require_POST
@desk_tournament
def entry_rules(request: HttpRequest, tournament: Any) -> HttpResponse:
    form = EntryRulesForm(request.POST, zone=tournament.time_zone)
    if form.is_valid():
        try:
            waitlist.tournament_entry_rules_set(
                tournament_id=tournament.pk, by=request.user, changes=form.cleaned_data
            )
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-entries", tournament_id=tournament.pk)
    return render(request, "desk/entries.html", _context(tournament, rules_form=form), status=400)


_ACTIONS = {
    "approve": waitlist.tournament_entry_approve,
    "refuse": waitlist.tournament_entry_refuse,
    "no-show-undo": waitlist.tournament_no_show_undo,
}


@require_POST
@desk_tournament
def entry_act(request: HttpRequest, tournament: Any, player_id: int, action: str) -> HttpResponse:
    """Approve or refuse an entry, or take back a no-show."""
    act = _ACTIONS.get(action)
    entry = tournament_registration_of(tournament=tournament, player_id=player_id)
    player = entry.player if entry is not None else None
    if act is None or player is None:
        context = _context(tournament, error=str(_("No such entry.")))
        return render(request, "desk/entries.html", context, status=400)
    try:
        act(tournament_id=tournament.pk, player=player, by=request.user)
    except FORM_ERRORS as exc:
        context = _context(tournament, error=error_message(exc))
        return render(request, "desk/entries.html", context, status=400)
    return redirect("desk-entries", tournament_id=tournament.pk)
