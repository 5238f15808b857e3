"""The desk's federations (issue 39): a federation's member list uploaded as CSV or XLSX
and the report of what matched, what is new and what conflicts, each line linked to the
players it names; the list as it stands. For staff and the organisers of its clubs,
through the federation's services and selectors only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from core.errors import NotFoundError, PermissionDeniedError
from players.selectors import players_by_ids
from tournaments.federation.files import member_rows
from tournaments.federation.selectors import (
    federation_get_for_manage,
    federation_members,
    federation_report_months,
    federations_managed_by,
)
from tournaments.federation.services import federation_members_import
from web.desk.access import FORM_ERRORS, LOGIN_URL, error_message

MAX_BYTES = 5 * 1024 * 1024

# Why a line was not linked, in words (the report's codes stay English in the API).
REASONS = {
    "similar": _("only a similar name: check the spelling"),
    "ambiguous": _("several players of that name"),
    "linked_elsewhere": _("that player has another federation id"),
    "duplicate_id": _("the federation id is twice in the file"),
    "unknown_club": _("the club is not in the federation"),
    "incomplete": _("no federation id or no name"),
}


class MemberFileForm(forms.Form):
    file = forms.FileField(
        label=_("Member list (CSV or XLSX)"),
        help_text=_("Columns federation_id, name and club; birth_year and country optional."),
    )
    dry_run = forms.BooleanField(
        required=False, label=_("Only show the report (keep nothing)"), initial=False
    )


def _federation(request: HttpRequest, federation_id: int) -> Any:
    try:
        return federation_get_for_manage(federation_id=federation_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such federation") from exc
    except PermissionDeniedError as exc:
        raise PermissionDenied("only the organisers of its clubs") from exc


def _report_lines(report: Any, rows: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """The report's lines with the file's names and the players they name (linked)."""
    names = {r.line: r for r in rows}
    ids = set()
    for line in (*report.matched, *report.conflicts):
        ids.update(line.get("players", []))
        if line.get("player"):
            ids.add(line["player"])
    players = players_by_ids(ids=ids)

    def shown(line: dict[str, Any]) -> dict[str, Any]:
        row = names.get(line["line"])
        named = [*line.get("players", []), *([line["player"]] if line.get("player") else [])]
        return {
            **line,
            "name": row.name if row else "",
            "club": row.club if row else "",
            "reason_text": REASONS.get(line.get("reason", ""), line.get("reason", "")),
            "linked": [players[p] for p in named if p in players],
        }

    return {
        "matched": [shown(x) for x in report.matched],
        "new": [shown(x) for x in report.new],
        "conflicts": [shown(x) for x in report.conflicts],
    }


def federation_list(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    federations = federations_managed_by(user=request.user)
    if not federations:
        raise PermissionDenied("no federation of yours")
    return render(request, "desk/federations.html", {"federations": federations})


def federation_members_desk(request: HttpRequest, federation_id: int) -> HttpResponse:
    """The member list, and a file to import (with its report)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    federation = _federation(request, federation_id)
    form = MemberFileForm(request.POST or None, request.FILES or None)
    report, counts, status = None, None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                if upload.size > MAX_BYTES:
                    raise forms.ValidationError(_("the file is larger than 5 MB"))
                rows = member_rows(content=upload.read(), filename=upload.name)
                result = federation_members_import(
                    federation=federation, rows=rows, dry_run=form.cleaned_data["dry_run"]
                )
            except forms.ValidationError as exc:
                form.add_error("file", exc)
            except FORM_ERRORS as exc:
                form.add_error(None, error_message(exc))
            else:
                report, counts, status = _report_lines(result, rows), result.counts(), 200
    context = {
        "federation": federation,
        "form": form,
        "report": report,
        "counts": counts,
        "dry_run": form.is_bound and form.is_valid() and form.cleaned_data["dry_run"],
        "members": federation_members(federation=federation),
    }
    return render(request, "desk/federation_members.html", context, status=status)


def federation_reports_desk(request: HttpRequest, federation_id: int) -> HttpResponse:
    """The federation's monthly rating reports: a CSV and an HGXR file a month."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    federation = _federation(request, federation_id)
    context = {
        "federation": federation,
        "months": federation_report_months(federation_id=federation.pk),
    }
    return render(request, "desk/federation_reports.html", context)
